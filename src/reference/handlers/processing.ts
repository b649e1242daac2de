/**
 * Asynchronous case processing after `start` (a provisioning convention, docs/architecture.md): each check
 * moves PENDING → DECIDING → DECIDED (or SKIPPED, where the scoring decides none), one step at a time; the case
 * then completes, its outcome the worst of its checks', and its completion webhook goes out.
 */
import { createHash } from 'node:crypto';
import type { Id, Outcome } from '../../spec/index.ts';
import type { CaseRecord, CheckRecord } from '../store.ts';
import { sendWebhook } from './webhook.ts';
import type { Env, ProcessingPoints } from '../points.ts';

/** Check types that carry no risk of their own (information): decided with a risk score of exactly 0. */
const NO_RISK: ReadonlySet<CheckRecord['check_type']> = new Set(['INFO_BLOCK']);

/** A deterministic score in [0, 1] for a check, so runs are reproducible; scoring differs by check_type. */
function scoreFor(caseId: Id, check: CheckRecord): number {
  if (NO_RISK.has(check.check_type)) return 0;
  const h = createHash('sha256').update(`${caseId}:${check.id}`).digest();
  return Math.round((h.readUInt32BE(0) / 0xffffffff) * 1000) / 1000;
}

function outcomeFor(score: number): Outcome {
  if (score >= 0.7) return 'REJECTED';
  if (score >= 0.4) return 'PENDING';
  return 'ACCEPTED';
}

/** The correct processing: scores from the ids, a webhook at completion. */
export function processingDefaults(env: Env): ProcessingPoints {
  return {
    processingStarted: () => {},
    checkDeciding: () => {},
    caseCompleted: (c) => sendWebhook(env, c),
    awaitsDocuments: () => false,
    scoreCheck: scoreFor,
    storedRiskScore: (score) => score,
  };
}

/** Starts (or reruns) processing of a case. */
export function startProcessing(env: Env, c: CaseRecord) {
  const now = new Date().toISOString();
  c.generation += 1;
  c.is_started = true;
  c.is_complete = false;
  c.outcome = null;
  c.updated_at = now;
  for (const check of env.store.checksOfCase(c.org, c.id)) {
    Object.assign(check, { status: 'PENDING', outcome: null, risk_score: null, updated_at: now });
  }
  env.b.processingStarted(c);
  const generation = c.generation;
  env.timers.later(env.options.processing.stepMs, () => step(env, c.org, c.id, generation));
}

/** One step: the next check moves on, or the case completes. A rerun or deletion (new generation) stops it. */
function step(env: Env, org: string, caseId: Id, generation: number) {
  const c = env.store.getCase(org, caseId);
  if (!c || c.generation !== generation) return;
  const now = new Date().toISOString();
  const checks = env.store.checksOfCase(org, caseId);
  const next = checks.find((k) => k.status === 'PENDING' || k.status === 'DECIDING');
  if (!next) {
    c.outcome = caseOutcome(checks.flatMap((k) => (k.outcome === null ? [] : [k.outcome])));
    c.is_complete = true;
    c.updated_at = now;
    env.b.caseCompleted(c);
    return;
  }
  if (next.status === 'PENDING') {
    if (env.b.awaitsDocuments(next)) return;
    Object.assign(next, { status: 'DECIDING', updated_at: now });
    env.b.checkDeciding(c, next, next === checks.at(-1));
  } else {
    const score = env.b.scoreCheck(caseId, next);
    if (score === null) Object.assign(next, { status: 'SKIPPED', updated_at: now });
    else decide(env, next, score, now);
  }
  env.timers.later(env.options.processing.stepMs, () => step(env, org, caseId, generation));
}

/** A check decided with its score: its outcome, title, note and reasoning follow from it. */
function decide(env: Env, check: CheckRecord, score: number, now: string) {
  const outcome = outcomeFor(score);
  Object.assign(check, {
    status: 'DECIDED',
    risk_score: env.b.storedRiskScore(score),
    outcome,
    title: check.title ?? `${check.check_type || 'Check'} ${check.id}`,
    note: `**${outcome}** with risk score ${score}.`,
    reasoning: [`Screened ${check.check_type || 'check'} input.`, `Risk score ${score} gives ${outcome}.`],
    updated_at: now,
  });
}

/** The case outcome: REJECTED if any check is, else PENDING if any is, else ACCEPTED; null without decided checks. */
function caseOutcome(outcomes: Outcome[]): Outcome | null {
  if (outcomes.length === 0) return null;
  if (outcomes.includes('REJECTED')) return 'REJECTED';
  if (outcomes.includes('PENDING')) return 'PENDING';
  return 'ACCEPTED';
}
