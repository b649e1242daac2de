/**
 * The states a case can be in that an ordinary server renders differently (issue 33 §4), made by the provisioning
 * conventions for the suites that read each through every read the run has: GET and the answer to a PATCH
 * (suites/read-states), the completion webhook (suites/webhooks). The states: checks of every check_type (over a few
 * cases, so processing, which decides one check at a time, stays short), "" and null among them; no checks; every
 * check deleted by a bulk check delete; customers of every customer_type (INDIVIDUAL, COMPANY, "", null). What a
 * target will not make of them (a case without checks, checks without a type, a customer_type of "" or null at
 * creation, starting a case with nothing to process) is recorded in the case's notes, never judged: creation and
 * start are the conventions', not the interface's.
 */
import type { JsonObject } from '../base/json.ts';
import { HarnessError } from '../errors.ts';
import type { NewCase } from '../provision/provisioner.ts';
import type { WatchedRequirement } from '../results/invariants.ts';
import { CHECK_TYPES, type Id } from '../spec/index.ts';
import { fail } from './assert.ts';
import { type CaseBody, checkIds, readCase, show } from './cases.ts';
import type { CheckApi } from './check.ts';
import type { Organisation } from './context.ts';
import { caseInvariants } from './invariants.ts';

type NewCheck = NonNullable<NewCase['checks']>[number];
type CustomerType = NonNullable<NewCase['customer']>['customer_type'];

/** One state, as its case is made. */
export interface StateSpec {
  /** The state in words, for messages. */
  label: string;
  customerType: CustomerType;
  checks: NewCheck[];
  /** Checks without a type ("" and null): the case is made again without them when the target refuses it. */
  untyped?: NewCheck[];
  /** Every check is deleted by one bulk check delete once the case is made. */
  deleteAll?: boolean;
}

/** The customer_type values the interface lists, "" and null among them: one for each case of every check_type. */
const CUSTOMER_TYPE_VALUES: readonly CustomerType[] = ['INDIVIDUAL', 'COMPANY', '', null];
/** How many cases the checks of every check_type are spread over: a case each per customer_type value. */
const TYPE_PARTS = CUSTOMER_TYPE_VALUES.length;

/** Checks whose input_details name their state and place, so a read shows which is which. */
function checksOf(state: string, types: readonly NewCheck['check_type'][]): NewCheck[] {
  return types.map((check_type, i) => ({ check_type, input_details: { source: 'screenconf', state, check: i } }));
}

function everyTypePart(i: number): StateSpec {
  const size = Math.ceil(CHECK_TYPES.length / TYPE_PARTS);
  const customerType = CUSTOMER_TYPE_VALUES[i]!;
  const last = i === TYPE_PARTS - 1;
  return {
    label: `checks of every check_type (part ${i + 1} of ${TYPE_PARTS}), customer_type ${show(customerType)}`,
    customerType,
    checks: checksOf(`types-${i + 1}`, CHECK_TYPES.slice(i * size, (i + 1) * size)),
    ...(last ? { untyped: checksOf('types-untyped', ['', null]) } : {}),
  };
}

/** Every state the run reads. */
export const STATES: readonly StateSpec[] = [
  ...Array.from({ length: TYPE_PARTS }, (_, i) => everyTypePart(i)),
  { label: 'no checks (created without any)', customerType: 'INDIVIDUAL', checks: [] },
  {
    label: 'every check deleted (bulk check delete)',
    customerType: 'COMPANY',
    checks: checksOf('deleted', ['PEP', 'SANCTIONS']),
    deleteAll: true,
  },
];

/** A case made in a state. */
export interface StateCase {
  spec: StateSpec;
  id: Id;
  /** What the target made otherwise than the state asks, in words (the last check kept, a start refused, …). */
  notes: string[];
  /** Whether processing was started (false where the target refused to start a case with no checks). */
  started?: boolean;
  /** When the start was answered (ms since the epoch). */
  startedAt?: number;
}

/** What makeStates made, and the states the target would not make (in words). */
export interface MadeStates {
  made: StateCase[];
  unmade: string[];
}

/** A provisioning step the target answered otherwise than the conventions say: the HarnessError, or undefined. */
function refusedByTarget(err: unknown): HarnessError | undefined {
  return err instanceof HarnessError && err.code === 'SC_TARGET_BROKEN' ? err : undefined;
}

/** The refusal in a note: the provisioning message without its hint on the conventions. */
function refusal(err: HarnessError): string {
  return err.message.replace(/^provisioning: /, '').replace(/; see .*$/s, '');
}

/**
 * The ways to make a state's case, the first as the state asks and each next one asking less of the target: without
 * its checks of no type, then without its customer_type of "" or null as well. Each is tried once the one before was
 * refused.
 */
function attemptsFor(spec: StateSpec): { checks: NewCheck[]; customerType?: CustomerType; without?: string }[] {
  const { checks, customerType, untyped } = spec;
  const attempts: { checks: NewCheck[]; customerType?: CustomerType; without?: string }[] = [
    { checks: [...checks, ...(untyped ?? [])], customerType },
  ];
  if (untyped) attempts.push({ checks, customerType, without: 'its checks of check_type "" and null' });
  if (customerType === '' || customerType === null)
    attempts.push({ checks, without: `${untyped ? 'those and ' : ''}customer_type ${show(customerType)}` });
  return attempts;
}

/** Makes the case of one state; undefined (with why in `unmade`) where the target will not make it. */
async function makeState(org: Organisation, spec: StateSpec, unmade: string[]): Promise<StateCase | undefined> {
  const notes: string[] = [];
  const attempts = attemptsFor(spec);
  let created: CaseBody | undefined;
  for (const [i, attempt] of attempts.entries()) {
    const customer = {
      full_name: 'Screenconf State Customer',
      external_id: org.provision.externalId('customer'),
      ...(attempt.customerType !== undefined ? { customer_type: attempt.customerType } : {}),
    };
    try {
      created = await org.provision.createCase({ customer, checks: attempt.checks });
    } catch (err) {
      const refused = refusedByTarget(err);
      if (!refused) throw err;
      if (spec.checks.length === 0) {
        unmade.push(`${spec.label}: the case was not made (${refusal(refused)})`);
        return undefined;
      }
      if (i === attempts.length - 1) throw err;
      continue;
    }
    if (attempt.without) notes.push(`made without ${attempt.without}: the target refused the case holding them`);
    break;
  }
  if (!created) return undefined;
  if (spec.deleteAll) {
    let ids = checkIds(created);
    if (ids.length === 0) ids = checkIds(await readCase(org, created.id, `reading case ${created.id} (${spec.label})`));
    const res = await org.api.bulkDeleteChecks({ ids });
    notes.push(`a bulk delete of its ${ids.length} checks answered HTTP ${res.status}`);
  }
  return { spec, id: created.id, notes };
}

/** Makes a case in every state (STATES), side by side. */
export async function makeStates(org: Organisation, specs: readonly StateSpec[] = STATES): Promise<MadeStates> {
  const unmade: string[] = [];
  const made = await Promise.all(specs.map((spec) => makeState(org, spec, unmade)));
  return { made: made.filter((c): c is StateCase => c !== undefined), unmade };
}

/** Whether the state's case has no checks to process (made without, or all deleted). */
function nothingToProcess(c: StateCase): boolean {
  return c.spec.checks.length === 0 || c.spec.deleteAll === true;
}

/**
 * Starts processing of every case; a start the target refuses for a case with no checks (nothing to process) is
 * noted and leaves the case unstarted, any other refusal stops the run's use of the states as a harness fault.
 */
export async function startStates(org: Organisation, cases: readonly StateCase[]): Promise<void> {
  await Promise.all(
    cases.map(async (c) => {
      try {
        await org.provision.startCase(c.id);
        c.started = true;
        c.startedAt = Date.now();
      } catch (err) {
        const refused = refusedByTarget(err);
        if (!refused || !nothingToProcess(c)) throw err;
        c.started = false;
        c.notes.push(`processing not started: ${refusal(refused)}`);
      }
    }),
  );
}

/** The case of a state in messages: `case 12 (no checks (created without any))`. */
export function stateCaseLabel(c: StateCase): string {
  return `case ${String(c.id)} (${c.spec.label})`;
}

/** Processing time is not shown: a setting (--processing-timeout-ms); the reference takes well under a second. */
const DEFAULT_PROCESSING_TIMEOUT_MS = 10_000;

/** How long a check waits for a case's processing to complete. */
export function processingTimeoutMs(t: CheckApi): number {
  return t.run.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
}

/** `within 10 s (--processing-timeout-ms) of starting processing`, for skip reasons. */
export function withinProcessing(t: CheckApi): string {
  return `within ${processingTimeoutMs(t) / 1000} s (--processing-timeout-ms) of starting processing`;
}

/** A case body and where it was seen: "a read before processing", "the answer to a PATCH", … */
export interface Sighting {
  label: string;
  body: CaseBody;
}

/** The checks a case body shows (objects only). */
export function checksShown(body: CaseBody): JsonObject[] {
  return Array.isArray(body.checks)
    ? (body.checks as unknown[]).filter((k): k is JsonObject => k !== null && typeof k === 'object')
    : [];
}

/**
 * Fails on the first body that breaks `requirement` (the watcher's invariants, caseInvariants), naming where it
 * was seen. The case is read once more first, so the reproduction shown with the failure reads that case.
 */
export async function judgeSightings(
  t: CheckApi,
  seen: readonly Sighting[],
  requirement: WatchedRequirement,
): Promise<void> {
  for (const { label, body } of seen) {
    const finding = caseInvariants(body).find((f) => f.requirement === requirement);
    if (!finding) continue;
    const again = await t.primary.provision.readCase(body.id).catch(() => undefined);
    fail(`${finding.what}, in ${label}`, finding.expected, finding.received, {
      judged: [body, again],
      ...(finding.expect ? { expect: finding.expect } : {}),
    });
  }
}
