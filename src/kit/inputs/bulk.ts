/**
 * The bulk ways in of the input matrix, on one set of cases read once a round: bulk case items, bulk
 * customer items (each case's own customer) and bulk check delete entries (each case keeps a check no cell
 * names). A batch carries one item per case (the order of two items naming one case is not shown), readers
 * apart from rejects (a server may refuse a batch whole; then the readers must not be lost with it), and
 * a flat encoding (items as JSON text) is judged only once the server has taken a batch in it.
 */
import type { Id } from '../../spec/id.ts';
import { binary64Blind } from '../../spec/inputs/ids.ts';
import { RawJson, type ContentType } from '../../client/encode.ts';
import type { ReceivedResponse } from '../../client/transport.ts';
import type { Exchange } from '../../results/exchange.ts';
import { recogniseBulkReport, type BulkRequestItem } from '../bulk-report.ts';
import { type CaseBody, checkIds, customerOf, readCase } from '../cases.ts';
import type { Harness, Organisation } from '../context.ts';
import { mapLimit } from '../bulk.ts';
import { deepEqual } from '../assert.ts';
import { failed, judge, label, notJudged, pass, shows, type SentCell } from './cell.ts';
import { type BulkCell, bulkCells } from './bulk-cells.ts';
import { planRounds, type RecordRound } from './plan.ts';
import { type FieldRef, isolateUnreadable, judgeRound, type RecordRead, storedOf, valueIn } from './records.ts';
import { type Answer, answered, answerOf, ok, refused, tagger } from './send.ts';

/** The cases the bulk cells share: one round gives each a reader per field. */
const CASES = 20;
/** Checks each case is made with: two for the cells of a bulk check delete, one that no cell names. */
const CHECKS_PER_CASE = 3;

/** One case of the set: its id, its customer's, the checks cells may name, and its state as last read. */
interface Record_ {
  id: Id;
  customerId: Id;
  spareChecks: Id[];
  state: Record<string, unknown>;
}

/** Where the value a cell writes shows in a read. */
const fieldOf = (c: SentCell): FieldRef => ({
  name: (c as BulkCell).writes,
  on: c.spec.way === 'bulk-customers' ? 'customer' : 'case',
});

/** The id a cell's item names on a case of the set: the case's, or its customer's. */
const namedId = (c: BulkCell, r: Record_): Id => (c.spec.way === 'bulk-customers' ? r.customerId : r.id);

/** A request item's JSON text. */
function item(c: BulkCell, r: Record_): string {
  const id = namedId(c, r);
  const idJson = c.idKind ? c.idKind.json!(id) : String(id);
  return `{"id":${idJson},"${c.writes}":${c.value}}`;
}

/** A bulk request's body in an encoding: JSON, or the items as JSON text in one flat field. */
function body(encoding: ContentType, key: 'items' | 'ids', json: string): { body: unknown; contentType: ContentType } {
  if (encoding === 'json') return { body: new RawJson(`{"${key}":${json}}`), contentType: 'json' };
  return { body: { [key]: json }, contentType: encoding };
}

type Send = (b: { body: unknown; contentType: ContentType }) => Promise<ReceivedResponse>;

/** The cells of `batch` whose request a server fails on its own (5xx or silence), found by halving the batch. */
export async function culprits<T>(batch: T[], attempt: (part: T[]) => Promise<Answer>): Promise<T[]> {
  if (batch.length <= 1) return batch;
  const half = Math.ceil(batch.length / 2);
  const found: T[] = [];
  for (const part of [batch.slice(0, half), batch.slice(half)]) {
    const a = await attempt(part);
    if (!ok(a) && !refused(a)) found.push(...(part.length === 1 ? part : await culprits(part, attempt)));
  }
  return found;
}

/** Sends one batch of cells (one per record), judges answered, and reads the per-item report of failures. */
async function sendBatch(send: Send, batch: { cell: BulkCell; item: string; named: BulkRequestItem }[]) {
  const encoding = batch[0]!.cell.spec.encoding as ContentType;
  const attempt = (part: typeof batch) =>
    answerOf(send(body(encoding, 'items', `[${part.map((b) => b.item).join(',')}]`)));
  const a = await attempt(batch);
  const bad = ok(a) || refused(a) ? [] : await culprits(batch, attempt);
  const report =
    a.res && ok(a)
      ? recogniseBulkReport(
          a.res.json,
          batch.map((b) => b.named),
        )
      : undefined;
  batch.forEach((b, i) => {
    const c = b.cell;
    c.exchange = a.res?.exchange;
    if (a.res) c.status = a.res.status;
    // A 5xx no part of the batch gives alone is the batch's: every item of it is named.
    if (bad.includes(b) || (bad.length === 0 && !ok(a) && !refused(a))) answered(c, a, label(c));
    else judge(c, 'answered', pass(undefined, a.res?.exchange ? [a.res.exchange] : []));
    // Reported failed: refused; otherwise what the read shows decides (a report may list nothing).
    if (refused(a) || report?.items[i] === 'failed') {
      c.taken = false;
      c.refused = true;
    }
  });
  return a;
}

/** Sends and judges every bulk cell; the cells with their verdicts, by way. */
export async function runBulkMatrix(
  t: Harness,
): Promise<{ cases: BulkCell[]; customers: BulkCell[]; checks: BulkCell[] }> {
  const org = t.primary;
  const cells = bulkCells(tagger());
  const made = await mapLimit(Array.from({ length: CASES }), 4, async (): Promise<Record_> => {
    const created = await org.provision.createCase({
      checks: Array.from({ length: CHECKS_PER_CASE }, () => ({ check_type: 'PEP' })),
    });
    // The state before, as a read shows it: a creation's answer (a provisioning convention) may show a case
    // otherwise than a read does (timestamps to the second, an optional field left out).
    const state = await readCase(org, created.id, `reading case ${created.id} before the input matrix`);
    return {
      id: created.id,
      customerId: customerOf(state as CaseBody).id,
      spareChecks: checkIds(state as CaseBody).slice(1),
      state,
    };
  });
  const valueAndId = [...cells.cases, ...cells.customers];
  const rounds = planRounds(
    valueAndId.filter((c) => !c.alone),
    made.length,
    (c) => `${c.spec.way}:${(c as BulkCell).writes}`,
    () => undefined,
  );
  const declined = new Set<string>();
  /** The reader each case's field holds the value of (the last one taken there). */
  const holding = new Map<string, SentCell>();
  for (const [r, round] of rounds.entries()) {
    await sendRound(org, made, round, declined);
    if (r === rounds.length - 1) {
      await sendAlone(
        org,
        made[0]!,
        valueAndId.filter((c) => c.alone),
      );
      await sendCheckCells(org, made, cells.checks);
    }
    await mapLimit(made, 4, async (rec, i) => {
      const before = rec.state;
      const read = await readRecord(org, rec.id);
      const slot = round[i]!;
      const alone = r === rounds.length - 1 && i === 0 ? valueAndId.filter((c) => c.alone) : [];
      const judged: RecordRound = { readers: slot.readers, rejects: [...slot.rejects, ...alone] };
      if (read.body) takenFromRead(judged, before, read.body);
      else {
        // Unreadable after the round: each reader not reported refused, alone on a fresh case, tells which.
        const suspects = judged.readers.flat().filter((c) => c.taken !== false && c.dropped === undefined);
        for (const c of suspects) c.taken = true;
        await isolateUnreadable(suspects, (c) => freshAlone(org, c as BulkCell));
      }
      const exchanges = read.res?.exchange ? [read.res.exchange] : [];
      const checkCells = r === rounds.length - 1 ? cells.checks.filter((c) => c.record === rec.id) : [];
      judgeRound(judged, before, read, fieldOf, exchanges, checkCells.length ? [{ name: 'checks', on: 'case' }] : []);
      judgeChecks(checkCells, read, exchanges);
      if (read.body) rec.state = read.body;
      for (const c of judged.readers.flat())
        if (c.taken) holding.set(`${rec.id} ${fieldOf(c).on}.${fieldOf(c).name}`, c);
    });
  }
  await furtherWrite(org, made, holding);
  fieldsNoItemTakes([...cells.cases, ...cells.customers]);
  return cells;
}

/**
 * Which fields a bulk item takes is "not shown" (§ Bulk Update Cases, § Bulk Update Customers): a server whose
 * items take no value of a field at all (every value the field allows refused by the answer, on that way in and
 * encoding) keeps the interface, so those refusals are recorded, not failed. A field any value of which is taken
 * is a field the items take: every refusal of a value it allows is judged.
 */
function fieldsNoItemTakes(cells: readonly SentCell[]): void {
  const byField = new Map<string, SentCell[]>();
  for (const c of cells) {
    if (c.expect?.verdict !== 'accept') continue;
    const key = `${c.spec.way}/${c.spec.encoding}/${c.spec.field}`;
    byField.set(key, [...(byField.get(key) ?? []), c]);
  }
  for (const [key, group] of byField) {
    // Refused by the answers, every one: a value answered as taken and then not shown is a value lost, judged.
    if (!group.every((c) => c.refused)) continue;
    for (const c of group)
      if (c.verdicts.stored?.result === 'fail')
        c.verdicts.stored = notJudged(
          `${label(c)}: refused, as every value ${key} allows was: the fields a bulk item takes are not shown`,
        );
  }
}

/** A cell sent alone (a batch of one) to a fresh case, and that case read; undefined when it was refused there. */
async function freshAlone(org: Organisation, c: BulkCell): Promise<RecordRead | undefined> {
  const created = await org.provision.createCase();
  const rec: Record_ = { id: created.id, customerId: customerOf(created).id, spareChecks: [], state: created };
  const send: Send = (b) =>
    c.spec.way === 'bulk-customers' ? org.api.bulkUpdateCustomers(b.body, b) : org.api.bulkUpdateCases(b.body, b);
  const encoding = c.spec.encoding as ContentType;
  const a = await answerOf(send(body(encoding, 'items', `[${item(c, rec)}]`)));
  if (!ok(a)) return undefined;
  const read = await readRecord(org, rec.id);
  if (read.body && !(await writable(org, [rec])))
    return { res: read.res!, problem: 'a further bulk update of it got no 2xx or 4xx' };
  return read;
}

/** Whether these cases take a further write: a bulk update of their delete_after answered 2xx or 4xx. */
async function writable(org: Organisation, recs: readonly Record_[]): Promise<boolean> {
  const items = recs.map((r) => `{"id":${r.id},"delete_after":5}`).join(',');
  const a = await answerOf(org.api.bulkUpdateCases(new RawJson(`{"items":[${items}]}`)));
  return ok(a) || refused(a);
}

/**
 * Still writable afterwards: one bulk update of every case; a 5xx is traced (by halves) to the cases it comes
 * from, and on each to the value it holds that does it, alone on a fresh case.
 */
async function furtherWrite(org: Organisation, made: Record_[], holding: Map<string, SentCell>): Promise<void> {
  const stuck = async (recs: Record_[]): Promise<Record_[]> => {
    if (await writable(org, recs)) return [];
    if (recs.length === 1) return recs;
    const half = Math.ceil(recs.length / 2);
    return [...(await stuck(recs.slice(0, half))), ...(await stuck(recs.slice(half)))];
  };
  for (const rec of await stuck(made)) {
    const suspects = [...holding.entries()].filter(([k]) => k.startsWith(`${rec.id} `)).map(([, c]) => c);
    await isolateUnreadable(suspects, (c) => freshAlone(org, c as BulkCell));
  }
}

/** A read of a case, as judging a round needs it. */
export async function readRecord(org: Organisation, id: Id): Promise<RecordRead> {
  const a = await answerOf(org.provision.readCase(id));
  if (!a.res) return { problem: `no answer (${a.silent})` };
  const json = a.res.json as Record<string, unknown> | undefined;
  if (a.res.status !== 200 || !json || typeof json !== 'object' || json.id !== id)
    return { res: a.res, problem: `HTTP ${a.res.status}` };
  return { body: json, res: a.res };
}

/** A bulk reader was taken when the read shows its value where the field held another. */
function takenFromRead(round: RecordRound, before: Record<string, unknown>, after: Record<string, unknown>): void {
  for (const c of round.readers.flat()) {
    if (c.taken === false) continue;
    const ref = fieldOf(c);
    const was = valueIn(before, ref);
    const now = valueIn(after, ref);
    c.taken = !deepEqual(now, was) || shows(storedOf(c), now, was);
  }
}

/** The batches of one round: readers first (taken ones apart from open ones), then rejects; one item per case. */
async function sendRound(
  org: Organisation,
  made: Record_[],
  round: RecordRound[],
  declined: Set<string>,
): Promise<void> {
  const groups = new Map<string, { cell: BulkCell; rec: Record_ }[][]>();
  const add = (key: string, cell: BulkCell, rec: Record_) => {
    const batches = groups.get(key) ?? [];
    groups.set(key, batches);
    let free = batches.find((b) => !b.some((x) => x.rec === rec));
    if (!free) batches.push((free = []));
    free.push({ cell, rec });
  };
  round.forEach((slot, i) => {
    for (const c of slot.readers.flat() as BulkCell[])
      add(`${c.spec.way} ${c.spec.encoding} 1 ${c.expect?.verdict}`, c, made[i]!);
    for (const c of slot.rejects as BulkCell[]) {
      // A spelling of this id a binary64 reader takes for a legal id is not sent: nothing it does would show.
      const blind = c.idKind && binary64Blind(c.idKind, namedId(c, made[i]!));
      if (blind) {
        c.record = made[i]!.id;
        drop(c, blind);
      } else add(`${c.spec.way} ${c.spec.encoding} 2`, c, made[i]!);
    }
  });
  // JSON first; a flat encoding's readers (all of a value a conforming server takes) before its rejects.
  const keys = [...groups.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const key of keys) {
    const [way, encoding] = key.split(' ') as [string, string];
    for (const batch of groups.get(key)!) {
      if (declined.has(`${way} ${encoding}`)) {
        for (const { cell } of batch)
          drop(cell, `not sent: the server refused ${way} items as JSON text in a ${encoding} body`);
        continue;
      }
      const send: Send = (b) =>
        way === 'bulk-customers' ? org.api.bulkUpdateCustomers(b.body, b) : org.api.bulkUpdateCases(b.body, b);
      const a = await sendBatch(
        send,
        batch.map(({ cell, rec }) => ({
          cell,
          item: item(cell, rec),
          named: { id: way === 'bulk-customers' ? rec.customerId : rec.id },
        })),
      );
      for (const { cell, rec } of batch) cell.record = rec.id;
      // A flat encoding whose batch of values every server takes is refused: the server does not read items so.
      if (encoding !== 'json' && key.endsWith(' 1 accept') && refused(a)) {
        declined.add(`${way} ${encoding}`);
        for (const { cell } of batch) drop(cell, `the server refused ${way} items as JSON text in a ${encoding} body`);
      }
    }
  }
}

/** A cell no oracle judges beyond its answer (an encoding the server does not take): left out of the round. */
function drop(c: SentCell, why: string): void {
  c.dropped = why;
  for (const o of c.spec.oracles) if (o !== 'answered' || !c.verdicts.answered) judge(c, o, notJudged(why));
}

const rank = (key: string) => (key.includes(' json ') ? 0 : 2) + (key.endsWith(' 2') ? 1 : 0);

/** Cells whose JSON makes the whole body invalid: each in a request of its own, to be refused whole. */
async function sendAlone(org: Organisation, rec: Record_, cells: BulkCell[]): Promise<void> {
  for (const c of cells) {
    const send: Send = (b) =>
      c.spec.way === 'bulk-customers' ? org.api.bulkUpdateCustomers(b.body, b) : org.api.bulkUpdateCases(b.body, b);
    const a = await answerOf(send(body('json', 'items', `[${item(c, rec)}]`)));
    c.record = rec.id;
    answered(c, a, label(c));
    c.taken = ok(a) ? undefined : refused(a) ? false : undefined;
    if (ok(a))
      judge(c, 'limits', failed(`${label(c)}: a body that is not JSON was answered ${a.res!.status}`, [c.exchange]));
  }
}

/**
 * The entries of a bulk check delete, one batch per encoding, each entry naming a spare check of its own:
 * an exact spelling may delete it, any other must not.
 */
async function sendCheckCells(org: Organisation, made: Record_[], cells: BulkCell[]): Promise<void> {
  const spare = made.flatMap((r) => r.spareChecks.map((k) => ({ check: k, rec: r })));
  const byEncoding = new Map<string, BulkCell[]>();
  for (const c of cells) byEncoding.set(c.spec.encoding, [...(byEncoding.get(c.spec.encoding) ?? []), c]);
  let next = 0;
  for (const [encoding, list] of byEncoding) {
    const entries = list.flatMap((c) => {
      const target = spare[next];
      if (!target) {
        for (const o of c.spec.oracles) judge(c, o, notJudged('not sent: no spare check left to name'));
        return [];
      }
      c.marker = String(target.check);
      c.value = encoding === 'json' ? c.idKind!.json!(target.check) : decodeURIComponent(c.idKind!.text!(target.check));
      // A spelling a binary64 reader takes for a legal id is not sent (its spare check goes to the next cell).
      const blind = binary64Blind(c.idKind!, target.check);
      if (blind) {
        drop(c, blind);
        return [];
      }
      next += 1;
      c.record = target.rec.id;
      return [c];
    });
    if (entries.length === 0) continue;
    // JSON entries each alone: a server that refuses a whole list for one entry it cannot read would hide how it
    // reads the others. Flat ones (repeated fields, a convention): those naming no check together, the exact
    // spellings each alone, so that whether the server takes one shows.
    const alone = encoding === 'json' ? entries : entries.filter((c) => c.naming !== 'none');
    const together = entries.filter((c) => !alone.includes(c));
    for (const part of [...alone.map((c) => [c]), ...(together.length ? [together] : [])])
      await deleteEntries(org, encoding, part);
  }
}

/** Entries sent together and refused whole: whether the server would take one of them alone did not show. */
const refusedTogether = new WeakSet<BulkCell>();

/** One bulk check delete of these entries; a 5xx is traced to the entries that give it alone. */
async function deleteEntries(org: Organisation, encoding: string, entries: BulkCell[]): Promise<void> {
  const attempt = (part: BulkCell[]) => {
    const b =
      encoding === 'json'
        ? body('json', 'ids', `[${part.map((c) => c.value).join(',')}]`)
        : { body: { ids: part.map((c) => c.value) }, contentType: encoding as ContentType };
    return answerOf(org.api.bulkDeleteChecks(b.body, b));
  };
  const a = await attempt(entries);
  const bad = ok(a) || refused(a) ? [] : await culprits(entries, attempt);
  for (const c of entries) {
    if (!ok(a) && entries.length > 1) refusedTogether.add(c);
    c.exchange = a.res?.exchange;
    if (a.res) c.status = a.res.status;
    if (bad.includes(c) || (bad.length === 0 && !ok(a) && !refused(a))) answered(c, a, label(c));
    else judge(c, 'answered', pass(undefined, c.exchange ? [c.exchange] : []));
  }
}

/** A check a lenient reading of an entry names must still be on its case; an exact spelling may have deleted it. */
function judgeChecks(cells: BulkCell[], read: RecordRead, exchanges: Exchange[]): void {
  for (const c of cells) {
    if (!read.body) {
      judge(c, 'own-record', notJudged('the case could not be read afterwards'));
      continue;
    }
    const present = checkIds(read.body as CaseBody).some((k) => String(k) === c.marker);
    if (c.naming === 'exact') c.taken = !present ? true : refusedTogether.has(c) ? undefined : false;
    if (c.naming === 'none' && !present)
      judge(
        c,
        'own-record',
        failed(`${label(c)} names no check, yet check ${c.marker} was deleted`, [c.exchange, ...exchanges]),
      );
    else
      judge(
        c,
        'own-record',
        pass(present ? 'kept' : 'deleted (an exact spelling of its id)', [c.exchange, ...exchanges]),
      );
  }
}
