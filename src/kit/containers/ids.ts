/**
 * The container cells of the bulk check delete. Checks are seen through their case, so the cells share a few
 * cases and one read of each after every batch is sent: an empty list, 101 ids naming one check or two, an entry
 * of each other kind beside a valid id (JSON), and in each flat encoding a 101-id batch and a 100-id one (the JSON
 * ones are the bulk-checks suite's limit checks). Each batch names checks of its own, and each case keeps its last
 * check ("a case holds one or more checks").
 *
 * The 101 ids of a flat encoding are the 100 of its 100-id batch but one, between two more: one first, one last.
 * Sent before the 100, a 101-id batch applied in part shows in those two (any 100 of the 101 hold one of them),
 * and one read after both judges the two batches. How ids travel in a flat body (repeated fields) is not shown:
 * the limit is judged where the server reads the repeated fields as a list (deletes more than one id of a batch).
 */
import { stringifyJson } from '../../base/json.ts';
import type { ContentType } from '../../client/encode.ts';
import type { Id } from '../../spec/id.ts';
import { LIMITS } from '../../spec/index.ts';
import type { Encoding } from '../../spec/inputs/matrix.ts';
import { expectBatchSuccess, expectOverLimitRefused, mapLimit } from '../bulk.ts';
import { type CaseBody, type CaseWithChecks, caseWithChecks, checkIds } from '../cases.ts';
import type { Harness } from '../context.ts';
import type { SentCell } from '../inputs/cell.ts';
import { culprits, readRecord } from '../inputs/bulk.ts';
import type { RecordRead } from '../inputs/records.ts';
import { type Answer, answerOf, ok, refused } from '../inputs/send.ts';
import { breach, cellOf, type Finding, finding, resting, sent, unanswered, unjudged, verdict } from './cells.ts';

const LIMIT = LIMITS.bulkMaxItems;
const FLAT = ['form', 'multipart', 'multipart-file'] as const;
/** The checks the JSON cells name, by what they are for. */
const ROLE = { valid: 0, nested: 1, noId: 2, one: 3, two: [4, 5] } as const;
const JSON_CHECKS = 6;
/** Checks a flat encoding names: its 100, and the two more its 101 name. */
const PER_ENCODING = LIMIT + 2;
/** The cases: within the 100 checks a provisioner may make a case with, and holding every check named. */
const CASES = 4;
const PER_CASE = Math.ceil((JSON_CHECKS + FLAT.length * PER_ENCODING) / CASES) + 1;

function post(t: Harness, ids: unknown[], encoding: Encoding): Promise<Answer> {
  return answerOf(t.primary.api.bulkDeleteChecks({ ids }, { contentType: encoding as ContentType }));
}

/** The checks every case holds now, and the reads; `problem` when a case could not be read. */
interface Now {
  ids: Id[];
  reads: RecordRead[];
  problem?: string;
}

async function readNow(t: Harness, holders: readonly CaseWithChecks[]): Promise<Now> {
  const reads = await mapLimit(holders, 4, (h) => readRecord(t.primary, h.caseId));
  const bad = reads.findIndex((r) => !r.body);
  return {
    ids: reads.flatMap((r) => (r.body ? checkIds(r.body as CaseBody) : [])),
    reads,
    ...(bad >= 0 ? { problem: `case ${holders[bad]!.caseId} could not be read back (${reads[bad]!.problem})` } : {}),
  };
}

/** Those of `ids` no case holds now (ids of one parser compare by value, bigints too). */
const gone = (now: Now, ids: readonly Id[]) => ids.filter((id) => !now.ids.includes(id));
const readsOf = (now: Now) => now.reads.map((r) => r.res);

/** The answer to 101 ids (the one rule, kit expectOverLimitRefused), then the checks it deleted. */
function overLimit(t: Harness, a: Answer, ids: readonly Id[], deleted: readonly Id[], what: string): Finding {
  const answer =
    unanswered(what, a) ?? (ok(a) ? breach(() => expectOverLimitRefused(t, a.res!, ids, what)) : undefined);
  return finding(answer, () =>
    deleted.length ? `${what}: check ${deleted.slice(0, 3).join(', ')} deleted` : undefined,
  );
}

/** What the JSON cells sent, judged once the cases are read. */
type Judge = (now: Now) => void;

/** An empty list, 101 ids naming one check or two, and an entry of each other kind beside a valid id (JSON). */
async function jsonCells(t: Harness, k: readonly Id[], cells: readonly SentCell[]): Promise<Judge> {
  const empty = cellOf(cells, 'json', 'empty');
  const a0 = await post(t, [], 'json');
  sent(empty, '[]', a0);
  verdict([empty], 'answered', unanswered('bulk check delete of no id', a0), [a0.res]);

  const c1 = cellOf(cells, 'json', '101-one-record');
  const c2 = cellOf(cells, 'json', '101-two-records');
  const two = ROLE.two.map((i) => k[i]!);
  const ids1 = Array.from({ length: LIMIT + 1 }, () => k[ROLE.one]!);
  const ids2 = Array.from({ length: LIMIT + 1 }, (_, i) => two[i % 2]!);
  const a1 = await post(t, ids1, 'json');
  sent(c1, `${LIMIT + 1} × check ${k[ROLE.one]}`, a1);
  const a2 = await post(t, ids2, 'json');
  sent(c2, `${LIMIT + 1} ids alternating checks ${two.join(' and ')}`, a2);

  const entries: [string, unknown][] = [
    ['element-null', null],
    ['element-string', 'screenconf'],
    ['element-array', [k[ROLE.nested]]],
    ['element-empty-object', {}],
    ['element-no-identifier', { check_id: k[ROLE.noId] }],
  ];
  const list = entries.map(([kind, entry]) => ({ cell: cellOf(cells, 'json', kind), entry }));
  const what = 'bulk check delete of a valid id and an entry of each other kind';
  const batch = (part: typeof list, withValid = true) =>
    post(t, [...(withValid ? [k[ROLE.valid]] : []), ...part.map((p) => p.entry)], 'json');
  const a = await batch(list);
  for (const p of list) sent(p.cell, stringifyJson(p.entry)!, a);
  const bad = ok(a) || refused(a) ? [] : await culprits(list, (part) => batch(part));
  const whole = bad.length === 0 && !ok(a) && !refused(a);
  for (const p of list)
    verdict([p.cell], 'answered', bad.includes(p) || whole ? unanswered(what, a) : undefined, [a.res]);
  // Refused whole: each entry that names a check alone, so that one the refusal hid shows.
  if (refused(a))
    for (const p of list.filter((x) => x.cell.spec.oracles.includes('own-record'))) {
      const alone = await batch([p], false);
      verdict([p.cell], 'answered', unanswered(`bulk check delete of ${p.cell.value} alone`, alone), [alone.res]);
    }

  return (now) => {
    const cellsOf = list.map((p) => p.cell);
    if (now.problem) {
      for (const o of ['unchanged', 'own-record'] as const) unjudged(cellsOf, o, `not judged: ${now.problem}`);
      return unjudged([c1, c2], 'limits', `not judged: ${now.problem}`);
    }
    const what1 = `bulk check delete of check ${k[ROLE.one]} named ${LIMIT + 1} times`;
    const what2 = `bulk check delete of ${LIMIT + 1} ids naming two checks`;
    const f1 = overLimit(t, a1, ids1, gone(now, [k[ROLE.one]!]), what1);
    verdict([c1], 'limits', f1.why, resting(f1, a1.res, readsOf(now)));
    const f2 = overLimit(t, a2, ids2, gone(now, two), what2);
    verdict([c2], 'limits', f2.why, resting(f2, a2.res, readsOf(now)));
    const deleted = gone(now, [k[ROLE.valid]!]).length > 0;
    const status = a.res ? `HTTP ${a.res.status}` : 'no answer';
    const judged = [a.res, ...readsOf(now)];
    if (ok(a))
      verdict(
        cellsOf,
        'unchanged',
        deleted ? undefined : `${what}: ${status}, yet check ${k[ROLE.valid]} (the valid id) is still there`,
        judged,
      );
    else if (refused(a))
      verdict(
        cellsOf,
        'unchanged',
        deleted ? `${what}: refused whole (${status}), yet check ${k[ROLE.valid]} was deleted` : undefined,
        judged,
      );
    else unjudged(cellsOf, 'unchanged', `not judged: ${status} (the answered oracle judges it)`);
    for (const [kind, role] of [
      ['element-array', ROLE.nested],
      ['element-no-identifier', ROLE.noId],
    ] as const) {
      const cell = cellOf(cells, 'json', kind);
      const hit = gone(now, [k[role]!]).length > 0;
      verdict(
        [cell],
        'own-record',
        hit ? `${what}: check ${k[role]}, named only inside the entry ${cell.value}, was deleted` : undefined,
        [cell.exchange, ...readsOf(now)],
      );
    }
  };
}

/** A flat encoding's 101-id batch, then its 100-id one: judged once the cases are read. */
async function flatCells(t: Harness, encoding: Encoding, k: readonly Id[], cells: readonly SentCell[]) {
  const full = cellOf(cells, encoding, '100');
  const over = cellOf(cells, encoding, '101');
  const fullIds = k.slice(1, LIMIT + 1);
  const outside = [k[0]!, k[LIMIT + 1]!];
  const overIds = [outside[0]!, ...fullIds.slice(0, LIMIT - 1), outside[1]!];
  const what = (n: number) => `bulk check delete of ${n} ids as ${encoding}`;
  const ao = await post(t, overIds, encoding);
  sent(over, `${LIMIT + 1} ids: check ${outside[0]}, ${LIMIT - 1} of the 100-id batch, check ${outside[1]}`, ao);
  const af = await post(t, fullIds, encoding);
  sent(full, `${LIMIT} ids, checks ${fullIds[0]}…${fullIds.at(-1)}`, af);

  return async (now: Now, holders: readonly CaseWithChecks[]) => {
    if (now.problem) {
      unjudged([full], 'stored', `not judged: ${now.problem}`);
      return unjudged([over], 'limits', `not judged: ${now.problem}`);
    }
    const fullGone = gone(now, fullIds);
    const outsideGone = gone(now, outside);
    let lists = fullGone.length > 1;
    const silent = unanswered(what(LIMIT), af);
    if (silent) verdict([full], 'stored', silent, [af.res]);
    else if (fullGone.length === LIMIT)
      verdict([full], 'stored', ok(af) ? breach(() => expectBatchSuccess(af.res!, what(LIMIT))) : undefined, [
        ...readsOf(now),
        af.res,
      ]);
    else {
      // Not every one deleted: judged where the server reads repeated ids as a list (two sent, both deleted).
      let probe: Answer | undefined;
      const left = outside.filter((id) => !outsideGone.includes(id));
      if (!lists && left.length === 2) {
        probe = await post(t, left, encoding);
        const after = await readNow(t, holders);
        lists = !after.problem && gone(after, left).length === 2;
      }
      if (lists)
        verdict(
          [full],
          'stored',
          `${what(LIMIT)}: ${fullGone.length} of ${LIMIT} checks deleted, though the server reads repeated ids as ` +
            'a list in this encoding ("deletes up to 100 checks")',
          resting({ byAnswer: refused(af) }, af.res, [probe?.res, ...readsOf(now)]),
        );
      else
        unjudged(
          [full],
          'stored',
          `not judged: the server does not read repeated ids fields as a list in ${encoding} (two sent: ` +
            `${probe?.res ? `HTTP ${probe.res.status}` : 'no answer'}, not both deleted); how a list travels in a ` +
            'flat body is not shown',
        );
    }
    // One id of 101 deleted is a server that reads one of the repeated fields: judged where it reads them as a list.
    const deleted = lists || outsideGone.length > 1 ? outsideGone : [];
    const found = overLimit(t, ao, overIds, deleted, what(LIMIT + 1));
    verdict([over], 'limits', found.why, resting(found, ao.res, readsOf(now)));
  };
}

/** Sends and judges the container cells of the bulk check delete. */
export async function idsContainers(t: Harness, cells: readonly SentCell[]): Promise<void> {
  const holders = await mapLimit(Array.from({ length: CASES }), 2, () => caseWithChecks(t.primary, PER_CASE));
  // Each case keeps its last check, whatever the batches do.
  const named = holders.flatMap((h) => h.checks.slice(0, -1));
  const judgeJson = await jsonCells(t, named.slice(0, JSON_CHECKS), cells);
  const judgeFlat = [];
  for (const [j, encoding] of FLAT.entries()) {
    const from = JSON_CHECKS + j * PER_ENCODING;
    judgeFlat.push(await flatCells(t, encoding, named.slice(from, from + PER_ENCODING), cells));
  }
  const now = await readNow(t, holders);
  judgeJson(now);
  for (const judge of judgeFlat) await judge(now, holders);
}
