/**
 * Invariants of the Case read representation (interface § Resources › Case, Check; § States and
 * transitions; § Limits), on cases read before processing, while it runs and after it. The kit's
 * invariant watcher judges the same invariants on every case body any suite receives; these
 * checks make sure the bodies worth judging (decided checks, risk scores) are seen.
 */
import { stringifyJson } from '../src/base/json.ts';
import { describe } from 'vitest';
import {
  check,
  deepEqual,
  fail,
  type JsonObject,
  readCase,
  readUntilComplete,
  show,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import {
  checksShown as checksOf,
  judgeSightings as judge,
  processingTimeoutMs,
  type Sighting,
  withinProcessing,
} from '../src/kit/states.ts';
import { type CheckType, type Id, isId } from '../src/spec/index.ts';

function scoreOf(k: JsonObject): number | null {
  return typeof k.risk_score === 'number' ? k.risk_score : null;
}

/** Reads a case until it is complete (or the deadline passes), keeping every read. */
async function pollUntilComplete(t: CheckApi, id: Id, seen: Sighting[]): Promise<CaseBody | undefined> {
  const { body, complete } = await readUntilComplete(
    t.primary,
    id,
    processingTimeoutMs(t),
    `reading case ${id} while it is processed`,
    (read) => seen.push({ label: `a read ${read.is_complete === true ? 'after' : 'while'} processing`, body: read }),
  );
  return complete ? body : undefined;
}

/**
 * Two cases with several checks: read before processing, while it runs and after, then PATCHed, and
 * read again after bulk deletion of the highest-scored check of one and of every check of the other.
 */
async function sightings(t: CheckApi): Promise<Sighting[]> {
  const p = t.primary.provision;
  const all: Sighting[] = [];
  const a = await p.createCase({
    checks: [
      { check_type: 'PEP' },
      { check_type: 'SANCTIONS', input_details: { list: 'OFAC' } },
      { check_type: 'ADVERSE_MEDIA' },
    ],
  });
  const b = await p.createCase({
    customer: { full_name: 'Screenconf Holding Ltd', customer_type: 'COMPANY', external_id: p.externalId('customer') },
    checks: [{ check_type: 'NAME_CHECK' }, { check_type: 'CRA', input_details: { method: 'average' } }],
  });
  // Read, not taken from the answers to creation: those are the provisioning conventions', not the case read API's.
  for (const c of [a, b]) all.push({ label: 'a read before processing', body: await readCase(t.primary, c.id) });
  await Promise.all([p.startCase(a.id), p.startCase(b.id)]);
  const [doneA, doneB] = await Promise.all([pollUntilComplete(t, a.id, all), pollUntilComplete(t, b.id, all)]);

  const patched = await t.primary.api.patchCase(a.id, { delete_after: 30 });
  if (patched.status === 200 && patched.json && typeof patched.json === 'object')
    all.push({ label: 'the answer to a PATCH after processing', body: patched.json as CaseBody });

  // The bulk deletes only make states worth reading: their answers are the bulk suites' to judge
  // (and a server may refuse to empty a case: "a case holds one or more checks"), so the case is
  // read whatever they answered.
  const top = [...checksOf(doneA ?? a)].sort((x, y) => (scoreOf(y) ?? -1) - (scoreOf(x) ?? -1))[0];
  if (top && isId(top.id)) {
    const res = await t.primary.api.bulkDeleteChecks({ ids: [top.id] });
    all.push({
      label: `a read after bulk deletion of its highest-scored check (answered HTTP ${res.status})`,
      body: await readCase(t.primary, a.id),
    });
  }
  const idsB = checksOf(doneB ?? b)
    .map((k) => k.id)
    .filter(isId);
  if (idsB.length) {
    const res = await t.primary.api.bulkDeleteChecks({ ids: idsB });
    all.push({
      label: `a read after bulk deletion of all its checks (answered HTTP ${res.status})`,
      body: await readCase(t.primary, b.id),
    });
  }
  return all;
}

/**
 * The processed cases' sightings, made once for the file: each check below judges its own
 * invariant on the same bodies. A check that does not pass drops them, so its re-run (and the
 * next check) judges freshly made cases.
 */
let processed: Promise<Sighting[]> | undefined;
async function withSightings(t: CheckApi, judgeThem: (all: Sighting[]) => Promise<void>): Promise<void> {
  processed ??= sightings(t);
  try {
    await judgeThem(await processed);
  } catch (err) {
    processed = undefined;
    throw err;
  }
}

type Scoring = 'no checks' | 'no check scored' | 'some checks scored' | 'every check scored';

function scoring(body: CaseBody): Scoring {
  const scores = checksOf(body).map(scoreOf);
  if (scores.length === 0) return 'no checks';
  const scored = scores.filter((s) => s !== null).length;
  return scored === 0 ? 'no check scored' : scored === scores.length ? 'every check scored' : 'some checks scored';
}

/** What the case's risk_score shows, in words: null, the maximum of the scored checks, or another value. */
function caseRiskText(body: CaseBody): string {
  const r = body.risk_score;
  if (r === null) return 'null';
  const scores = checksOf(body)
    .map(scoreOf)
    .filter((s): s is number => s !== null);
  if (typeof r === 'number' && scores.length && r === Math.max(...scores)) return 'the maximum of the scored checks';
  return `${stringifyJson(r)}${scores.length ? ` (scored checks: ${stringifyJson(scores)})` : ''}`;
}

describe('Case read representation', () => {
  check('every case read has the always-present fields with their types', ['READ-CASE-SCHEMA'], async (t) => {
    await withSightings(t, (all) => judge(t, all, 'READ-CASE-SCHEMA'));
  });

  check(
    'outcomes, statuses, check types and customer types are values the interface lists',
    ['READ-ENUMS'],
    async (t) =>
      withSightings(t, async (all) => {
        await judge(t, all, 'READ-ENUMS');
        if (!all.some(({ body }) => checksOf(body).some((k) => k.outcome !== null))) {
          t.skip(`no check was decided ${withinProcessing(t)}; statuses and outcomes after a decision were not seen`);
        }
      }),
  );

  check(
    'every risk score, of the case and of its checks, is null or within 0.0 to 1.0',
    ['READ-RISK-SCORE-RANGE'],
    async (t) =>
      withSightings(t, async (all) => {
        await judge(t, all, 'READ-RISK-SCORE-RANGE');
        if (!all.some(({ body }) => checksOf(body).some((k) => scoreOf(k) !== null))) {
          t.skip(`no check had a risk score ${withinProcessing(t)}`);
        }
      }),
  );

  check(
    "a case's risk_score is the maximum of its checks' scores",
    ['READ-CASE-RISK-MAX', 'READ-CASE-RISK-UNSCORED'],
    async (t) =>
      withSightings(t, async (all) => {
        const shown = new Map<Scoring, Set<string>>();
        for (const { body } of all) {
          const s = scoring(body);
          if (s !== 'every check scored') (shown.get(s) ?? shown.set(s, new Set()).get(s)!).add(caseRiskText(body));
        }
        const text = [...shown].map(([s, texts]) => `${s}: case risk_score ${[...texts].join(' or ')}`).join('; ');
        t.observe('READ-CASE-RISK-UNSCORED', text || 'every case read had every check scored');
        await judge(t, all, 'READ-CASE-RISK-MAX');
        if (!all.some(({ body }) => scoring(body) === 'every check scored')) {
          t.skip(`no case read had every check scored ${withinProcessing(t)}`);
        }
      }),
  );
});

/**
 * The checks of a case never started, each of its own check_type, with input_details in plain
 * ASCII (so a server normalising or trimming text shows them as sent) and of every JSON kind.
 */
const UNDECIDED_CHECKS: readonly { check_type: CheckType; input_details: JsonObject }[] = [
  { check_type: 'PEP', input_details: { screenconf_ref: 'pep-1', lists: ['UN', 'EU'] } },
  {
    check_type: 'SANCTIONS',
    input_details: {
      screenconf_ref: 'sanctions-1',
      infractions: [{ code: 'A1', amount: 1200 }],
      enrichment: { country: 'CH', verified: true },
    },
  },
  { check_type: 'ADVERSE_MEDIA', input_details: { screenconf_ref: 'media-1', threshold: 0.75, keywords: ['fraud'] } },
];

/**
 * The checks shown for one created: by the marker in its input_details (check_type is not among a
 * check's always-present fields), else, for a clearer message when input_details are lost, by check_type.
 */
function shownFor(body: CaseBody, given: (typeof UNDECIDED_CHECKS)[number]): JsonObject[] {
  const all = checksOf(body);
  const byRef = all.filter((k) => {
    const d = k.input_details;
    return (
      d !== null && typeof d === 'object' && (d as JsonObject).screenconf_ref === given.input_details.screenconf_ref
    );
  });
  return byRef.length ? byRef : all.filter((k) => k.check_type === given.check_type);
}

/** A case with UNDECIDED_CHECKS, never started: the answer to its creation and a later read. */
let undecided: Promise<Sighting[]> | undefined;
function undecidedSightings(t: CheckApi): Promise<Sighting[]> {
  undecided ??= (async () => {
    const created = await t.primary.provision.createCase({ checks: UNDECIDED_CHECKS.map((k) => ({ ...k })) });
    const read = await readCase(t.primary, created.id, `reading case ${created.id}, never started`);
    return [
      { label: 'the answer to its creation', body: created },
      { label: 'a read before processing was started', body: read },
    ];
  })();
  return undecided;
}

/** The checks of a body; the check is skipped when provisioning made none (the conventions were not followed). */
function checksOrSkip(t: CheckApi, seen: Sighting[]): void {
  if (checksOf(seen[0]!.body).length === 0)
    t.skip(
      `the case created with ${UNDECIDED_CHECKS.length} checks shows none: provisioning did not create them ` +
        '(see "Provisioning conventions")',
    );
}

/** How a check's input_details differ from what it was created with; keys the server added are allowed. */
function inputDetailsWrong(shown: unknown, given: JsonObject): string[] {
  if (shown === null || typeof shown !== 'object' || Array.isArray(shown))
    return [`input_details is ${shown === undefined ? 'absent' : show(shown)}`];
  const got = shown as JsonObject;
  return Object.entries(given).flatMap(([key, value]) =>
    !(key in got)
      ? [`input_details.${key} missing`]
      : deepEqual(got[key], value)
        ? []
        : [`input_details.${key} is ${show(got[key])}, created with ${show(value)}`],
  );
}

describe('Checks before a decision', () => {
  check('a check never started shows outcome null, not PENDING', ['READ-CHECK-OUTCOME-UNDECIDED'], async (t) => {
    const seen = await undecidedSightings(t);
    checksOrSkip(t, seen);
    let judged = 0;
    // The read only, as for input_details: the answer to creation is the provisioning conventions'.
    for (const { label, body } of seen.slice(1)) {
      for (const k of checksOf(body)) {
        if (k.status !== 'PENDING') continue;
        judged += 1;
        if (k.outcome !== null)
          fail(
            `check ${show(k.id)} (status PENDING) of case ${body.id}, never started, in ${label}`,
            'outcome null (the check is not decided yet)',
            `outcome ${k.outcome === undefined ? 'absent' : show(k.outcome)}`,
            { judged: [body] },
          );
      }
    }
    if (judged === 0)
      t.skip(`no check of case ${seen[0]!.body.id}, never started, showed status PENDING: none is known undecided`);
  });

  check(
    'the case read shows each check with the input_details it was created with',
    ['READ-CHECK-INPUT-DETAILS'],
    async (t) => {
      const seen = await undecidedSightings(t);
      checksOrSkip(t, seen);
      // The read only: the answer to creation is the provisioning conventions', not the case read API's.
      for (const { label, body } of seen.slice(1)) {
        const problems: string[] = [];
        for (const given of UNDECIDED_CHECKS) {
          const shown = shownFor(body, given);
          if (shown.length !== 1) {
            problems.push(
              `${shown.length} checks showing input_details.screenconf_ref ` +
                `${show(given.input_details.screenconf_ref)} (or of check_type ${given.check_type}), created with one`,
            );
            continue;
          }
          const wrong = inputDetailsWrong(shown[0]!.input_details, given.input_details);
          if (wrong.length) problems.push(`the ${given.check_type} check ${show(shown[0]!.id)}: ${wrong.join(', ')}`);
        }
        if (problems.length)
          fail(
            `the checks of case ${body.id} in ${label}`,
            `each check's input_details as created: ${UNDECIDED_CHECKS.map(
              (k) => `${k.check_type} ${stringifyJson(k.input_details)}`,
            ).join('; ')}`,
            problems.join('; '),
            { judged: [body] },
          );
      }
    },
  );
});
