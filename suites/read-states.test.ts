/**
 * Every state a case can be in, through every read (interface § Resources › Case, Customer, Check; § What the
 * service does 3). kit/states.ts makes a case in each state an ordinary server renders differently: checks of every
 * check_type (decided, a type a server scores 0 among them), no checks, every check deleted, customers of every
 * customer_type. Each is read by GET (an empty PATCH where the target has no GET) before processing and once
 * processed, and by the answer to a PATCH after; the webhooks suite reads the same states through the completion
 * webhook. The invariant watcher judges every one of these answers as it judges any; the checks here name the
 * state and the read a defect showed in.
 */
import { stringifyJson } from '../src/base/json.ts';
import { describe } from 'vitest';
import {
  check,
  ConformanceFailure,
  excerpt,
  expectCaseBody,
  expectStatus,
  readCase,
  readUntilComplete,
  show,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import {
  checksShown,
  judgeSightings,
  makeStates,
  processingTimeoutMs,
  type Sighting,
  type StateCase,
  stateCaseLabel,
  startStates,
  withinProcessing,
} from '../src/kit/states.ts';

interface StatesRead {
  made: StateCase[];
  seen: Sighting[];
  /** Reads that did not answer with the case (a state that answers 500): the first fails READ-CASE-SCHEMA. */
  failed: ConformanceFailure[];
  /** The states the target would not make, and PATCHes it would not answer, one line each. */
  notes: string[];
}

/** A write after processing whose answer is read: it changes what no state depends on. */
const PATCH = { delete_after: 30 };

/** Runs reads; a failure (a read did not answer with the case) is kept for the schema check, not thrown. */
async function attempt(failed: ConformanceFailure[], read: () => Promise<Sighting[]>): Promise<Sighting[]> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof ConformanceFailure)) throw err;
    failed.push(err);
    return [];
  }
}

/** The answer to a PATCH of the case; a 4xx (a completed case the target will not write) is noted, not judged. */
async function patched(t: CheckApi, c: StateCase, notes: string[]): Promise<Sighting[]> {
  const what = `the answer to PATCH ${stringifyJson(PATCH)} of ${stateCaseLabel(c)}, ${
    c.started ? 'after processing was started' : 'never started'
  }`;
  const res = await t.primary.api.patchCase(c.id, PATCH);
  if (res.status >= 400 && res.status <= 499) {
    notes.push(`${stateCaseLabel(c)}: PATCH ${stringifyJson(PATCH)} answered ${excerpt(res).slice(0, 120)}`);
    return [];
  }
  expectStatus(res, 200, what);
  return [{ label: what, body: expectCaseBody(res.json, c.id, what) }];
}

/** Every state's case read before processing, once processed (the longest first), and in the answer to a PATCH. */
async function readStates(t: CheckApi): Promise<StatesRead> {
  const org = t.primary;
  const { made, unmade } = await makeStates(org);
  const seen: Sighting[] = [];
  const failed: ConformanceFailure[] = [];
  const notes: string[] = [];
  const how = () => (org.provision.getAnswers === false ? 'an empty PATCH (the target has no GET)' : 'GET');
  const read = (c: StateCase, when: string) =>
    attempt(failed, async () => [
      {
        label: `${stateCaseLabel(c)}: ${how()} ${when}`,
        body: await readCase(org, c.id, `reading ${stateCaseLabel(c)} ${when}`),
      },
    ]);
  seen.push(...(await Promise.all(made.map((c) => read(c, 'before processing')))).flat());
  await startStates(org, made);
  // The case with the most checks first: once it is processed, the others (started with it) have had as long. One
  // deadline for all: a target that holds some cases (a check wanting documents) waits it out once.
  const timeout = processingTimeoutMs(t);
  const deadline = Date.now() + timeout;
  const size = (c: StateCase) => c.spec.checks.length + (c.spec.untyped?.length ?? 0);
  for (const c of [...made].sort((a, b) => size(b) - size(a))) {
    if (!c.started) continue;
    const processed = await attempt(failed, async () => {
      const left = Math.max(0, deadline - Date.now());
      const { body, complete } = await readUntilComplete(org, c.id, left, `reading ${stateCaseLabel(c)}`);
      const when = complete ? 'once processed' : `at the processing deadline (${timeout} ms), still not complete`;
      return [{ label: `${stateCaseLabel(c)}: ${how()} ${when}`, body }];
    });
    seen.push(...processed);
  }
  seen.push(...(await Promise.all(made.map((c) => attempt(failed, () => patched(t, c, notes))))).flat());
  return { made, seen, failed, notes: [...unmade, ...notes] };
}

/** What a case showed when last read: its checks (how many, their statuses, which scored 0), risk, outcome. */
function lastShown(body: CaseBody): string {
  const checks = checksShown(body);
  const statuses = new Map<string, number>();
  for (const k of checks) statuses.set(String(k.status), (statuses.get(String(k.status)) ?? 0) + 1);
  const zero = checks.filter((k) => k.risk_score === 0).map((k) => show(k.check_type));
  const customer = body.customer as { customer_type?: unknown } | null | undefined;
  return (
    `checks ${Array.isArray(body.checks) ? checks.length : show(body.checks)}` +
    `${statuses.size ? ` (${[...statuses].map(([s, n]) => `${n} ${s}`).join(', ')})` : ''}, risk_score ` +
    `${show(body.risk_score)}, outcome ${show(body.outcome)}, customer_type ${show(customer?.customer_type)}` +
    `${zero.length ? `; decided with risk_score 0: ${zero.join(', ')}` : ''}`
  );
}

/** The states read, each case as it was last read, and the notes. */
function statesShown({ made, seen, notes }: StatesRead): string {
  const last = new Map<unknown, CaseBody>();
  for (const s of seen) last.set(s.body.id, s.body);
  const shown = made.map((c) => {
    const body = last.get(c.id);
    const notes = c.notes.length ? ` (${c.notes.join('; ')})` : '';
    return `${stateCaseLabel(c)}${notes}: ${body ? lastShown(body) : 'no read answered with the case'}`;
  });
  return [...shown, ...notes].join('; ');
}

/**
 * The states read once for the file: each check below judges its own requirement on the same bodies. A check that
 * does not pass drops them, so its re-run (and the next check) judges freshly made cases.
 */
let states: Promise<StatesRead> | undefined;
async function withStates(t: CheckApi, judgeThem: (read: StatesRead) => Promise<void>): Promise<void> {
  states ??= readStates(t);
  try {
    await judgeThem(await states);
  } catch (err) {
    states = undefined;
    throw err;
  }
}

describe('Every state a case can be in, through every read', () => {
  check(
    'a case in every state reads with the always-present fields of the case, its customer and its checks',
    ['READ-CASE-SCHEMA', 'READ-STATES'],
    async (t) =>
      withStates(t, async (read) => {
        t.observe('READ-STATES', statesShown(read));
        if (read.failed[0]) throw read.failed[0];
        await judgeSightings(t, read.seen, 'READ-CASE-SCHEMA');
      }),
  );

  check(
    'a decided check of every check_type reads with its risk score: 0 as 0, never null',
    ['READ-CHECK-DECIDED-SCORE'],
    async (t) =>
      withStates(t, async ({ seen }) => {
        await judgeSightings(t, seen, 'READ-CHECK-DECIDED-SCORE');
        if (!seen.some(({ body }) => checksShown(body).some((k) => k.status === 'DECIDED')))
          t.skip(`no check of a case in any state read DECIDED ${withinProcessing(t)}`);
      }),
  );
});
