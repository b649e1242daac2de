/**
 * Asynchronous case processing after `start`, and the completion webhook. Each check moves
 * PENDING → DECIDING → DECIDED; the case then completes and its read representation is POSTed
 * to the webhook_url it has at that moment.
 */
import { createHash } from 'node:crypto';
import type { Outcome } from '../spec/index.ts';
import type { FaultName } from './faults.ts';
import { caseView, checkView } from './representation.ts';
import type { CaseRecord, Store } from './store.ts';

export interface ProcessingOptions {
  /** Delay between two processing steps, in ms. */
  stepMs: number;
  /** Delays before webhook retries after a failed delivery, in ms. */
  retryDelaysMs: readonly number[];
  /** Time allowed for one webhook delivery, in ms. */
  deliveryTimeoutMs: number;
}

export const DEFAULT_PROCESSING: ProcessingOptions = {
  stepMs: 40,
  retryDelaysMs: [500, 1500],
  deliveryTimeoutMs: 5000,
};

/** A deterministic score in [0, 1] for a check, so runs are reproducible. */
function scoreFor(caseId: number, checkId: number): number {
  const h = createHash('sha256').update(`${caseId}:${checkId}`).digest();
  return Math.round((h.readUInt32BE(0) / 0xffffffff) * 1000) / 1000;
}

function outcomeFor(score: number): Outcome {
  if (score >= 0.7) return 'REJECTED';
  if (score >= 0.4) return 'PENDING';
  return 'ACCEPTED';
}

/** What a case looked like when its processing started: read only by the webhook.* faults. */
interface StartSnapshot {
  webhookUrl: string | null;
  checks: ReturnType<typeof checkView>[];
}

export class Processor {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #deliveries = new Set<Promise<void>>();
  readonly #started = new Map<number, StartSnapshot>();
  /** Per organisation, the case started last (fault webhook.crosstalk). */
  readonly #lastStarted = new Map<string, number>();
  #closed = false;

  constructor(
    private readonly store: Store,
    private readonly faults: ReadonlySet<FaultName>,
    private readonly options: ProcessingOptions,
  ) {}

  #later(ms: number, fn: () => void) {
    if (this.#closed) return;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      if (!this.#closed) fn();
    }, ms);
    this.#timers.add(t);
  }

  /** Starts (or reruns) processing of a case. */
  start(org: string, caseId: number) {
    const c = this.store.getCase(org, caseId);
    if (!c) return;
    const now = new Date().toISOString();
    c.generation += 1;
    c.is_started = true;
    c.is_complete = false;
    c.outcome = null;
    c.updated_at = now;
    for (const check of this.store.checksOfCase(org, caseId)) {
      Object.assign(check, { status: 'PENDING', outcome: null, risk_score: null, updated_at: now });
    }
    const generation = c.generation;
    this.#started.set(caseId, {
      webhookUrl: c.webhook_url,
      checks: this.store.checksOfCase(org, caseId).map((k) => checkView(k, this.faults)),
    });
    this.#lastStarted.set(org, caseId);
    this.#later(this.options.stepMs, () => this.#step(org, caseId, generation));
  }

  #step(org: string, caseId: number, generation: number) {
    const c = this.store.getCase(org, caseId);
    if (!c || c.generation !== generation) return;
    const now = new Date().toISOString();
    const checks = this.store.checksOfCase(org, caseId);
    const next = checks.find((k) => k.status !== 'DECIDED');
    if (next) {
      if (next.status === 'PENDING') {
        Object.assign(next, { status: 'DECIDING', updated_at: now });
        if (this.faults.has('webhook.early') && next === checks.at(-1)) this.#notify(org, caseId);
      } else {
        const score = scoreFor(caseId, next.id);
        const outcome = outcomeFor(score);
        Object.assign(next, {
          status: 'DECIDED',
          risk_score: this.faults.has('read.risk-out-of-range') ? Math.round(score * 1000) / 10 : score,
          outcome,
          title: next.title ?? `${next.check_type || 'Check'} ${next.id}`,
          note: `**${outcome}** with risk score ${score}.`,
          reasoning: [`Screened ${next.check_type || 'check'} input.`, `Risk score ${score} gives ${outcome}.`],
          updated_at: now,
        });
      }
      this.#later(this.options.stepMs, () => this.#step(org, caseId, generation));
      return;
    }
    const outcomes = checks.map((k) => k.outcome);
    c.outcome =
      outcomes.length === 0
        ? null
        : outcomes.includes('REJECTED')
          ? 'REJECTED'
          : outcomes.includes('PENDING')
            ? 'PENDING'
            : 'ACCEPTED';
    c.is_complete = true;
    c.updated_at = now;
    if (!this.faults.has('webhook.early')) this.#notify(org, caseId);
    this.#started.delete(caseId);
  }

  /** The webhook_url to call at completion: the case's own, unless a webhook.* fault says otherwise. */
  #webhookUrl(c: CaseRecord): string | null {
    const before = this.#started.get(c.id)?.webhookUrl ?? null;
    if (before !== null && c.webhook_url === null && this.faults.has('webhook.null-notifies')) return before;
    if (before !== null && c.webhook_url !== null && this.faults.has('webhook.old-url')) return before;
    return c.webhook_url;
  }

  /** The body of the completion webhook: the case read representation, bent by the webhook.* faults. */
  #webhookBody(org: string, c: CaseRecord): Record<string, unknown> {
    const latest = this.faults.has('webhook.crosstalk')
      ? this.store.getCase(org, this.#lastStarted.get(org) ?? c.id)
      : undefined;
    const view = caseView(this.store, latest ?? c, this.faults);
    if (this.faults.has('webhook.stale-checks')) view.checks = this.#started.get(c.id)?.checks ?? view.checks;
    if (this.faults.has('webhook.no-input-details') && Array.isArray(view.checks)) {
      view.checks = (view.checks as Record<string, unknown>[]).map((k) => ({ ...k, input_details: null }));
    }
    if (this.faults.has('webhook.no-checks')) delete view.checks;
    return view;
  }

  #notify(org: string, caseId: number) {
    const c = this.store.getCase(org, caseId);
    if (!c || this.faults.has('webhook.none')) return;
    const url = this.#webhookUrl(c);
    if (!url) return;
    const body = JSON.stringify(this.#webhookBody(org, c));
    const delivery = this.#deliver(url, body, 0);
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  async #deliver(url: string, body: string, attempt: number, again = this.faults.has('webhook.twice')): Promise<void> {
    if (this.#closed) return;
    let ok = false;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'screenconf-reference' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.deliveryTimeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      ok = res.status >= 200 && res.status < 300;
    } catch {
      ok = false;
    }
    const delay = this.options.retryDelaysMs[attempt];
    if (!ok && delay !== undefined) {
      await new Promise<void>((resolve) => this.#later(delay, resolve));
      return this.#deliver(url, body, attempt + 1, again);
    }
    if (ok && again) {
      await new Promise<void>((resolve) => this.#later(50, resolve));
      return this.#deliver(url, body, 0, false);
    }
  }

  /** Stops timers; pending deliveries are abandoned. */
  close() {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }
}
