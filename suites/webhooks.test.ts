/**
 * The completion webhook (interface § Events; § Resources › Case webhook_url; § What the service
 * does 4). A real receiver (src/webhooks/) listens for the whole file and gives every case its
 * own unguessable URL; webhook_url is set by PATCH and processing started by the provisioning
 * conventions. Request shape, signing and retries are not shown: they are recorded, not judged.
 *
 * One case (the baseline) is processed once and its delivery judged by several checks, one
 * requirement each; a re-run of a failed body check processes a fresh one. The receiver holds its
 * answer to that delivery while the case is read once (what a read shows when the webhook arrives).
 * When the server delivers nothing at all, only WEBHOOK-DELIVERED fails: the checks that need a
 * delivery skip. A receiver that never answers is judged last, alone, so a sender it holds up holds
 * up no other check's webhook.
 */
import { parseJson, stringifyJson } from '../src/base/json.ts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { HarnessError } from '../src/errors.ts';
import { isLoopbackHost } from '../src/base/net.ts';
import { caseInvariants } from '../src/kit/invariants.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import {
  CASE_FIELDS,
  CHECK_FIELDS,
  CUSTOMER_FIELDS,
  check,
  deepEqual,
  excerpt,
  expectCaseBody,
  fail,
  getHarness,
  isJsonObject,
  looksLikeCase,
  readCase,
  readUntil,
  readUntilComplete,
  type CaseBody,
  type CheckApi,
  type JsonObject,
} from '../src/kit/index.ts';
import type { Id } from '../src/spec/index.ts';
import type { NewCase } from '../src/provision/provisioner.ts';
import { makeStates, type StateCase, stateCaseLabel, startStates } from '../src/kit/states.ts';
import {
  createWebhookReceiver,
  WebhookTimeoutError,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookReceiver,
} from '../src/webhooks/index.ts';

const SETTINGS = getHarness().run.webhooks;
/** The webhook deadline (--webhook-timeout-ms): every wait for a delivery is bounded by it. */
const DEADLINE_MS = SETTINGS.timeoutMs;
/** The shortest quiet period watched for a delivery that must not come (the run chooses it by its target). */
const QUIET_MIN_MS = SETTINGS.quietMinMs;
/** A check waits for at most a few deadlines in a row (first delivery, a second one, a quiet period). */
const CHECK_TIMEOUT_MS = 4 * DEADLINE_MS + 30_000;
/**
 * The cases processed at once (WEBHOOK-NO-CROSSTALK), whose receivers answer each of these: any 2xx acknowledges
 * a delivery (WEBHOOK-ONE-PER-COMPLETION; the baseline's answers 204, the receiver's default).
 */
const ACK_STATUSES = [200, 201, 202, 204] as const;

let receiver: WebhookReceiver | undefined;
let receiverError: unknown;

beforeAll(async () => {
  try {
    receiver = await createWebhookReceiver({
      host: SETTINGS.host,
      port: SETTINGS.port,
      ...(SETTINGS.publicUrl ? { publicUrl: SETTINGS.publicUrl } : {}),
    });
  } catch (err) {
    receiverError = err; // every check reports it as a harness fault
  }
});

afterAll(async () => {
  await receiver?.close();
});

// ---------------------------------------------------------------------------------------------
// Setting up: the receiver, cases with a webhook_url, processing.

/** A scenario cannot be set up on this target: the check that needs it is skipped with the reason. */
class CannotJudge extends Error {
  override readonly name = 'CannotJudge';
}

/** The receiver, or a skip when the target cannot reach it. */
function ready(t: CheckApi): WebhookReceiver {
  if (receiverError) throw receiverError;
  if (!receiver) throw new HarnessError('SC_HARNESS', 'the webhook receiver was not started');
  const target = new URL(t.run.target.baseUrl).hostname;
  if (
    t.run.target.kind === 'url' &&
    !t.run.webhooks.publicUrl &&
    isLoopbackHost(new URL(receiver.url).hostname) &&
    !isLoopbackHost(target)
  ) {
    t.skip(
      `the target ${target} is not this machine and cannot reach the receiver at ${receiver.url}: give ` +
        `--webhook-public-url (a tunnel or an address the target reaches) or --webhook-host`,
    );
  }
  return receiver;
}

/** Runs a setup step; a CannotJudge becomes a skip of the current check. */
async function judgeable<T>(t: CheckApi, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof CannotJudge) return t.skip(err.message);
    throw err;
  }
}

/** Checks with distinct input_details, marked so a body from another run cannot match by chance. */
function checksWithInputs(count: number): NonNullable<NewCase['checks']> {
  const marker = randomBytes(6).toString('hex');
  const all: NonNullable<NewCase['checks']> = [
    {
      check_type: 'PEP',
      input_details: { source: 'screenconf', marker, subject: { names: ['Ann Example', 'A. Example'], born: 1970 } },
    },
    { check_type: 'SANCTIONS', input_details: { lists: ['OFAC', 'EU'], marker, fuzzy: true, threshold: 0.85 } },
    { check_type: 'ADVERSE_MEDIA', input_details: { marker, sources: [], note: 'ünïcödé ✓' } },
  ];
  return all.slice(0, count);
}

/** Sets webhook_url by PATCH; returns the answer's case. A refusal means the scenario cannot run here. */
async function setWebhookUrl(t: CheckApi, id: Id, url: string | null): Promise<CaseBody> {
  const res = await t.primary.api.patchCase(id, { webhook_url: url });
  if (res.status < 200 || res.status > 299) {
    const hint =
      url !== null && res.status < 500 ? ' (a target that refuses this address needs --webhook-public-url)' : '';
    throw new CannotJudge(
      `PATCH webhook_url ${stringifyJson(url)} of case ${id} answered ${excerpt(res).slice(0, 200)}${hint}`,
    );
  }
  return expectCaseBody(res.json, id, `the answer to PATCH webhook_url of case ${id}`);
}

/** Starts processing; returns when the start was answered (ms since the epoch). */
async function start(t: CheckApi, id: Id): Promise<number> {
  await t.primary.provision.startCase(id);
  return Date.now();
}

/** The first delivery at an endpoint within the deadline, or undefined. */
async function firstDelivery(endpoint: WebhookEndpoint): Promise<WebhookDelivery | undefined> {
  try {
    return (await endpoint.waitForDelivery({ timeoutMs: DEADLINE_MS }))[0];
  } catch (err) {
    if (err instanceof WebhookTimeoutError) return undefined;
    throw err;
  }
}

/** The first delivery at any of the endpoints within the deadline, or undefined. */
async function firstOf(
  endpoints: WebhookEndpoint[],
): Promise<{ endpoint: WebhookEndpoint; delivery: WebhookDelivery } | undefined> {
  try {
    return await Promise.any(
      endpoints.map(async (endpoint) => ({
        endpoint,
        delivery: (await endpoint.waitForDelivery({ timeoutMs: DEADLINE_MS }))[0]!,
      })),
    );
  } catch (err) {
    const errors = err instanceof AggregateError ? (err.errors as unknown[]) : [err];
    const other = errors.find((e) => !(e instanceof WebhookTimeoutError));
    if (other) throw other;
    return undefined;
  }
}

/** All deliveries at the endpoint once `ms` have passed since `from` (ms since the epoch). */
function deliveriesUntil(endpoint: WebhookEndpoint, from: number, ms: number): Promise<WebhookDelivery[]> {
  return endpoint.deliveriesWithin(Math.max(0, from + ms - Date.now()));
}

/** Reads the case until it shows is_complete true, for at most the deadline. */
function readUntilCompleted(t: CheckApi, id: Id, when: string): Promise<{ body: CaseBody; complete: boolean }> {
  return readUntilComplete(t.primary, id, DEADLINE_MS, `reading case ${id} ${when}`);
}

// ---------------------------------------------------------------------------------------------
// Reading a delivery.

/** The JSON a delivery carries: its body, or (form-encoded) a field holding a JSON object. */
function payload(d: WebhookDelivery): { json: unknown; where: string } | undefined {
  if (d.json !== undefined) return { json: d.json, where: '' };
  if (/application\/x-www-form-urlencoded/i.test(d.headers['content-type'] ?? '')) {
    for (const [name, value] of new URLSearchParams(d.body)) {
      try {
        const json = parseJson(value) as unknown;
        if (isJsonObject(json)) return { json, where: `form field ${name}: ` };
      } catch {
        // not JSON: try the next field
      }
    }
  }
  return undefined;
}

/** The ids of the cases a delivery carries (objects that look like a case, up to three levels down). */
function carriedCaseIds(d: WebhookDelivery): Id[] {
  const p = payload(d);
  const ids: Id[] = [];
  const walk = (v: unknown, depth: number) => {
    if (looksLikeCase(v)) ids.push(v.id as Id);
    if (depth === 0 || v === null || typeof v !== 'object') return;
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth - 1);
  };
  if (p) walk(p.json, 3);
  return ids;
}

interface Located {
  body: JsonObject;
  /** `the whole body`, or a path such as `$.data`. */
  where: string;
  /** The other fields of the envelope, when the case is inside one. */
  envelope: string[];
}

/** The case with this id in a delivery: the whole body, or an object inside it (an envelope). */
function locateCase(d: WebhookDelivery, id: Id): Located | undefined {
  const p = payload(d);
  if (!p) return undefined;
  const found: { body: JsonObject; path: string; parent: JsonObject | undefined }[] = [];
  const walk = (v: unknown, path: string, parent: JsonObject | undefined, depth: number) => {
    if (isJsonObject(v)) {
      if (v.id === id) found.push({ body: v, path, parent });
      if (depth > 0) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`, v, depth - 1);
    } else if (Array.isArray(v) && depth > 0)
      for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`, parent, depth - 1);
  };
  walk(p.json, '$', undefined, 3);
  // The object most like a case: an envelope may carry a summary of the case beside it, with the same id.
  const fields = (o: JsonObject) => Object.keys(o).filter((k) => CASE_FIELDS.has(k)).length;
  const cases = found.filter((f) => looksLikeCase(f.body)).sort((x, y) => fields(y.body) - fields(x.body));
  const best = cases[0] ?? found.find((f) => f.path === '$');
  if (!best) return undefined;
  const where = p.where + (best.path === '$' ? 'the whole body' : best.path);
  const envelope = best.parent ? Object.keys(best.parent).filter((k) => best.parent![k] !== best.body) : [];
  return { body: best.body, where, envelope };
}

const SHOWN_BODY_CHARS = 600;

/** A delivery in a failure message: method, path, content type, body excerpt. */
function show(d: WebhookDelivery): string {
  const body =
    d.body.length > SHOWN_BODY_CHARS ? `${d.body.slice(0, SHOWN_BODY_CHARS)}… (${d.body.length} chars)` : d.body;
  return (
    `${d.method} ${d.path} (${d.headers['content-type'] ?? 'no content-type'}) at ${d.receivedAtIso}: ` +
    `${body || '(empty body)'}`
  );
}

/**
 * Fails, after reading the case once more: the delivery is not an exchange with the target, so that read is the
 * exchange the failure judges (and its reproduction replays).
 */
async function failFor(t: CheckApi, caseId: Id, what: string, expected: string, received: string): Promise<never> {
  const read = await t.primary.provision.readCase(caseId).catch(() => undefined);
  return fail(what, expected, received, { judged: [read] });
}

/** The strays so far, for a failure message (a mangled URL shows up there). */
function straysNote(): string {
  const strays = receiver?.strays() ?? [];
  if (strays.length === 0) return '';
  const listed = strays
    .slice(0, 3)
    .map((s) => `${s.method} ${s.path.slice(0, 80)}`)
    .join('; ');
  return `; meanwhile the receiver got ${strays.length} request(s) at paths no case was given: ${listed}`;
}

// ---------------------------------------------------------------------------------------------
// The baseline: one case, webhook_url set by PATCH, processed once.

/** A read of the case made when its delivery arrived, the receiver's answer to the delivery held meanwhile. */
interface ArrivalRead {
  /** The answer to the read (GET, or an empty PATCH where GET is missing), or what stopped it. */
  res: ReceivedResponse | undefined;
  error?: unknown;
  /** The case it shows, when it answered 200 with the case. */
  body: CaseBody | undefined;
  /** Whether it was answered while the delivery's answer was held (false: only once the hold ended). */
  whileHeld: boolean;
  /** How long the delivery's answer was held, in ms. */
  heldMs: number;
}

/** The delivered results against the case as read once they agree (settledRead). */
interface Settled {
  /** The read that showed the delivered results, or the last one read when none did. */
  read: CaseBody;
  /** How the delivered results differ from that read (none when it showed them). */
  differences: string[];
}

interface Baseline {
  caseId: Id;
  url: string;
  endpoint: WebhookEndpoint;
  /** When the start request was answered (ms since the epoch). */
  startedAt: number;
  /** The first delivery, or undefined when none arrived within the deadline. */
  first: WebhookDelivery | undefined;
  /** The read made when the first delivery arrived (undefined when none did). */
  atArrival: ArrivalRead | undefined;
  /** The case read until it shows the delivered results, once a check asked (settledRead). */
  settled?: Promise<Settled>;
}

let baselineRun: Promise<Baseline> | undefined;

async function runBaseline(t: CheckApi): Promise<Baseline> {
  const r = ready(t);
  const c = await t.primary.provision.createCase({ checks: checksWithInputs(2) });
  const endpoint = r.endpoint(`case ${c.id}`);
  const release = endpoint.hold();
  try {
    await setWebhookUrl(t, c.id, endpoint.url);
    const startedAt = await start(t, c.id);
    const first = await firstDelivery(endpoint);
    const atArrival = first && (await readAtArrival(t, c.id, release));
    return { caseId: c.id, url: endpoint.url, endpoint, startedAt, first, atArrival };
  } finally {
    release();
  }
}

/**
 * Reads the case while the receiver holds its answer to the delivery that just arrived, then releases the answer:
 * what a receiver that reads the case on its webhook is shown. Held until the read is answered, at most the
 * deadline: a server that cannot answer the read before the receiver answers shows it nothing meanwhile.
 */
async function readAtArrival(t: CheckApi, id: Id, release: () => void): Promise<ArrivalRead> {
  const from = Date.now();
  let answered = false;
  const read = t.primary.provision.readCase(id).finally(() => {
    answered = true;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DEADLINE_MS);
  });
  await Promise.race([read.catch(() => undefined), deadline]);
  clearTimeout(timer);
  const whileHeld = answered;
  release();
  const heldMs = Date.now() - from;
  // What stopped the read (a timeout) is WEBHOOK-AFTER-COMMIT's to report; the other checks read for themselves.
  const { res, error } = await read.then(
    (r) => ({ res: r, error: undefined }),
    (e: unknown) => ({ res: undefined, error: e }),
  );
  const body = res?.status === 200 && isJsonObject(res.json) && res.json.id === id ? (res.json as CaseBody) : undefined;
  return { res, ...(error === undefined ? {} : { error }), body, whileHeld, heldMs };
}

/** The baseline, processed once per file (or afresh when a check is re-run after failing). */
function baseline(t: CheckApi, fresh = false): Promise<Baseline> {
  if (fresh || !baselineRun) baselineRun = runBaseline(t);
  return judgeable(t, () => baselineRun!);
}

/** The baseline's delivery; skips when none arrived (WEBHOOK-DELIVERED judges that). */
async function delivered(t: CheckApi, fresh = false): Promise<Baseline & { first: WebhookDelivery }> {
  const b = await baseline(t, fresh);
  if (!b.first)
    return t.skip(
      `no webhook arrived for case ${b.caseId} at ${b.url} within ${DEADLINE_MS} ms (WEBHOOK-DELIVERED): nothing to ` +
        `judge`,
    );
  return b as Baseline & { first: WebhookDelivery };
}

/** How long a delivery that must not come is watched for: twice the baseline's latency, in [QUIET_MIN_MS, deadline]. */
function quietMs(b: Baseline & { first: WebhookDelivery }): number {
  return Math.min(DEADLINE_MS, Math.max(QUIET_MIN_MS, 2 * (b.first.receivedAt - b.startedAt)));
}

/** Counts the attempts of a check, so a re-run after a failure processes a fresh baseline. */
function attempts() {
  let n = 0;
  return () => n++ > 0;
}

/** The baseline's case in its delivery, if it carries one. */
function locatedIn(b: Baseline & { first: WebhookDelivery }): Located | undefined {
  return locateCase(b.first, b.caseId);
}

/** The baseline's delivered case when it is well-formed and complete, else a skip naming who judges it. */
function completedIn(t: CheckApi, b: Baseline & { first: WebhookDelivery }): JsonObject {
  const located = locatedIn(b);
  if (!located || caseInvariants(located.body).length > 0)
    return t.skip(`the webhook for case ${b.caseId} does not carry a well-formed case (judged by WEBHOOK-BODY-CASE)`);
  if (located.body.is_complete !== true)
    return t.skip(
      `the webhook for case ${b.caseId} shows is_complete ${String(located.body.is_complete)} (judged by ` +
        'WEBHOOK-BODY-COMPLETE)',
    );
  return located.body;
}

/**
 * How the results a delivered case announces differ from a read of it: is_complete, the case's outcome and
 * risk_score, its checks by id and each one's outcome and risk_score.
 */
function resultDifferences(sent: JsonObject, read: JsonObject): string[] {
  const differences: string[] = [];
  const same = (what: string, inBody: unknown, inRead: unknown) => {
    if (!deepEqual(inBody ?? null, inRead ?? null))
      differences.push(
        `${what}: ${stringifyJson(inBody) ?? 'missing'} in the webhook, ${stringifyJson(inRead) ?? 'missing'} ` +
          'in the read',
      );
  };
  same('is_complete', sent.is_complete, read.is_complete);
  same('case outcome', sent.outcome, read.outcome);
  same('case risk_score', sent.risk_score, read.risk_score);
  const byId = (checks: unknown) =>
    new Map((Array.isArray(checks) ? checks.filter(isJsonObject) : []).map((k) => [k.id, k] as const));
  const sentChecks = byId(sent.checks);
  const readChecks = byId(read.checks);
  same('check ids', [...sentChecks.keys()].sort(), [...readChecks.keys()].sort());
  for (const [id, k] of readChecks) {
    const s = sentChecks.get(id);
    if (!s) continue;
    same(`check ${String(id)} outcome`, s.outcome, k.outcome);
    same(`check ${String(id)} risk_score`, s.risk_score, k.risk_score);
  }
  return differences;
}

/**
 * The delivered results against the case as read: the read made at arrival when it shows them, else reads until
 * one does or the deadline passes. Once per baseline: WEBHOOK-BODY-RESULTS (what the results are) and
 * WEBHOOK-AFTER-COMMIT (when a read shows them) share it.
 */
function settledRead(t: CheckApi, b: Baseline, sent: JsonObject): Promise<Settled> {
  b.settled ??= (async (): Promise<Settled> => {
    const atArrival = b.atArrival?.body;
    if (atArrival && resultDifferences(sent, atArrival).length === 0) return { read: atArrival, differences: [] };
    let differences: string[] = [];
    const { body } = await readUntil(
      t.primary,
      b.caseId,
      DEADLINE_MS,
      `reading case ${b.caseId} after its webhook`,
      (read) => {
        differences = resultDifferences(sent, read);
        return differences.length === 0;
      },
    );
    return { read: body, differences };
  })();
  return b.settled;
}

/**
 * The fields of the interface's Case, Customer and Check tables a read of the case shows that the delivered case
 * leaves out (a check the webhook lacks is WEBHOOK-BODY-RESULTS').
 */
function fieldsLeftOut(sent: JsonObject, read: JsonObject): string[] {
  const leftOut = (a: unknown, b: unknown, fields: ReadonlySet<string>, at: string) =>
    isJsonObject(a) && isJsonObject(b)
      ? Object.keys(b)
          .filter((k) => fields.has(k) && !(k in a))
          .map((k) => `${at}${k}`)
      : [];
  const byId = (v: unknown) => new Map((Array.isArray(v) ? v.filter(isJsonObject) : []).map((k) => [k.id, k] as const));
  const sentChecks = byId(sent.checks);
  return [
    ...leftOut(sent, read, CASE_FIELDS, ''),
    ...leftOut(sent.customer, read.customer, CUSTOMER_FIELDS, 'customer.'),
    ...[...byId(read.checks)].flatMap(([id, k]) =>
      leftOut(sentChecks.get(id), k, CHECK_FIELDS, `check ${String(id)}.`),
    ),
  ];
}

/**
 * How a delivered case is not the case as in its read representation: the invariants every case read is judged by
 * (the watcher's), then the fields a read of the case (when there is one) shows that the webhook leaves out.
 */
function notAsRead(sent: JsonObject, read: CaseBody | undefined, id: Id): string[] {
  const lines = caseInvariants(sent).map((f) => `${f.what}: expected ${f.expected}, received ${f.received}`);
  const leftOut = read ? fieldsLeftOut(sent, read) : [];
  if (leftOut.length)
    lines.push(`fields a read of case ${id} shows (null or not), left out of the webhook: ${leftOut.join(', ')}`);
  return lines;
}

/** A case whose webhook_url changes from `old` to `next` (an endpoint, or null). */
interface UrlChange<N extends WebhookEndpoint | null> {
  id: Id;
  when: string;
  old: WebhookEndpoint;
  new: N;
}

/**
 * Two cases, each with an endpoint of its own as webhook_url, changed to `next(receiver, id)`
 * (`action`: "changed", "set to null"): one before processing starts, one while it runs. The
 * second is judged only when the PATCH that changed it still answered is_complete false.
 */
async function urlChanged<N extends WebhookEndpoint | null>(
  t: CheckApi,
  action: string,
  oldLabel: string,
  next: (r: WebhookReceiver, id: Id) => N,
): Promise<{ before: UrlChange<N>; during: UrlChange<N>; duringJudged: boolean }> {
  const r = ready(t);
  const p = t.primary.provision;
  return judgeable(t, async () => {
    const a = await p.createCase({ checks: checksWithInputs(3) });
    const c = await p.createCase({ checks: checksWithInputs(3) });
    const change = (id: Id, when: string): UrlChange<N> => {
      const old = r.endpoint(`case ${id} ${oldLabel}`);
      return { id, when: `${action} ${when}`, old, new: next(r, id) };
    };
    const before = change(a.id, 'before processing started');
    const during = change(c.id, 'while processing ran');
    await setWebhookUrl(t, a.id, before.old.url);
    await setWebhookUrl(t, a.id, before.new?.url ?? null);
    await setWebhookUrl(t, c.id, during.old.url);
    await start(t, a.id);
    await start(t, c.id);
    const patched = await setWebhookUrl(t, c.id, during.new?.url ?? null);
    return { before, during, duringJudged: patched.is_complete === false };
  });
}

/** A case and the endpoint its webhook_url names. */
interface Watched {
  id: Id;
  endpoint: WebhookEndpoint;
}

/**
 * A case of its own with one check, its webhook_url an endpoint of its own (`how` labels it, `statuses` are its
 * first answers), processing started unless `started` is false.
 */
async function caseWithEndpoint(
  t: CheckApi,
  how: string,
  { statuses = [], started = true }: { statuses?: number[]; started?: boolean } = {},
): Promise<Watched> {
  const r = ready(t);
  return judgeable(t, async () => {
    const c = await t.primary.provision.createCase({ checks: checksWithInputs(1) });
    const endpoint = r.endpoint(`case ${c.id} (${how})`);
    endpoint.respondWith(statuses);
    await setWebhookUrl(t, c.id, endpoint.url);
    if (started) await start(t, c.id);
    return { id: c.id, endpoint };
  });
}

let processedRun: Promise<Watched[]> | undefined;

/**
 * Cases processed at once, whose receivers answer 200, 201, 202 and 204 (ACK_STATUSES): made once per file (or
 * afresh for a re-run) for WEBHOOK-NO-CROSSTALK and WEBHOOK-ONE-PER-COMPLETION.
 */
function processedAtOnce(t: CheckApi, fresh = false): Promise<Watched[]> {
  if (fresh || !processedRun) processedRun = startAtOnce(t);
  return judgeable(t, () => processedRun!);
}

async function startAtOnce(t: CheckApi): Promise<Watched[]> {
  const r = ready(t);
  const p = t.primary.provision;
  const cases = await Promise.all(ACK_STATUSES.map(() => p.createCase({ checks: checksWithInputs(2) })));
  const watched = cases.map((c, i) => {
    const status = ACK_STATUSES[i]!;
    const endpoint = r.endpoint(`case ${c.id} (answers ${status})`);
    endpoint.respondWith([status]);
    return { id: c.id, endpoint };
  });
  await Promise.all(watched.map((w) => setWebhookUrl(t, w.id, w.endpoint.url)));
  await Promise.all(watched.map((w) => start(t, w.id)));
  return watched;
}

/**
 * One case's deliveries after the first one acknowledged with a 2xx, watched for `quiet` ms: what was seen, and
 * the repeats that are a second webhook for the completion (not ones naming the same delivery id).
 */
async function repeatsAfterAck(
  id: Id,
  endpoint: WebhookEndpoint,
  quiet: number,
): Promise<{ seen: string; repeat?: string }> {
  await firstDelivery(endpoint);
  // A held answer the sender gave up on before it came acknowledged nothing: a repeat of it is a retry.
  const acked = endpoint.deliveries().find((d) => d.status >= 200 && d.status <= 299 && !d.dropped);
  if (!acked) return { seen: `case ${id}: no delivery acknowledged with a 2xx within ${DEADLINE_MS} ms` };
  const seen = await deliveriesUntil(endpoint, acked.receivedAt, quiet);
  const again = seen.filter((d) => d.seq > acked.seq);
  const counted =
    `case ${id}: ${seen.length} ${seen.length === 1 ? 'delivery' : 'deliveries'}, watched until ${quiet} ms after ` +
    `the first was answered ${acked.status}`;
  if (again.length === 0) return { seen: counted };
  // At-least-once delivery that names the delivery (the same Webhook-Id as the one acknowledged)
  // lets a receiver drop the repeat: recorded, not a warning.
  const named = deliveryId(acked);
  if (named && again.every((d) => deliveryId(d)?.value === named.value))
    return {
      seen:
        `${counted}; the ${again.length === 1 ? 'repeat carries' : `${again.length} repeats carry`} the same ` +
        `${named.header} header as the acknowledged delivery: at-least-once delivery a receiver can deduplicate`,
    };
  return {
    seen: counted,
    repeat:
      `case ${id}: answered ${acked.status} at ${acked.receivedAtIso}, then ${again.length} more within ${quiet} ms: ` +
      `${again.map((d) => laterDelivery(d, acked)).join('; ')}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Every state through the webhook: the states suites/read-states reads by GET and PATCH (kit/states.ts).

/** A case in one state, its endpoint, its first delivery (if one came) and a read of it after. */
interface StateDelivery {
  c: StateCase;
  endpoint: WebhookEndpoint;
  delivery?: WebhookDelivery | undefined;
  /**
   * A read made once the delivery came, or the deadline passed without one (undefined where it did not answer with
   * the case: read-states judges that).
   */
  read?: CaseBody | undefined;
}

let statesRun: Promise<StateDelivery[]> | undefined;

/** A case in every state, its webhook_url set by PATCH, processed: made once per file (or afresh for a re-run). */
function statesDelivered(t: CheckApi, fresh = false): Promise<StateDelivery[]> {
  if (fresh || !statesRun) statesRun = deliverStates(t);
  return judgeable(t, () => statesRun!);
}

async function deliverStates(t: CheckApi): Promise<StateDelivery[]> {
  const r = ready(t);
  const { made } = await makeStates(t.primary);
  const watched = made.map((c) => ({ c, endpoint: r.endpoint(stateCaseLabel(c)) }));
  await Promise.all(watched.map((w) => setWebhookUrl(t, w.c.id, w.endpoint.url)));
  await startStates(t.primary, made);
  return Promise.all(
    watched.map(async (w): Promise<StateDelivery> => {
      if (!w.c.started) return w;
      const delivery = await firstDelivery(w.endpoint);
      // Read either way: what the delivery is compared with, or whether the case completed without one.
      const read = await readCase(t.primary, w.c.id).catch(() => undefined);
      return { ...w, delivery, read };
    }),
  );
}

// ---------------------------------------------------------------------------------------------

// The checks wait for deliveries and watch quiet periods: side by side, each with cases of its own
// (the baseline is processed once and shared), they take the time of the longest, not the sum.
describe.concurrent('the completion webhook', () => {
  // A re-run looks again at the same case: the first attempt already allowed the whole deadline.
  check(
    'a case whose webhook_url was set by PATCH gets a request at that URL when its processing completes',
    ['WEBHOOK-DELIVERED', 'WEBHOOK-LATENCY'],
    async (t) => {
      const b = await baseline(t);
      if (!b.first) {
        return failFor(
          t,
          b.caseId,
          `no webhook for case ${b.caseId} at ${b.url}`,
          `a request at ${b.url} within ${DEADLINE_MS} ms of starting processing`,
          `none${straysNote()}`,
        );
      }
      const latency = b.first.receivedAt - b.startedAt;
      const updatedAt = Date.parse(
        String(locatedIn(b as Baseline & { first: WebhookDelivery })?.body.updated_at ?? ''),
      );
      const skew = Number.isNaN(updatedAt)
        ? ''
        : `; ${b.first.receivedAt - updatedAt} ms after the delivered case's updated_at (server clock against this ` +
          `machine's)`;
      t.observe(
        'WEBHOOK-LATENCY',
        `case ${b.caseId}: delivered ${latency} ms after POST /start/ was answered (processing included)${skew}`,
      );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedShape = attempts();
  check(
    "the delivery's body is JSON carrying the case as in its read representation",
    ['WEBHOOK-BODY-CASE', 'WEBHOOK-ENVELOPE'],
    async (t) => {
      const b = await delivered(t, retriedShape());
      const located = locatedIn(b);
      if (!located) {
        return failFor(
          t,
          b.caseId,
          `the webhook for case ${b.caseId} at ${b.url}`,
          `a JSON body carrying case ${b.caseId} (the body itself, or an object in it with "id": ${b.caseId})`,
          show(b.first),
        );
      }
      t.observe(
        'WEBHOOK-ENVELOPE',
        located.where === 'the whole body'
          ? 'the case is the whole body'
          : `the case is at ${located.where}; the envelope's other fields: ${located.envelope.join(', ') || 'none'}`,
      );
      const lines = notAsRead(located.body, b.atArrival?.body, b.caseId);
      if (lines.length) {
        return failFor(
          t,
          b.caseId,
          `the case in the webhook for case ${b.caseId} at ${b.url} (${located.where})`,
          'the case as in its read representation',
          `${lines.join('\n')}\n${show(b.first)}`,
        );
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedComplete = attempts();
  check(
    'the delivered case shows is_complete true',
    ['WEBHOOK-BODY-COMPLETE'],
    async (t) => {
      const b = await delivered(t, retriedComplete());
      const located = locatedIn(b);
      if (typeof located?.body.is_complete !== 'boolean')
        return t.skip(`the webhook for case ${b.caseId} carries no is_complete boolean (judged by WEBHOOK-BODY-CASE)`);
      if (located.body.is_complete !== true) {
        const states = Array.isArray(located.body.checks)
          ? (located.body.checks as JsonObject[]).map((k) => `${String(k.status)}/${String(k.outcome)}`).join(', ')
          : 'no checks';
        return failFor(
          t,
          b.caseId,
          `the webhook for case ${b.caseId} at ${b.url}`,
          'is_complete true: the webhook is sent when processing completes',
          `is_complete ${String(located.body.is_complete)} (check status/outcome: ${states})\n${show(b.first)}`,
        );
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedResults = attempts();
  check(
    'the delivered case carries the results the case reads with once processing has completed',
    ['WEBHOOK-BODY-RESULTS'],
    async (t) => {
      const b = await delivered(t, retriedResults());
      const sent = completedIn(t, b);
      const { read, differences } = await settledRead(t, b, sent);
      if (differences.length) {
        const note =
          read.is_complete === true ? '' : ` (the case still read is_complete false ${DEADLINE_MS} ms later)`;
        await failFor(
          t,
          b.caseId,
          `the webhook for case ${b.caseId} at ${b.url}, against the case read until ${DEADLINE_MS} ms after it${note}`,
          'the same results: checks, outcomes and risk scores',
          differences.join('\n'),
        );
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedCommit = attempts();
  check(
    'a read of the case made when its webhook arrives already shows the completion the webhook announces',
    ['WEBHOOK-AFTER-COMMIT'],
    async (t) => {
      const b = await delivered(t, retriedCommit());
      const sent = completedIn(t, b);
      const arrival = b.atArrival!;
      if (!arrival.res) throw arrival.error;
      const atArrival = arrival.body
        ? resultDifferences(sent, arrival.body)
        : [`the read answered ${excerpt(arrival.res).slice(0, 200)}`];
      if (arrival.whileHeld && atArrival.length === 0) return;
      // The read at arrival did not show it: judged only when the case came to show what the webhook announced.
      const later = await settledRead(t, b, sent);
      if (later.differences.length)
        return t.skip(
          `case ${b.caseId} never read with the results its webhook announced within ${DEADLINE_MS} ms (judged by ` +
            'WEBHOOK-BODY-RESULTS)',
        );
      const shown = arrival.whileHeld
        ? atArrival
        : [
            `no answer while the receiver held its answer to the delivery (${arrival.heldMs} ms): the read was ` +
              'answered only after the receiver answered',
            ...atArrival,
          ];
      fail(
        `a read of case ${b.caseId} made when its webhook arrived at ${b.url}, the receiver's answer held meanwhile`,
        'the completion the webhook announces: is_complete true, the same outcome, risk_score and checks',
        `${shown.join('\n')}\n(a later read showed what the webhook announced)`,
        { judged: [arrival.res] },
      );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedInputs = attempts();
  check(
    'each check of the delivered case carries its input_details as the case read shows them',
    ['WEBHOOK-INPUT-DETAILS'],
    async (t) => {
      const b = await delivered(t, retriedInputs());
      const located = locatedIn(b);
      if (!located || !Array.isArray(located.body.checks))
        return t.skip(`the webhook for case ${b.caseId} carries no checks array (judged by WEBHOOK-BODY-CASE)`);
      // input_details do not change with processing: the read made at arrival serves.
      const read = b.atArrival?.body ?? (await readCase(t.primary, b.caseId));
      const readChecks = (Array.isArray(read.checks) ? read.checks : []).filter(isJsonObject);
      if (!readChecks.some((k) => isJsonObject(k.input_details))) {
        t.skip(
          `a read of case ${b.caseId} shows no input_details on its checks, though it was created with some: ` +
            `nothing to compare the webhook with`,
        );
      }
      const sent = new Map((located.body.checks as unknown[]).filter(isJsonObject).map((k) => [k.id, k] as const));
      const wrong: string[] = [];
      let compared = 0;
      for (const k of readChecks) {
        const s = sent.get(k.id);
        if (!s) continue; // a missing check is WEBHOOK-BODY-RESULTS'
        compared += 1;
        if (!deepEqual(s.input_details ?? null, k.input_details ?? null)) {
          wrong.push(
            `check ${String(k.id)}: ${stringifyJson(s.input_details) ?? 'missing'} in the webhook, ` +
              `${stringifyJson(k.input_details)} in the read`,
          );
        }
      }
      if (compared === 0)
        return t.skip(
          `the webhook for case ${b.caseId} carries none of the checks a read shows (judged by WEBHOOK-BODY-RESULTS)`,
        );
      if (wrong.length)
        await failFor(
          t,
          b.caseId,
          `input_details in the webhook for case ${b.caseId} at ${b.url}`,
          'the input_details the case read shows for each check',
          wrong.join('\n'),
        );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedOnce = attempts();
  check(
    'a completion whose delivery was acknowledged with any 2xx is not delivered again',
    ['WEBHOOK-ONE-PER-COMPLETION', 'WEBHOOK-DUPLICATES'],
    async (t) => {
      const fresh = retriedOnce();
      const b = await delivered(t, fresh);
      const quiet = quietMs(b);
      const others = await processedAtOnce(t, fresh);
      const judged = await Promise.all(
        [{ id: b.caseId, endpoint: b.endpoint }, ...others].map((w) => repeatsAfterAck(w.id, w.endpoint, quiet)),
      );
      t.observe('WEBHOOK-DUPLICATES', judged.map((j) => j.seen).join('; '));
      const repeats = judged.flatMap((j) => (j.repeat ? [j.repeat] : []));
      if (repeats.length)
        await failFor(
          t,
          b.caseId,
          `the webhooks of cases ${[b.caseId, ...others.map((w) => w.id)].join(', ')}`,
          'one delivery per completion: none after the receiver answered it with a 2xx',
          repeats.join('\n'),
        );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'a write to a case whose completion was delivered is not announced as another completion',
    ['WEBHOOK-NO-REPEAT-ON-WRITE'],
    async (t) => {
      const quiet = quietMs(await delivered(t));
      const { id, endpoint } = await caseWithEndpoint(t, 'written after completion');
      if (!(await firstDelivery(endpoint)))
        return t.skip(`no delivery for case ${id} within ${DEADLINE_MS} ms (the baseline case was delivered)`);
      const before = endpoint.deliveries();
      const writtenFrom = Date.now();
      const marker = randomBytes(6).toString('hex');
      const patched = await t.primary.api.patchCase(id, { metadata: { screenconf: marker, by: 'PATCH' } });
      if (patched.status !== 200)
        return t.skip(`PATCH {metadata} of the completed case ${id} answered ${excerpt(patched).slice(0, 200)}`);
      const bulk = await t.primary.api.bulkUpdateCases({
        items: [{ id, metadata: { screenconf: marker, by: 'bulk' } }],
      });
      const seen = await deliveriesUntil(endpoint, Date.now(), quiet);
      // A repeat of a delivery from before the writes is the completion's own (WEBHOOK-ONE-PER-COMPLETION).
      const repeat = (d: WebhookDelivery) =>
        before.some((x) => x.body === d.body || (deliveryId(x) && deliveryId(x)?.value === deliveryId(d)?.value));
      const announced = seen.filter((d) => d.receivedAt >= writtenFrom && !before.includes(d) && !repeat(d));
      if (announced.length) {
        const shown = announced.map((d) => {
          const c = locateCase(d, id)?.body;
          const state = c ? `is_complete ${String(c.is_complete)}, metadata ${stringifyJson(c.metadata)}` : show(d);
          return `${d.receivedAt - writtenFrom} ms after the first write was sent: ${state}`;
        });
        await failFor(
          t,
          id,
          `the webhook URL of case ${id}, after a PATCH {metadata} and a bulk update item {metadata} (answered ` +
            `${patched.status} and ${bulk.status}) of the case, whose completion was delivered`,
          `no delivery announcing the case again, watched for ${quiet} ms after the writes`,
          shown.join('\n'),
        );
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'what the delivery looks like: method, content type, authentication headers',
    ['WEBHOOK-METHOD', 'WEBHOOK-CONTENT-TYPE', 'WEBHOOK-AUTH-HEADERS'],
    async (t) => {
      const b = await delivered(t);
      const d = b.first;
      t.observe('WEBHOOK-METHOD', d.method);
      const names = Object.keys(d.headers).sort();
      const safe = ['content-type', 'user-agent', 'content-encoding', 'transfer-encoding'];
      const described = names.map((n) => (safe.includes(n) ? `${n}: ${d.headers[n]!.slice(0, 120)}` : n));
      t.observe(
        'WEBHOOK-CONTENT-TYPE',
        `${d.headers['content-type'] ?? 'no Content-Type header'}; headers: ${described.join(', ')}`,
      );
      t.observe('WEBHOOK-AUTH-HEADERS', authHeaders(d.headers));
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'a case whose webhook_url changed before completion notifies only the new URL',
    ['WEBHOOK-NEW-URL-ONLY'],
    async (t) => {
      const b = await delivered(t);
      const quiet = quietMs(b);
      const { before, during, duringJudged } = await urlChanged(t, 'changed', 'old URL', (r, id) =>
        r.endpoint(`case ${id} new URL`),
      );
      const judge = async (s: typeof before): Promise<string[]> => {
        const first = await firstOf([s.old, s.new]);
        if (!first)
          return [
            `case ${s.id} (${s.when}): no delivery at the new URL ${s.new.url} within ${DEADLINE_MS} ms${straysNote()}`,
          ];
        const atOld = await deliveriesUntil(s.old, first.delivery.receivedAt, quiet);
        const atNew = s.new.deliveries();
        if (atOld.length === 0) return [];
        return [
          `case ${s.id} (${s.when}): ${atOld.length} delivery(ies) at the old URL ${s.old.url} (first ` +
            `${show(atOld[0]!)}), ${atNew.length} at the new URL ${s.new.url}`,
        ];
      };
      const problems = (await Promise.all([judge(before), ...(duringJudged ? [judge(during)] : [])])).flat();
      if (problems.length)
        await failFor(
          t,
          before.id,
          'webhooks after a change of webhook_url',
          'deliveries at the new URL only',
          problems.join('\n'),
        );
      // A change before processing starts is a change before completion: the requirement is judged
      // by it. The change while processing runs is judged only when it lands in time; say when not.
      if (!duringJudged) {
        t.observe(
          'WEBHOOK-NEW-URL-ONLY',
          `processing of case ${during.id} completed before its webhook_url could be changed (the PATCH answered ` +
            `is_complete true): judged by the change before processing started only`,
        );
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'a case whose webhook_url was set to null gets no delivery at its former URL',
    ['WEBHOOK-NULL-NO-DELIVERY'],
    async (t) => {
      const b = await delivered(t);
      const quiet = quietMs(b);
      const { before, during, duringJudged } = await urlChanged(t, 'set to null', 'former URL', () => null);
      const judge = async (s: typeof before): Promise<{ problem?: string; unjudged?: string }> => {
        const { complete } = await readUntilCompleted(t, s.id, 'until its processing completes');
        if (!complete)
          return { unjudged: `case ${s.id} (${s.when}) did not read is_complete true within ${DEADLINE_MS} ms` };
        const seen = await deliveriesUntil(s.old, Date.now(), quiet);
        if (seen.length === 0) return {};
        return {
          problem:
            `case ${s.id} (${s.when}): ${seen.length} delivery(ies) at its former URL ${s.old.url}, first ` +
            `${show(seen[0]!)}`,
        };
      };
      const results = await Promise.all([judge(before), ...(duringJudged ? [judge(during)] : [])]);
      const problems = results.flatMap((x) => (x.problem ? [x.problem] : []));
      if (problems.length)
        await failFor(
          t,
          before.id,
          'webhooks after webhook_url was set to null',
          `no delivery at the former URL, watched for ${quiet} ms after the case read complete`,
          problems.join('\n'),
        );
      const unjudged = results.flatMap((x) => (x.unjudged ? [x.unjudged] : []));
      if (unjudged.length) return t.skip(`not every case could be judged: ${unjudged.join('; ')}`);
      // Set to null before processing starts is set before completion: the requirement is judged by it.
      // The change while processing runs is judged only when it lands in time (as for WEBHOOK-NEW-URL-ONLY).
      if (!duringJudged)
        t.observe(
          'WEBHOOK-NULL-NO-DELIVERY',
          `processing of case ${during.id} completed before webhook_url could be set to null (the PATCH answered ` +
            'is_complete true): judged by the case set to null before processing started only',
        );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'several cases processed at once each get their own delivery, carrying their own case',
    ['WEBHOOK-NO-CROSSTALK', 'WEBHOOK-DUPLICATES'],
    async (t) => {
      const b = await delivered(t);
      const quiet = quietMs(b);
      const watched = await processedAtOnce(t);
      const firsts = await Promise.all(watched.map((w) => firstDelivery(w.endpoint)));
      const last = Math.max(...firsts.map((d) => d?.receivedAt ?? 0));
      if (last > 0) await Promise.all(watched.map((w) => deliveriesUntil(w.endpoint, last, quiet)));
      const problems: string[] = [];
      const counts: string[] = [];
      for (const w of watched) {
        const all = w.endpoint.deliveries();
        counts.push(`case ${w.id}: ${all.length}`);
        if (all.length === 0) problems.push(`case ${w.id}: no delivery at ${w.endpoint.url} within ${DEADLINE_MS} ms`);
        for (const d of all) {
          if (locateCase(d, w.id)) continue;
          // Another case of the organisation: one of these, or one a check beside this one started.
          const other = carriedCaseIds(d).find((id) => id !== w.id);
          if (other !== undefined)
            problems.push(
              `case ${w.id}: the delivery at ${w.endpoint.url} at ${d.receivedAtIso} carries case ${other}`,
            );
        }
      }
      t.observe(
        'WEBHOOK-DUPLICATES',
        `${watched.length} cases processed at once, deliveries per case: ${counts.join(', ')}`,
      );
      if (problems.length)
        await failFor(
          t,
          watched[0]!.id,
          `webhooks of cases ${watched.map((w) => w.id).join(', ')}, processed at once`,
          'each case notified at its own URL with its own case',
          `${problems.join('\n')}${straysNote()}`,
        );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check(
    'what the server does when the receiver answers 500 once',
    ['WEBHOOK-RETRY-AFTER-500'],
    async (t) => {
      const quiet = quietMs(await delivered(t));
      const { id, endpoint } = await caseWithEndpoint(t, 'answers 500 once', { statuses: [500] });
      const first = await firstDelivery(endpoint);
      if (!first) {
        t.observe(
          'WEBHOOK-RETRY-AFTER-500',
          `case ${id}: no delivery at all within ${DEADLINE_MS} ms (the baseline case was delivered)`,
        );
        return;
      }
      let second: WebhookDelivery | undefined;
      try {
        second = (await endpoint.waitForDelivery({ timeoutMs: DEADLINE_MS, count: 2 }))[1];
      } catch (err) {
        if (!(err instanceof WebhookTimeoutError)) throw err;
      }
      if (!second) {
        t.observe(
          'WEBHOOK-RETRY-AFTER-500',
          `not sent again within ${DEADLINE_MS} ms after the receiver answered ${first.status}`,
        );
        return;
      }
      const after = await deliveriesUntil(endpoint, second.receivedAt, quiet);
      const more = after.length - 2;
      t.observe(
        'WEBHOOK-RETRY-AFTER-500',
        `sent again ${second.receivedAt - first.receivedAt} ms after the receiver answered ${first.status}, ` +
          `${second.body === first.body ? 'with the same body' : 'with another body'} (answered ${second.status}); ` +
          (more > 0 ? `${more} more within ${quiet} ms after that` : `no more within ${quiet} ms`),
      );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  // A re-run looks again at the same cases, as for the baseline: the first attempt already allowed the deadline.
  // A case of a state is owed its webhook once it reads complete: a check of a type that wants documents (KYB,
  // transaction monitoring) may hold processing, and a case still processing at the deadline is recorded.
  check(
    'a case in every state gets a request at its webhook_url once its processing completes',
    ['WEBHOOK-DELIVERED', 'WEBHOOK-LATENCY'],
    async (t) => {
      const started = (await statesDelivered(t)).filter((s) => s.c.started);
      const undelivered = started.filter((s) => !s.delivery);
      const missing = undelivered.filter((s) => s.read?.is_complete === true);
      const pending = undelivered.filter((s) => s.read?.is_complete !== true);
      const latencies = started.flatMap((s) => (s.delivery ? [s.delivery.receivedAt - s.c.startedAt!] : []));
      t.observe(
        'WEBHOOK-LATENCY',
        `cases in every state: ${latencies.length} of ${started.length} delivered` +
          (latencies.length ? ` ${Math.min(...latencies)}–${Math.max(...latencies)} ms after their start` : '') +
          pending
            .map((s) => `; ${stateCaseLabel(s.c)} not complete ${DEADLINE_MS} ms after its start: no webhook owed yet`)
            .join(''),
      );
      if (missing.length)
        await failFor(
          t,
          missing[0]!.c.id,
          `webhooks of cases in every state (${missing.length} complete and not delivered)`,
          `a request at each case's URL within ${DEADLINE_MS} ms of starting its processing`,
          missing.map((s) => `${stateCaseLabel(s.c)}: reads is_complete true, none at ${s.endpoint.url}`).join('\n') +
            straysNote(),
        );
      if (started.length === pending.length)
        t.skip(`no case in any state was complete ${DEADLINE_MS} ms after its start: none was owed a webhook`);
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  const retriedStates = attempts();
  check(
    'the webhook of a case in every state carries the case as in its read representation',
    ['WEBHOOK-BODY-CASE'],
    async (t) => {
      const delivered = (await statesDelivered(t, retriedStates())).filter((s) => s.delivery);
      if (delivered.length === 0)
        return t.skip(`no case in any state was delivered within ${DEADLINE_MS} ms (judged by WEBHOOK-DELIVERED)`);
      const problems = delivered.flatMap((s) => {
        const located = locateCase(s.delivery!, s.c.id);
        if (!located) return [{ s, lines: [`no case ${s.c.id} in the delivery: ${show(s.delivery!)}`] }];
        const lines = notAsRead(located.body, s.read, s.c.id);
        return lines.length ? [{ s, lines }] : [];
      });
      if (problems.length)
        await failFor(
          t,
          problems[0]!.s.c.id,
          `the case in the webhooks of cases in every state (${problems.length} of ${delivered.length})`,
          'each case as in its read representation',
          problems.map(({ s, lines }) => `${stateCaseLabel(s.c)}:\n${lines.join('\n')}`).join('\n'),
        );
    },
    { timeout: CHECK_TIMEOUT_MS },
  );

  check('requests to the receiver at paths no case was given are recorded apart', ['WEBHOOK-STRAYS'], async (t) => {
    const strays = ready(t).strays();
    const listed = strays
      .slice(0, 10)
      .map(
        (s) =>
          `${s.method} ${s.path.slice(0, 100)} at ${s.receivedAtIso} (user-agent: ` +
          `${(s.headers['user-agent'] ?? 'none').slice(0, 60)})`,
      );
    t.observe(
      'WEBHOOK-STRAYS',
      strays.length === 0
        ? 'none'
        : `${strays.length}: ${listed.join('; ')}${strays.length > listed.length ? '; …' : ''}`,
    );
  });
});

// Last, alone: a sender that a silent receiver holds up would hold up the other checks' webhooks too.
describe('a receiver that does not answer', () => {
  check(
    "a receiver that never answers does not hold up another case's webhook",
    ['WEBHOOK-NOT-HELD-UP'],
    async (t) => {
      await delivered(t);
      const [silent, other] = await Promise.all(
        ['never answers', 'answers at once'].map((how) => caseWithEndpoint(t, how, { started: false })),
      );
      const release = silent!.endpoint.hold();
      try {
        await start(t, silent!.id);
        const held = await firstDelivery(silent!.endpoint);
        if (!held)
          return t.skip(`no delivery for case ${silent!.id} within ${DEADLINE_MS} ms: nothing waited for an answer`);
        const startedAt = await start(t, other!.id);
        if (!(await firstDelivery(other!.endpoint)))
          await failFor(
            t,
            other!.id,
            `the webhook of case ${other!.id} at ${other!.endpoint.url}, started while the delivery to case ` +
              `${silent!.id}'s URL ${silent!.endpoint.url} waited for an answer (since ${held.receivedAtIso})`,
            `a delivery within ${DEADLINE_MS} ms of starting processing (at ${new Date(startedAt).toISOString()})`,
            `none: the unanswered delivery held it up${straysNote()}`,
          );
      } finally {
        release();
      }
    },
    { timeout: CHECK_TIMEOUT_MS },
  );
});

/** Authentication-looking headers, by name and form only: a value may be a secret. */
/** A delivery after the acknowledged one: how much later, and whether it carried the same body. */
/** Headers that name a delivery, so a repeat can be recognised (Standard Webhooks, Svix, GitHub, …). */
const DELIVERY_ID_HEADERS = [
  'webhook-id',
  'svix-id',
  'x-webhook-id',
  'x-delivery-id',
  'x-github-delivery',
  'idempotency-key',
  'x-idempotency-key',
  'x-event-id',
];

/** The delivery id a webhook carries, and the header it came in. */
function deliveryId(d: WebhookDelivery): { header: string; value: string } | undefined {
  for (const header of DELIVERY_ID_HEADERS) {
    const value = d.headers[header];
    if (value) return { header, value };
  }
  return undefined;
}

function laterDelivery(d: WebhookDelivery, acked: WebhookDelivery): string {
  return `${d.receivedAt - acked.receivedAt} ms later, ${d.body === acked.body ? 'the same body' : 'another body'}`;
}

function authHeaders(headers: Readonly<Record<string, string>>): string {
  const pattern = /authorization|signature|hmac|token|secret|api-?key|webhook-|svix-|timestamp|x-hub|digest/i;
  const found = Object.entries(headers).filter(([name]) => pattern.test(name));
  if (found.length === 0) return 'none: no Authorization, signature, token or timestamp header';
  return found
    .map(([name, value]) => {
      const scheme = name === 'authorization' ? /^(\S+)\s/.exec(value)?.[1] : undefined;
      const rest = scheme ? value.slice(scheme.length).trim() : value;
      const form = /^[0-9a-f]+$/i.test(rest)
        ? 'hex'
        : /^\d+$/.test(rest)
          ? 'digits'
          : /^[A-Za-z0-9+/=_-]+$/.test(rest)
            ? 'base64-like'
            : 'text';
      return `${name}: ${scheme ? `${scheme} ` : ''}<${rest.length} ${form} chars>`;
    })
    .join('; ');
}
