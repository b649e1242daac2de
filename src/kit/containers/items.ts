/**
 * The container cells of the bulk updates (cases, and their customers), on the 101 cases the bulk suites share
 * (kit/shared-pool.ts): the 100- and 101-item batches in each flat encoding (the JSON ones are the limit checks'
 * of the bulk suites, kit/limit-batches.ts), 101 items naming one case or two, an empty list, and one batch
 * carrying an entry of every other kind beside a valid item. Every value an item sets is fresh, so a read
 * showing it shows the item applied; a few reads judge a batch (the first and last of the 100, the 101st), not
 * a read of every case.
 */
import { stringifyJson } from '../../base/json.ts';
import type { ContentType } from '../../client/encode.ts';
import type { ReceivedResponse } from '../../client/transport.ts';
import type { Id } from '../../spec/id.ts';
import { LIMITS } from '../../spec/index.ts';
import type { Encoding } from '../../spec/inputs/matrix.ts';
import { exactly, number, type Stored, text } from '../../spec/inputs/stored.ts';
import { aloneRefused, expectBatchSuccess, expectOverLimitRefused, mapLimit } from '../bulk.ts';
import type { BulkRequestItem } from '../bulk-report.ts';
import { type CaseBody, customerOf } from '../cases.ts';
import type { Harness, Organisation } from '../context.ts';
import { deepEqual } from '../assert.ts';
import { shows, type SentCell } from '../inputs/cell.ts';
import { culprits, readRecord } from '../inputs/bulk.ts';
import type { RecordRead } from '../inputs/records.ts';
import { type Answer, answerOf, ok, refused } from '../inputs/send.ts';
import {
  breach,
  cellOf,
  type Finding,
  type Fresh,
  finding,
  resting,
  sent,
  unanswered,
  unjudged,
  verdict,
} from './cells.ts';

const LIMIT = LIMITS.bulkMaxItems;
/** The pool's cases read after a flat encoding's 100- and 101-item batches: the first and last of 100, the 101st. */
const SAMPLES = [0, LIMIT - 1, LIMIT];
/** The pool's cases the JSON cells act on: apart from those other checks take from its start and its end. */
const AT = { probe: 60, one: 61, two: [62, 63], valid: 64, nested: 65, bystander: 66 } as const;

/** How a bulk update's items name the pool's records and set a field of theirs. */
export interface ItemsWay {
  way: 'bulk-cases' | 'bulk-customers';
  noun: 'case' | 'customer';
  /** The fields an item may set, in the order tried: the first an item alone is answered as taking is used. */
  fields: readonly string[];
  /** The record an item names for a pool case: the case, or its customer. */
  id(c: CaseBody): Id;
  /** The value an item sets `field` to, from a fresh value, and what a read of it may show. */
  value(field: string, v: Fresh): { json: unknown; stored: Stored };
  /** The field as a read of the case shows it. */
  shown(read: Record<string, unknown>, field: string): unknown;
  send(org: Organisation, body: unknown, contentType: ContentType): Promise<ReceivedResponse>;
}

export const CASE_ITEMS: ItemsWay = {
  way: 'bulk-cases',
  noun: 'case',
  fields: ['delete_after', 'metadata'],
  id: (c) => c.id,
  value: (field, v) =>
    field === 'delete_after'
      ? { json: v.n, stored: number(v.n) }
      : { json: { screenconf: v.s }, stored: exactly({ screenconf: v.s }) },
  shown: (read, field) => read[field],
  send: (org, body, contentType) => org.api.bulkUpdateCases(body, { contentType }),
};

export const CUSTOMER_ITEMS: ItemsWay = {
  way: 'bulk-customers',
  noun: 'customer',
  fields: ['full_name'],
  id: (c) => customerOf(c).id,
  value: (_field, v) => ({ json: `Screenconf Container ${v.s}`, stored: text(`Screenconf Container ${v.s}`) }),
  shown: (read, field) => (read.customer as Record<string, unknown> | undefined)?.[field],
  send: (org, body, contentType) => org.api.bulkUpdateCustomers(body, { contentType }),
};

interface Ctx {
  t: Harness;
  w: ItemsWay;
  pool: readonly CaseBody[];
  fresh: () => Fresh;
  field: string;
}

/** One batch as sent: its members, the value each item set, the answer. */
interface Sent {
  members: CaseBody[];
  values: Fresh[];
  keys: BulkRequestItem[];
  a: Answer;
}

/** Sends a batch of items naming `members` (in order), each setting the field to a fresh value. */
async function send(ctx: Ctx, members: CaseBody[], encoding: Encoding, cell?: SentCell): Promise<Sent> {
  const values = members.map(() => ctx.fresh());
  const items = members.map((c, i) => ({ id: ctx.w.id(c), [ctx.field]: ctx.w.value(ctx.field, values[i]!).json }));
  const a = await answerOf(ctx.w.send(ctx.t.primary, { items }, encoding as ContentType));
  if (cell) {
    const ids = [...new Set(members.map((c) => String(ctx.w.id(c))))];
    const shown = ids.length > 2 ? `${ids[0]}…${ids.at(-1)}` : ids.join(', ');
    sent(cell, `${items.length} items naming ${ctx.w.noun} ${shown}, setting ${ctx.field}`, a);
  }
  return { members, values, keys: items.map((i) => ({ id: i.id })), a };
}

/** Pool cases with their reads (a body, or why there is none). */
type Seen = { c: CaseBody; read: RecordRead }[];

async function readSeen(ctx: Ctx, members: readonly CaseBody[]): Promise<Seen> {
  const reads = await mapLimit(members, 4, (c) => readRecord(ctx.t.primary, c.id));
  return members.map((c, i) => ({ c, read: reads[i]! }));
}

/** Why the reads cannot judge (a case that did not answer its read), or undefined. */
const problemOf = (seen: Seen) => {
  const bad = seen.find((s) => !s.read.body);
  return bad && `case ${bad.c.id} could not be read back (${bad.read.problem})`;
};
const readsOf = (seen: Seen) => seen.map((s) => s.read.res);

/** Whether a read shows the value `v` set in the field. */
function holds(ctx: Ctx, read: RecordRead, v: Fresh): boolean {
  if (!read.body) return false;
  return shows(ctx.w.value(ctx.field, v).stored, ctx.w.shown(read.body, ctx.field), undefined);
}

/** `case 12, case 13`: the records a message names. */
const named = (ctx: Ctx, list: readonly CaseBody[]) => list.map((c) => `${ctx.w.noun} ${ctx.w.id(c)}`).join(', ');

/** The records of `seen` that show a value an item of `b` set on them. */
function took(ctx: Ctx, b: Sent, seen: Seen): CaseBody[] {
  return seen.flatMap(({ c, read }) => (b.values.some((v, i) => b.members[i] === c && holds(ctx, read, v)) ? [c] : []));
}

/** The records of `seen` named by `b` that do not show the value their item set. */
function missed(ctx: Ctx, b: Sent, seen: Seen): CaseBody[] {
  return seen.flatMap(({ c, read }) => {
    const i = b.members.indexOf(c);
    return i >= 0 && !holds(ctx, read, b.values[i]!) ? [c] : [];
  });
}

/** The answer to a batch over the limit (the one rule, kit expectOverLimitRefused), then what the reads show. */
function overLimit(ctx: Ctx, b: Sent, seen: Seen, what: string): Finding {
  const answer =
    unanswered(what, b.a) ??
    (ok(b.a) ? breach(() => expectOverLimitRefused(ctx.t, b.a.res!, b.keys, what)) : undefined);
  return finding(answer, () => {
    const changed = took(ctx, b, seen);
    return changed.length ? `${what}: ${named(ctx, changed)} read back with the value its item set` : undefined;
  });
}

/** The field items set: the first of the way's an item sent alone (a batch of one, JSON) is answered as taking. */
async function itemField(t: Harness, w: ItemsWay, c: CaseBody, fresh: () => Fresh): Promise<string | undefined> {
  for (const field of w.fields) {
    const item = { id: w.id(c), [field]: w.value(field, fresh()).json };
    const a = await answerOf(w.send(t.primary, { items: [item] }, 'json'));
    if (a.res && !aloneRefused(t, a.res, { id: item.id })) return field;
  }
  return undefined;
}

/**
 * A flat encoding's 100- and 101-item batches, read back at the samples after both. Where the samples do not show
 * the 100 items, a batch of 100 of its own, read back, tells a batch not applied from one the 101-item batch changed
 * after; the 101-item one is then judged on a batch of its own read before and after (as kit/limit-batches.ts).
 * A batch of 100 not applied is judged only where an item sent alone in the encoding is taken: how a list travels
 * in a flat body is not shown (CONTENT-BULK-UPDATE-ITEMS-FORM).
 */
async function flatLimit(ctx: Ctx, encoding: Encoding, cells: readonly SentCell[]): Promise<void> {
  const full = cellOf(cells, encoding, '100');
  const over = cellOf(cells, encoding, '101');
  const { pool, w } = ctx;
  const what = (n: number) => `bulk ${w.noun} update of ${n} items as ${encoding}`;
  const samples = SAMPLES.map((i) => pool[i]!);
  const fullAnswer = (b: Sent) =>
    unanswered(what(LIMIT), b.a) ?? (ok(b.a) ? breach(() => expectBatchSuccess(b.a.res!, what(LIMIT))) : undefined);
  const hundred = pool.slice(0, LIMIT);
  const all = pool.slice(0, LIMIT + 1);

  const f1 = await send(ctx, hundred, encoding, full);
  const o1 = await send(ctx, all, encoding, over);
  const seen = await readSeen(ctx, samples);
  const problem = problemOf(seen);
  if (problem) {
    unjudged([full], 'stored', `not judged: ${problem}`);
    unjudged([over], 'limits', `not judged: ${problem}`);
    return;
  }
  const overFail = overLimit(ctx, o1, seen, what(LIMIT + 1));
  const firstAndLast = seen.slice(0, 2);
  if (missed(ctx, f1, firstAndLast).length === 0) {
    // Applied: only the answer's rule can fail it, so the answer is the exchange it rests on last.
    verdict([full], 'stored', fullAnswer(f1), [...readsOf(firstAndLast), f1.a.res]);
    verdict([over], 'limits', overFail.why, resting(overFail, o1.a.res, readsOf(seen)));
    return;
  }
  const judgedOver = !overFail.why && ok(f1.a) ? await ownBatches(ctx, encoding, full, over) : undefined;
  if (!judgedOver) verdict([over], 'limits', overFail.why, resting(overFail, o1.a.res, readsOf(seen)));
  if (judgedOver || (overFail.why && ok(f1.a) && (await ownFull(ctx, encoding, full)))) return;
  const silent = unanswered(what(LIMIT), f1.a);
  if (silent) return verdict([full], 'stored', silent, [f1.a.res]);
  // Not applied: judged where the server takes an item sent alone in this encoding.
  const alone = await send(ctx, [pool[0]!], encoding);
  if (alone.a.res && !aloneRefused(ctx.t, alone.a.res, alone.keys[0]!)) {
    // Refused, or answered otherwise than the rule asks: the answer decides; else the reads that show it not applied.
    const found = finding(
      fullAnswer(f1) ?? (refused(f1.a) ? `${what(LIMIT)}: HTTP ${f1.a.res!.status}` : undefined),
      () => `${what(LIMIT)}: ${named(ctx, missed(ctx, f1, firstAndLast))} read back without the value its item set`,
    );
    verdict(
      [full],
      'stored',
      `${found.why}, though an item sent alone as ${encoding} was taken ("up to 100 … per request")`,
      resting(found, f1.a.res, [alone.a.res, ...readsOf(firstAndLast)]),
    );
  } else
    unjudged(
      [full],
      'stored',
      `not judged: the server took no ${w.noun} item as ${encoding} (one sent alone: ` +
        `${alone.a.res ? `HTTP ${alone.a.res.status}` : 'no answer'}); how a list travels in a flat body is not shown`,
    );
}

/** A batch of 100 of its own, read back: when it shows applied, it judges the 100-item cell (its reads returned). */
async function ownFull(ctx: Ctx, encoding: Encoding, full: SentCell): Promise<Seen | undefined> {
  const samples = SAMPLES.map((i) => ctx.pool[i]!);
  const f2 = await send(ctx, ctx.pool.slice(0, LIMIT), encoding, full);
  const seen = await readSeen(ctx, samples);
  if (problemOf(seen) || missed(ctx, f2, seen.slice(0, 2)).length) return undefined;
  const what = `bulk ${ctx.w.noun} update of ${LIMIT} items as ${encoding}`;
  verdict([full], 'stored', unanswered(what, f2.a) ?? breach(() => expectBatchSuccess(f2.a.res!, what)), [
    ...readsOf(seen),
    f2.a.res,
  ]);
  return seen;
}

/**
 * The shared read did not show the 100 items, nor the 101 applied: a batch of 100 of its own, read back, and when it
 * shows applied, a 101-item batch after it read before and after (what it changed, even to no value of its own).
 * Whether both cells were judged so.
 */
async function ownBatches(ctx: Ctx, encoding: Encoding, full: SentCell, over: SentCell): Promise<boolean> {
  const before = await ownFull(ctx, encoding, full);
  if (!before) return false;
  const { pool, w } = ctx;
  const what = `bulk ${w.noun} update of ${LIMIT + 1} items as ${encoding}, sent after a ${LIMIT}-item one`;
  const o2 = await send(ctx, pool.slice(0, LIMIT + 1), encoding, over);
  const after = await readSeen(
    ctx,
    SAMPLES.map((i) => pool[i]!),
  );
  const moved = after.flatMap((s, i) =>
    deepEqual(w.shown(s.read.body ?? {}, ctx.field), w.shown(before[i]!.read.body ?? {}, ctx.field)) ? [] : [s.c],
  );
  const found = overLimit(ctx, o2, after, what);
  if (!found.why && moved.length) found.why = `${what}: ${named(ctx, moved)} changed`;
  verdict([over], 'limits', found.why, resting(found, o2.a.res, [...readsOf(before), ...readsOf(after)]));
  return true;
}

/** 101 items naming one record, and 101 naming two in turn (JSON): none applied. */
async function duplicates(ctx: Ctx, cells: readonly SentCell[]): Promise<void> {
  const one = ctx.pool[AT.one]!;
  const two = AT.two.map((i) => ctx.pool[i]!);
  const what = (n: number) =>
    `bulk ${ctx.w.noun} update of ${LIMIT + 1} items naming ${n} ${ctx.w.noun}${n > 1 ? 's' : ''}`;
  const c1 = cellOf(cells, 'json', '101-one-record');
  const c2 = cellOf(cells, 'json', '101-two-records');
  const b1 = await send(
    ctx,
    Array.from({ length: LIMIT + 1 }, () => one),
    'json',
    c1,
  );
  const b2 = await send(
    ctx,
    Array.from({ length: LIMIT + 1 }, (_, i) => two[i % 2]!),
    'json',
    c2,
  );
  const seen = await readSeen(ctx, [one, ...two]);
  const problem = problemOf(seen);
  if (problem) return unjudged([c1, c2], 'limits', `not judged: ${problem}`);
  for (const [cell, b, part, n] of [
    [c1, b1, seen.slice(0, 1), 1],
    [c2, b2, seen.slice(1), 2],
  ] as const) {
    const found = overLimit(ctx, b, part, what(n));
    verdict([cell], 'limits', found.why, resting(found, b.a.res, readsOf(part)));
  }
}

/** An empty list: taken (nothing to do) or refused, never a 5xx or silence. */
async function empty(t: Harness, w: ItemsWay, cells: readonly SentCell[]): Promise<void> {
  const cell = cellOf(cells, 'json', 'empty');
  const a = await answerOf(w.send(t.primary, { items: [] }, 'json'));
  sent(cell, '[]', a);
  verdict([cell], 'answered', unanswered(`bulk ${w.noun} update of no item`, a), [a.res]);
}

/**
 * One batch: a valid item, then an entry of each other kind (JSON). Its answer judges each (a 5xx traced by halves
 * to the entries that give it); where it is refused whole, the entries that name a record are sent again each alone,
 * so that one the refusal hid shows. Three reads judge the rest: the valid item applied where the batch was taken
 * (per item) and not where it was refused; no entry of another kind acted on what it names.
 */
async function elements(ctx: Ctx, cells: readonly SentCell[]): Promise<void> {
  const { pool, w, field, t } = ctx;
  const [valid, nested, bystander] = [pool[AT.valid]!, pool[AT.nested]!, pool[AT.bystander]!];
  const [v0, v1, v2] = [ctx.fresh(), ctx.fresh(), ctx.fresh()];
  const item = (c: CaseBody, v: Fresh) => ({ id: w.id(c), [field]: w.value(field, v).json });
  const entries: [string, unknown][] = [
    ['element-null', null],
    ['element-number', w.id(bystander)],
    ['element-string', `screenconf ${v0.s}`],
    ['element-array', [item(nested, v1)]],
    ['element-empty-object', {}],
    ['element-no-identifier', { [field]: w.value(field, v2).json }],
  ];
  const list = entries.map(([kind, entry]) => ({ cell: cellOf(cells, 'json', kind), entry }));
  const what = `bulk ${w.noun} update of a valid item and an entry of each other kind`;
  const post = (part: typeof list, withValid = true) =>
    answerOf(
      w.send(t.primary, { items: [...(withValid ? [item(valid, v0)] : []), ...part.map((p) => p.entry)] }, 'json'),
    );
  const a = await post(list);
  for (const p of list) sent(p.cell, stringifyJson(p.entry)!, a);
  const bad = ok(a) || refused(a) ? [] : await culprits(list, (part) => post(part));
  for (const p of list) {
    const whole = bad.length === 0 && !ok(a) && !refused(a);
    verdict([p.cell], 'answered', bad.includes(p) || whole ? unanswered(what, a) : undefined, [a.res]);
  }
  // Refused whole: each entry that names a record alone, so that one the refusal hid shows.
  if (refused(a))
    for (const p of list.filter((x) => x.cell.spec.oracles.includes('own-record'))) {
      const alone = await post([p], false);
      verdict([p.cell], 'answered', unanswered(`bulk ${w.noun} update of ${p.cell.value} alone`, alone), [alone.res]);
    }
  const seen = await readSeen(ctx, [valid, nested, bystander]);
  const problem = problemOf(seen);
  if (problem) {
    unjudged(
      list.map((p) => p.cell),
      'unchanged',
      `not judged: ${problem}`,
    );
    return unjudged(
      list.map((p) => p.cell),
      'own-record',
      `not judged: ${problem}`,
    );
  }
  const applied = holds(ctx, seen[0]!.read, v0);
  const status = a.res ? `HTTP ${a.res.status}` : 'no answer';
  const cellsOf = list.map((p) => p.cell);
  if (ok(a))
    verdict(
      cellsOf,
      'unchanged',
      applied ? undefined : `${what}: ${status}, yet its valid item (${named(ctx, [valid])}) was not applied`,
      [a.res, seen[0]!.read.res],
    );
  else if (refused(a))
    verdict(
      cellsOf,
      'unchanged',
      applied
        ? `${what}: refused whole (${status}), yet its valid item (${named(ctx, [valid])}) was applied`
        : undefined,
      [a.res, seen[0]!.read.res],
    );
  else unjudged(cellsOf, 'unchanged', `not judged: ${status} (the answered oracle judges it)`);
  const arrayCell = cellOf(cells, 'json', 'element-array');
  verdict(
    [arrayCell],
    'own-record',
    holds(ctx, seen[1]!.read, v1)
      ? `${what}: ${named(ctx, [nested])}, named only inside the array entry ${arrayCell.value}, took its value`
      : undefined,
    [arrayCell.exchange, seen[1]!.read.res],
  );
  const noId = cellOf(cells, 'json', 'element-no-identifier');
  const hit = seen.filter((s) => holds(ctx, s.read, v2)).map((s) => s.c);
  verdict(
    [noId],
    'own-record',
    hit.length ? `${what}: the item naming no ${w.noun} (${noId.value}) was applied to ${named(ctx, hit)}` : undefined,
    [noId.exchange, ...readsOf(seen)],
  );
}

/** Sends and judges the container cells of a bulk update, on the pool's cases. */
export async function itemsContainers(
  t: Harness,
  w: ItemsWay,
  pool: readonly CaseBody[],
  fresh: () => Fresh,
  cells: readonly SentCell[],
): Promise<void> {
  await empty(t, w, cells);
  const field = await itemField(t, w, pool[AT.probe]!, fresh);
  if (!field) {
    const why = `not judged: an item sent alone setting ${w.fields.join(' or ')} was refused (item fields: not shown)`;
    for (const c of cells) for (const o of c.spec.oracles) if (!c.verdicts[o]) unjudged([c], o, why);
    return;
  }
  const ctx: Ctx = { t, w, pool, fresh, field };
  await elements(ctx, cells);
  await duplicates(ctx, cells);
  for (const encoding of ['form', 'multipart', 'multipart-file'] as const) await flatLimit(ctx, encoding, cells);
}
