/**
 * The invariant watcher: every case body a suite's clients receive, whatever the check that
 * asked, is judged against the invariants of the Case read representation. At the end of a
 * suite file its findings go into the file's task meta (setup.ts), and the runner's collector turns
 * them into outcomes of the requirements below, one mechanism for every suite.
 */
import { z } from 'zod';
import { isJsonObject, type JsonObject, stringifyJson } from '../base/json.ts';
import { toCurl } from '../client/curl.ts';
import type { Redactor } from '../base/redact.ts';
import type { OutgoingRequest, ReceivedResponse } from '../client/transport.ts';
import type { Exchange, OrganisationRole } from '../results/exchange.ts';
import {
  exchangeKey,
  type InvariantFinding,
  type InvariantFindings,
  type InvariantViolation,
  type WatchedRequirement,
} from '../results/invariants.ts';
import {
  Case,
  Check,
  CHECK_STATUSES,
  CHECK_TYPES,
  CUSTOMER_TYPES,
  Customer,
  type Id,
  isId,
  LIMITS,
  OUTCOMES,
} from '../spec/index.ts';
import { IdReuseWatch } from './id-reuse.ts';

const VIOLATIONS_KEPT = 10;
const EXCHANGES_KEPT = 3;
const RISK_EPSILON = 1e-9;

// Enum values, risk ranges and external_id's type are judged by their own invariants below:
// the shape only asks for presence and type, so one defect breaks one requirement. Lengths are
// the LIMIT-* requirements' (judged where they are set, with ASCII): a webhook_url the server
// accepted within 511 characters and shows percent-encoded is not a broken representation.
const present = z.unknown().refine((v) => v !== undefined, { message: 'missing' });
const CheckShape = Check.extend({
  risk_score: z.number().nullable(),
  outcome: z.string().nullable(),
  status: z.string(),
  check_type: z.string().nullable().optional(),
});
const CaseShape = Case.extend({
  external_id: present,
  webhook_url: z.string().nullable().optional(),
  risk_score: z.number().nullable(),
  outcome: z.string().nullable(),
  customer: Customer.extend({ customer_type: z.string().nullable().optional() }),
  checks: z.array(CheckShape),
});

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(root)';
}

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = isJsonObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** The last name of a path (`checks[0].status` → `status`): a reproduction finds `"status":…` in the body's text. */
function leaf(path: string): string {
  return path
    .replace(/\[\d+\]$/, '')
    .split('.')
    .at(-1)!
    .replace(/ .*/, '');
}

function show(v: unknown): string {
  return v === undefined ? 'missing' : (stringifyJson(v)?.slice(0, 200) ?? String(v));
}

/** The risk scores of the checks, when the case has checks and every one of them is scored. */
function everyCheckScore(body: JsonObject): number[] | undefined {
  if (!Array.isArray(body.checks) || body.checks.length === 0) return undefined;
  const scores = body.checks.map((k: unknown) => (isJsonObject(k) ? k.risk_score : undefined));
  return scores.every((s) => typeof s === 'number') ? (scores as number[]) : undefined;
}

function caseLabel(body: JsonObject): string {
  return isId(body.id) ? `case ${String(body.id)}` : 'a case';
}

/** The answer a case body came in, as a reproduction script reads it: the text it searches for `"name":`. */
export interface CaseAnswer {
  /** The answer's body as received. */
  text: string;
  /** The answer is this case alone (GET or PATCH of one case): a field left out of it is left out of the answer. */
  single: boolean;
}

/** How many times the answer's text holds `"name":`, where a script's pattern for that field could match. */
function occurrences(text: string, name: string): number {
  const key = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.match(new RegExp(`"${key}"\\s*:`, 'g'))?.length ?? 0;
}

/**
 * Every invariant of the Case read representation that `body` breaks. `answer`: the answer it came in (by default
 * the case alone), which decides what a reproduction can look for in it.
 */
export function caseInvariants(
  body: JsonObject,
  answer: CaseAnswer = { text: stringifyJson(body), single: true },
): InvariantFinding[] {
  const label = caseLabel(body);
  const findings: InvariantFinding[] = [];
  // The value shown must not be there again (a replay of a fixed server shows another): `"name":value` in the body.
  // A script finds it as text anywhere in the answer, so only where every `"name":` of the answer is a field this
  // invariant judges (`places` of them): external_id null is also a customer's external_id, which may be null.
  const found = (
    requirement: WatchedRequirement,
    field: string,
    expected: string,
    value: unknown,
    same = true,
    places = 1,
  ) => {
    const name = leaf(field);
    const checkable = same && occurrences(answer.text, name) === places;
    findings.push({
      requirement,
      what: `${field} of ${label}`,
      expected,
      received: show(value),
      ...(checkable ? { expect: { unlike: [{ name, value: stringifyJson(value) }] } } : {}),
    });
  };

  const shape = CaseShape.safeParse(body);
  if (!shape.success) {
    const issues = shape.error.issues.slice(0, 6).map((i) => {
      const value = at(body, i.path);
      return `${pathText(i.path)}: ${value === undefined ? 'missing' : `${i.message} (${show(value)})`}`;
    });
    const more =
      shape.error.issues.length > issues.length ? `; and ${shape.error.issues.length - issues.length} more` : '';
    // A field left out is left out again on a replay: the first issue, when it is one, is what a script checks
    // (it finds `"name":` in the answer's text, so only when the answer is this case alone and no other object of
    // it has a field of that name: in a bulk answer another case's field would be found).
    const firstPath = shape.error.issues[0]!.path;
    const name = leaf(pathText(firstPath));
    const missing =
      answer.single &&
      firstPath.length > 0 &&
      at(body, firstPath) === undefined &&
      occurrences(answer.text, name) === 0;
    findings.push({
      requirement: 'READ-CASE-SCHEMA',
      what: `the representation of ${label}`,
      expected: 'every always-present field of the case, its customer and its checks, with its type',
      received: issues.join('; ') + more,
      ...(missing ? { expect: { unlike: [{ name, value: 'absent' }] } } : {}),
    });
  }

  const checks = Array.isArray(body.checks) ? body.checks.filter(isJsonObject) : [];
  // Every field of these names in a case holds a value of the same enum: a value outside it is the defect wherever
  // a field of that name shows it, so a script may look for it in all of them (and in nothing else).
  const enumFields: [JsonObject, string[]][] = [
    [body, ['outcome']],
    [isJsonObject(body.customer) ? body.customer : {}, ['customer_type']],
    ...checks.map((k): [JsonObject, string[]] => [k, ['status', 'outcome', 'check_type']]),
  ];
  const enumPlaces = (name: string) => enumFields.filter(([o, names]) => names.includes(name) && name in o).length;
  const enumValue = (field: string, value: unknown, allowed: readonly string[], extra: string) => {
    if (typeof value === 'string' && !allowed.includes(value))
      found('READ-ENUMS', field, `one of ${allowed.join(', ')}${extra}`, value, true, enumPlaces(leaf(field)));
  };
  enumValue('outcome', body.outcome, OUTCOMES, ' or null');
  if (isJsonObject(body.customer)) {
    const type = body.customer.customer_type;
    if (type !== '') enumValue('customer.customer_type', type, CUSTOMER_TYPES, ', an empty string or null');
  }
  checks.forEach((k, i) => {
    enumValue(`checks[${i}].status`, k.status, CHECK_STATUSES, '');
    enumValue(`checks[${i}].outcome`, k.outcome, OUTCOMES, ' or null');
    if (k.check_type !== '')
      enumValue(`checks[${i}].check_type`, k.check_type, CHECK_TYPES, ', an empty string or null');
  });

  const inRange = (field: string, value: unknown) => {
    if (typeof value === 'number' && !(value >= LIMITS.riskScoreMin && value <= LIMITS.riskScoreMax)) {
      found(
        'READ-RISK-SCORE-RANGE',
        field,
        `null or a number from ${LIMITS.riskScoreMin.toFixed(1)} to ${LIMITS.riskScoreMax.toFixed(1)}`,
        value,
        false,
      );
    }
  };
  inRange('risk_score', body.risk_score);
  for (const [i, k] of checks.entries()) inRange(`checks[${i}].risk_score`, k.risk_score);
  // A decided check returns its score (a falsy 0 turned into null shows here); left out, it is the shape's.
  for (const [i, k] of checks.entries()) {
    if (k.status === 'DECIDED' && k.risk_score === null)
      found('READ-CHECK-DECIDED-SCORE', `checks[${i}].risk_score`, 'a number: the check is DECIDED', null, false);
  }

  const scores = everyCheckScore(body);
  if (scores) {
    const max = Math.max(...scores);
    const r = body.risk_score;
    const wrong =
      typeof r === 'number'
        ? Math.abs(r - max) > RISK_EPSILON * Math.max(1, Math.abs(max))
        : r === null && body.is_complete === true;
    if (wrong) {
      found(
        'READ-CASE-RISK-MAX',
        'risk_score',
        `${max}, the maximum of its checks' risk scores ` +
          `${stringifyJson(scores)}${r === null ? ' (null only while is_complete is false)' : ''}`,
        r,
        false,
      );
    }
  }

  if ('external_id' in body && typeof body.external_id !== 'string')
    found('CASE-EXTERNAL-ID-STRING', 'external_id', 'a string', body.external_id);
  if (typeof body.origin_url === 'string' && body.origin_url !== body.external_id) {
    found(
      'CASE-ORIGIN-URL-ALIAS',
      'origin_url (deprecated alias of external_id)',
      `null or the external_id ${show(body.external_id)}`,
      body.origin_url,
    );
  }
  return findings;
}

/**
 * The watched requirements a case body can be judged on: an invariant about values the body
 * does not have (no risk score, no check scored, no origin_url) passes on it without judging.
 */
export function applicableInvariants(body: JsonObject): WatchedRequirement[] {
  const checks = Array.isArray(body.checks) ? body.checks.filter(isJsonObject) : [];
  const customer = isJsonObject(body.customer) ? body.customer : {};
  const out: WatchedRequirement[] = ['READ-CASE-SCHEMA'];
  const enums = [body.outcome, customer.customer_type, ...checks.flatMap((k) => [k.status, k.outcome, k.check_type])];
  if (enums.some((v) => typeof v === 'string' && v !== '')) out.push('READ-ENUMS');
  if ([body.risk_score, ...checks.map((k) => k.risk_score)].some((v) => typeof v === 'number'))
    out.push('READ-RISK-SCORE-RANGE');
  if (checks.some((k) => k.status === 'DECIDED')) out.push('READ-CHECK-DECIDED-SCORE');
  if (everyCheckScore(body)) out.push('READ-CASE-RISK-MAX');
  if ('external_id' in body) out.push('CASE-EXTERNAL-ID-STRING');
  if (typeof body.origin_url === 'string') out.push('CASE-ORIGIN-URL-ALIAS');
  return out;
}

const ONE_CASE_PATH = /\/api\/cases\/\d+\/$/;

/** GET and PATCH of one case: the answer is the case alone. */
function oneCaseAnswer(method: string, pathname: string): boolean {
  return (method === 'GET' || method === 'PATCH') && ONE_CASE_PATH.test(pathname);
}

/**
 * The case representations in a 2xx JSON answer: the answer to GET or PATCH of one case, which is the Case read
 * representation (interface § Endpoints › PATCH: "200 with the Case read representation"; § Resources › Case).
 * Nothing else is: what a bulk answer shows of a case is not shown ("Item fields and the response body: not
 * shown"), and the answers to creation and to starting processing are the provisioning conventions', not the
 * interface's. Webhooks carry the case as in the read representation too (§ Events 2): the webhooks suite judges
 * them (WEBHOOK-BODY-CASE).
 */
export function caseBodies(method: string, pathname: string, json: unknown): JsonObject[] {
  return oneCaseAnswer(method, pathname) && isJsonObject(json) ? [json] : [];
}

/**
 * The case bodies that show which case has which id (CASE-ID-NOT-REUSED): the case representations, and the answer
 * to a creation (a provisioning convention, not judged as a representation, but where a recycled id shows first).
 */
function identityBodies(method: string, pathname: string, json: unknown): JsonObject[] {
  if (method === 'POST' && /\/api\/cases\/$/.test(pathname)) return isJsonObject(json) ? [json] : [];
  return caseBodies(method, pathname, json);
}

/** Sees every answer the harness receives and keeps what broke a case invariant. */
export class InvariantWatcher {
  #findings: InvariantFindings = InvariantWatcher.#empty();
  readonly #ids: IdReuseWatch;
  /** The exchange each marked copy in the evidence was made from (its check's transcript knows that one). */
  readonly #sources = new WeakMap<Exchange, Exchange>();
  /**
   * What kept exchanges' violations rest on, read when the findings are taken (at the end of the suite file): another
   * worker records the creation of a case given a deleted id when it sees its answer, which may be after this one.
   */
  readonly #pending: { requirement: WatchedRequirement; judged: string; setup: () => Exchange[] }[] = [];

  constructor(
    private readonly redactor: Redactor,
    private readonly baseUrl: string,
    /** The run's shared folder: the deletions its workers saw (CASE-ID-NOT-REUSED). */
    shareDir?: string,
  ) {
    this.#ids = new IdReuseWatch(shareDir);
  }

  static #empty(): InvariantFindings {
    return { watched: 0, violations: [], counts: {}, evidence: {}, errors: [], judged: {} };
  }

  /** Whether the run saw another case with the id of a case it deleted: a request to the id reaches that case. */
  idReused(org: OrganisationRole, id: Id): boolean {
    return this.#ids.reused(org, id);
  }

  /** Judges the case bodies of one answer; never throws (a watcher defect is kept as an error). */
  observe(req: OutgoingRequest, res: ReceivedResponse): void {
    this.#see(req, res, true);
  }

  /**
   * Learns from an answer without judging it: a replay's setup (the creation and deletion that freed an id, sent
   * before the creation it judges) gives the identities and deletions the judged answers are compared with.
   */
  learn(req: OutgoingRequest, res: ReceivedResponse): void {
    this.#see(req, res, false);
  }

  #see(req: OutgoingRequest, res: ReceivedResponse, judge: boolean): void {
    try {
      const url = new URL(req.url);
      const ok = res.status >= 200 && res.status <= 299 && res.json !== undefined;
      const org = req.organisation ?? 'none';
      const identities = ok ? identityBodies(req.method, url.pathname, res.json) : [];
      const reuse = this.#ids.observe({
        method: req.method,
        pathname: url.pathname,
        org,
        status: res.status,
        bodies: identities,
        sent: req.body,
        exchange: res.exchange,
        judge,
      });
      const bodies = ok && judge ? caseBodies(req.method, url.pathname, res.json) : [];
      // A creation's answer shows an id reused, though its body is not judged as a representation.
      if (bodies.length === 0 && reuse.findings.length === 0 && !reuse.judged) return;
      const f = this.#findings;
      if (reuse.judged) f.judged['CASE-ID-NOT-REUSED'] = (f.judged['CASE-ID-NOT-REUSED'] ?? 0) + reuse.judged;
      // Built at the first violation: most answers break nothing.
      let request: string | undefined;
      const keep = (finding: InvariantFinding, caseId: unknown, setup?: () => Exchange[]) => {
        request ??= this.redactor.redact(`${req.method} ${url.pathname}${url.search}`);
        this.#keep(finding, isId(caseId) ? caseId : null, request, res.exchange, setup);
      };
      for (const body of bodies) {
        f.watched += 1;
        const judged = f.judged;
        for (const id of applicableInvariants(body)) judged[id] = (judged[id] ?? 0) + 1;
        for (const finding of caseInvariants(body, { text: res.text, single: true })) keep(finding, body.id);
      }
      for (const { finding, caseId, setup } of reuse.findings) keep(finding, caseId, setup);
    } catch (err) {
      if (this.#findings.errors.length < 5) {
        this.#findings.errors.push(`invariant watcher: ${(err as Error)?.stack ?? String(err)}`);
      }
    }
  }

  /**
   * Counts a violation, keeps it when distinct, and keeps the exchange that showed it as evidence, after `setup`: what
   * the violation rests on that the worker's checks may not have sent (the deletion, in another worker, that freed an
   * id a creation gave again).
   */
  #keep(
    finding: InvariantFinding,
    caseId: Id | null,
    request: string,
    exchange: Exchange | undefined,
    setup?: () => Exchange[],
  ): void {
    const f = this.#findings;
    f.counts[finding.requirement] = (f.counts[finding.requirement] ?? 0) + 1;
    const violation: InvariantViolation = {
      ...finding,
      received: this.redactor.redact(finding.received),
      caseId,
      request,
    };
    // Polling reads repeat the same violation: keep distinct ones.
    const kept = f.violations.filter((v) => v.requirement === finding.requirement);
    if (
      kept.length < VIOLATIONS_KEPT &&
      !kept.some((v) => v.what === violation.what && v.received === violation.received && v.request === request)
    ) {
      f.violations.push(violation);
    }
    const evidence = (f.evidence[finding.requirement] ??= { exchanges: [], curl: [] });
    // Every exchange kept showed a violation: each is judged (kept as a marked copy of the record); its setup is not.
    if (
      exchange &&
      evidence.exchanges.filter((e) => e.judged).length < EXCHANGES_KEPT &&
      !evidence.exchanges.some((e) => e.request === exchange.request)
    ) {
      if (setup) this.#pending.push({ requirement: finding.requirement, judged: exchangeKey(exchange), setup });
      const marked = { ...exchange, judged: true };
      this.#sources.set(marked, exchange);
      evidence.exchanges.push(marked);
      evidence.curl.push(toCurl(exchange, this.baseUrl));
      if (finding.expect) {
        const expect = JSON.parse(this.redactor.redact(JSON.stringify(finding.expect)));
        ((f.expects ??= {})[finding.requirement] ??= {})[exchangeKey(exchange)] = expect;
      }
    }
  }

  /** The exchange as recorded that a judged exchange of the evidence is a marked copy of (itself otherwise). */
  source(e: Exchange): Exchange {
    return this.#sources.get(e) ?? e;
  }

  /** The findings since the last take, the watch going on. */
  peek(): Readonly<InvariantFindings> {
    return this.#findings;
  }

  /** The findings since the last take, with what their evidence rests on; the watch starts afresh. */
  take(): InvariantFindings {
    const f = this.#findings;
    for (const { requirement, judged, setup } of this.#pending.splice(0)) {
      const evidence = f.evidence[requirement]!;
      const rests = setup();
      for (const e of rests) {
        if (evidence.exchanges.some((x) => exchangeKey(x) === exchangeKey(e))) continue;
        evidence.exchanges.push(e);
        evidence.curl.push(toCurl(e, this.baseUrl));
      }
      if (rests.length) ((f.rests ??= {})[requirement] ??= {})[judged] = rests.map(exchangeKey);
    }
    this.#findings = InvariantWatcher.#empty();
    return f;
  }
}
