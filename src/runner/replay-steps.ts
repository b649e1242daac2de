/**
 * `screenconf replay` of a failure the invariant watcher found (a READ-* requirement judged on whatever case bodies a
 * suite file received): it has no check of its own to run again, so its evidence's requests are sent as its
 * reproduction script sends them (report/repro-plan.ts: the creation of what they name, then the judged requests,
 * the ids the creations made in place of the run's), every setup step must answer with the status the run saw, and
 * the judged answers are judged by an invariant watcher (kit/invariants.ts), the same judge as in the run.
 */
import { parseJson } from '../base/json.ts';
import type { Redactor } from '../base/redact.ts';
import { ApiClient, type AuthMode } from '../client/api.ts';
import { RawJson } from '../client/encode.ts';
import { sleep } from '../client/limiter.ts';
import type { ReceivedResponse, Transport } from '../client/transport.ts';
import { InvariantWatcher } from '../kit/invariants.ts';
import type { Ledger } from '../provision/ledger.ts';
import { type Part, planSteps, type Step } from '../report/repro-plan.ts';
import type { Exchange } from '../results/exchange.ts';
import type { InvariantFindings } from '../results/invariants.ts';
import type { Failure } from '../results/report.ts';
import { idFromText } from '../spec/index.ts';

/** What a replay of one failure decided: the exit status it means, and why, in words. */
export interface Decision {
  exit: 0 | 1 | 2 | 3;
  why: string;
}

/** Where and as whom the steps are sent. */
export interface StepsTarget {
  baseUrl: string;
  transport: Transport;
  redactor: Redactor;
  ours: ApiClient | undefined;
  peer: ApiClient | undefined;
  /** Our client_secret, for a token request the evidence holds (redacted there). */
  clientSecret: string | undefined;
  ledger: Ledger;
  /**
   * The replay's own id (or one of the same length for this failure alone): the external ids it sends start
   * screenconf-<id>-, as its provisioner's do.
   */
  replayId: string;
  /** How long a started case may take to complete while a read waits for it. */
  processingTimeoutMs: number;
}

/** The run a failure came from: where it was recorded, and the prefix of its external ids. */
export interface RecordedRun {
  baseUrl: string;
  runId: string;
}

const POLL_MS = 200;

/** How many checks of a case body have an outcome (processing decided them); 0 for anything else. */
function decidedChecks(text: string | undefined): number {
  if (!text) return 0;
  try {
    const checks = (parseJson(text) as { checks?: unknown } | null)?.checks;
    return Array.isArray(checks)
      ? checks.filter((k) => k !== null && typeof k === 'object' && (k as { outcome?: unknown }).outcome != null).length
      : 0;
  } catch {
    return 0;
  }
}

/** The client and credential a step is sent with, or why the replay has none. */
function sender(s: Step, e: Exchange, t: StepsTarget): { client: ApiClient; auth: AuthMode } | string {
  const peer = s.who === 'peer' || s.who === 'peer-key';
  const client = peer ? t.peer : t.ours;
  const recorded = Object.entries(e.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1] ?? '';
  switch (s.who) {
    case 'none':
    case 'other': {
      const bare = t.ours ?? new ApiClient({ baseUrl: t.baseUrl, transport: t.transport, organisation: 'ours' });
      if (s.who === 'none') return { client: bare, auth: 'none' };
      return { client: bare, auth: { header: recorded.replace(/\[REDACTED\]/g, 'screenconf-not-a-credential') } };
    }
    case 'ours-key':
    case 'peer-key':
      if (!client?.hasApiKey) return `step ${s.n} sends ${peer ? "the peer organisation's" : 'our'} API key: give it`;
      return { client, auth: /^token /i.test(recorded) ? 'api-key-token' : 'api-key-bearer' };
    default:
      if (!client) return `step ${s.n} needs ${peer ? "the peer organisation's" : 'our'} credentials: give them`;
      return { client, auth: 'token' };
  }
}

/** A path or body of the plan, with its variables given their values. */
function fill(parts: readonly Part[], values: ReadonlyMap<string, string>): string {
  return parts.map((p) => ('variable' in p ? (values.get(p.variable) ?? '') : p.text)).join('');
}

/** The `k`-th "id" of an answer, as the scripts capture it (1-based, in the order of the text). */
function idAt(text: string, k: number): string | undefined {
  return [...text.matchAll(/"id"\s*:\s*(\d+)/g)][k - 1]?.[1];
}

/** The external_id a creation's body sends (its ledger entry names it). */
function externalIdOf(body: string | undefined): string | undefined {
  try {
    const v = body ? (parseJson(body) as { external_id?: unknown }) : undefined;
    return typeof v?.external_id === 'string' ? v.external_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends the steps of the failure's evidence and judges the judged answers on `requirement` with the invariant
 * watcher: 1 it breaks it again, 0 every judged answer held a case body it applies to and none broke it, 3 a setup
 * step answered otherwise than in the run or no judged answer held a body it applies to, 2 a step names a record the
 * run made outside the evidence (which the replay cannot make) or a credential is missing.
 */
export async function replayWatched(
  requirement: string,
  f: Failure,
  run: RecordedRun,
  t: StepsTarget,
): Promise<Decision> {
  const exchanges = (f.evidence?.exchanges ?? []).filter((e) => !e.request.cleanup);
  const steps = planSteps(exchanges, run.baseUrl, run.runId);
  if (!steps.some((s) => s.judged)) return { exit: 2, why: 'its evidence holds no judged request to replay' };
  const unresolved = steps.find((s) => s.unresolved.length);
  if (unresolved) {
    const named = [...new Set(unresolved.unresolved)].slice(0, 5).join(', ');
    return {
      exit: 2,
      why:
        `step ${unresolved.n} names ${named}, a record the run made outside this failure's evidence: the replay ` +
        'cannot make it',
    };
  }
  const values = new Map<string, string>([
    ['TAG', t.replayId],
    ['SECRET_JSON', JSON.stringify(t.clientSecret ?? '').slice(1, -1)],
  ]);
  const watcher = new InvariantWatcher(t.redactor, t.baseUrl);
  /** The watcher judges a judged answer; from a setup answer it learns the identities and deletions alone. */
  const see = (judge: boolean, method: string, path: string, res: ReceivedResponse, body?: string) => {
    const req = {
      method,
      url: res.exchange?.request.url ?? `${t.baseUrl}${path}`,
      headers: {},
      ...(body !== undefined ? { body } : {}),
    };
    if (judge) watcher.observe(req, res);
    else watcher.learn(req, res);
  };
  const observe = (method: string, path: string, res: ReceivedResponse) => see(true, method, path, res);
  /** The cases the judged requests name alone (GET or PATCH of one case), and who may read them. */
  const judgedCases: { path: string; client: ApiClient }[] = [];
  for (const [i, s] of steps.entries()) {
    const e = exchanges[i]!;
    const how = sender(s, e, t);
    if (typeof how === 'string') return { exit: 2, why: how };
    const path = fill(s.path, values);
    const body = s.body ? fill(s.body, values) : undefined;
    const what = `${s.method} ${path}`;
    const org = s.who.startsWith('peer') ? 'b' : 'a';
    const externalId = s.creates ? (externalIdOf(body) ?? `screenconf-${t.replayId}-replay-${s.n}`) : undefined;
    if (externalId) t.ledger.intent(org, externalId);
    const send = () =>
      how.client.request(s.method, path, {
        auth: how.auth,
        ...(body !== undefined
          ? { body: new RawJson(body), headers: { 'content-type': s.contentType ?? 'application/json' } }
          : {}),
      });
    let res: ReceivedResponse = await send();
    // The run read the case once it had completed processing (processing time is not shown): so does the replay.
    const until = Date.now() + t.processingTimeoutMs;
    while (s.untilComplete && !/"is_complete"\s*:\s*true/.test(res.text) && Date.now() < until) {
      await sleep(POLL_MS);
      res = await send();
    }
    // A judged read the run made part-way through processing (some checks decided): the replay reads as far in.
    const seen = s.judged && s.method === 'GET' ? decidedChecks(e.response?.body) : 0;
    while (seen > decidedChecks(res.text) && Date.now() < until) {
      await sleep(POLL_MS);
      res = await send();
    }
    for (const c of s.captures) {
      const id = idAt(res.text, c.ordinal);
      if (id !== undefined) values.set(c.variable, id);
    }
    const made = s.creates && values.has(s.creates) ? idFromText(values.get(s.creates)!) : undefined;
    if (externalId && made !== undefined) t.ledger.created(org, externalId, made);
    see(s.judged, s.method, path, res, body);
    if (s.judged) {
      const one = /^(\/api\/cases\/\d+\/)/.exec(path)?.[1];
      const reader = s.who.startsWith('peer') ? t.peer : t.ours;
      if (one && reader) judgedCases.push({ path: one, client: reader });
      continue;
    }
    if (s.status !== undefined && res.status !== s.status)
      return {
        exit: 3,
        why: `setup diverged at step ${s.n} (${what}): the run saw ${s.status}, the replay ${res.status}`,
      };
    if (s.captures.length && !values.has(s.captures[0]!.variable))
      return {
        exit: 3,
        why: `setup diverged at step ${s.n} (${what}): the run's answer held an id, the replay's none`,
      };
  }
  // The judged answers hold no case body the requirement applies to (a PATCH the run's server accepted and this one
  // refuses; a read sooner in processing than the run's, before any risk score): the watcher judges the case as
  // that request left it, read as the checks read it, until a body it applies to comes or processing completes.
  const applies = () => (watcher.peek().judged[requirement as keyof InvariantFindings['judged']] ?? 0) > 0;
  let readBack = '';
  const until = Date.now() + t.processingTimeoutMs;
  while (!applies() && judgedCases.length) {
    readBack = ` (in the case read back: the judged answers held no case body ${requirement} applies to)`;
    let complete = true;
    for (const { path, client } of judgedCases) {
      const res = await client.request('GET', path);
      observe('GET', path, res);
      complete &&= /"is_complete"\s*:\s*true/.test(res.text);
    }
    if (complete || Date.now() >= until) break;
    await sleep(POLL_MS);
  }
  const seen = watcher.take();
  if (seen.counts[requirement as keyof typeof seen.counts]) {
    const v = seen.violations.find((x) => x.requirement === requirement);
    const shown = v ? `${v.what}, in the answer to ${v.request}: expected ${v.expected}, received ${v.received}` : '';
    return { exit: 1, why: `the invariant watcher finds it broken again${readBack}: ${shown}` };
  }
  if (seen.judged[requirement as keyof typeof seen.judged])
    return { exit: 0, why: `the invariant watcher finds no case body breaking it${readBack}` };
  return {
    exit: 3,
    why: `no judged answer held a case body ${requirement} applies to (${seen.watched} case bodies watched)`,
  };
}
