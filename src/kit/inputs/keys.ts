/**
 * The key dimension of the input matrix (issue 33 §3, src/spec/inputs/keys.ts): every key a PATCH body, a bulk
 * case item or a bulk customer item may carry beside its fields, group by group. Each group is one request per way
 * in (its keys beside a marker the way writes), on a case of its own per way; then our read of each case, the
 * peer's read of it (organisation groups), and a read of the records the group's values named (ours with our
 * credentials, the peer's with its own). A group a server does not take whole (a 4xx, its item reported failed, a
 * 5xx or silence) is sent again key by key, so a key it refuses hides nothing of the others and each key's own
 * answer is judged. About 70 requests on a server that takes the groups; some 200 more on one that refuses them.
 */
import { randomInt } from 'node:crypto';
import { recogniseBulkReport } from '../bulk-report.ts';
import { stringifyJson } from '../../base/json.ts';
import { KEY_GROUPS, type KeyGroup, type KeyWay, keyCells } from '../../spec/inputs/keys.ts';
import { ConformanceFailure } from '../assert.ts';
import { type CaseBody, readCase } from '../cases.ts';
import type { Harness, Organisation } from '../context.ts';
import { mapLimit } from '../bulk.ts';
import { failed, notJudged, pass } from './cell.ts';
import {
  type CaseRead,
  changesOf,
  type GroupSent,
  judgeGroup,
  judgeKey,
  type OtherRead,
  type Part,
} from './key-judge.ts';
import { type Known, type KeyCell, knownFrom, keyValue } from './key-values.ts';
import { type Answer, answerOf, ok, refused, tagger } from './send.ts';

/** The endpoint of each key way in, for messages. */
export const KEY_ENDPOINTS: Record<KeyWay, string> = {
  'patch-keys': 'PATCH /api/cases/{id}/',
  'bulk-cases-keys': 'POST /api/cases/bulk-update/',
  'bulk-customers-keys': 'POST /api/customers/bulk-update/',
};

/** The records a run of the key cells holds. */
interface Records {
  /** The case each way writes (a bulk customer item: its customer). */
  targets: Record<KeyWay, Known>;
  /** Our other case, which the group `ours` names. */
  ours: Known;
  /** The peer's case, which the group `peer` names (none without a peer). */
  peer?: Known;
}

/** Every key cell, unsent. */
export function keyCellsToSend(): KeyCell[] {
  return keyCells().map((spec) => ({ spec, verdicts: {} }));
}

/** Reads a case as `org`: its body when it answered 200 with that case. */
async function readAs(org: Organisation, id: CaseBody['id']): Promise<CaseRead> {
  const a = await answerOf(org.provision.readCase(id));
  if (!a.res) return { problem: `no answer (${a.silent})` };
  const json = a.res.json as { id?: unknown } | undefined;
  if (a.res.status !== 200 || !json || typeof json !== 'object' || json.id !== id)
    return { res: a.res, problem: `HTTP ${a.res.status}` };
  return { body: json as CaseBody, res: a.res };
}

/** A new case of `org`, as a read shows it. */
async function made(org: Organisation): Promise<Known> {
  const created = await org.provision.createCase();
  return knownFrom(org, await readCase(org, created.id, `reading case ${created.id} before the key cells`));
}

/** Why a group cannot be sent here, or undefined when it can. */
function unsendable(group: KeyGroup, t: Harness, records: Records): string | undefined {
  if ((group === 'peer' || group === 'org-client-id') && !records.peer)
    return 'no peer organisation is configured (--peer-client-id, --peer-client-secret)';
  if (group === 'org-client-id' && !t.peer?.credentials.clientId) return "the peer's client id is not known";
  return undefined;
}

/** The organisation value of a group. */
function orgValue(group: KeyGroup, t: Harness): unknown {
  if (group === 'org-client-id') return t.peer?.credentials.clientId;
  return group === 'org-1' ? 1 : group === 'org-2' ? 2 : undefined;
}

/** One request of a way carrying `cells` and the marker. */
function send(org: Organisation, way: KeyWay, target: Known, cells: readonly KeyCell[], marker: number | string) {
  const keys = Object.fromEntries(cells.map((c) => [c.spec.field, c.value]));
  if (way === 'patch-keys') return org.api.patchCase(target.id, { ...keys, delete_after: marker });
  if (way === 'bulk-cases-keys')
    return org.api.bulkUpdateCases({ items: [{ id: target.id, ...keys, delete_after: marker }] });
  return org.api.bulkUpdateCustomers({ items: [{ id: target.customerId, ...keys, full_name: marker }] });
}

/** A fresh marker per request: a delete_after no case of the run holds, or a customer's full_name. */
function markerFor(way: KeyWay, tag: string): number | string {
  return way === 'bulk-customers-keys' ? `Screenconf Keys ${tag}` : 600_000 + randomInt(0, 300_000);
}

/** One request of a group, and what came back: its answer, and for a bulk item its report. */
async function sendPart(
  org: Organisation,
  way: KeyWay,
  target: Known,
  cells: KeyCell[],
  marker: number | string,
): Promise<{ part: Part; answer: Answer }> {
  const answer = await answerOf(send(org, way, target, cells, marker));
  const part: Part = { cells, marker, ...(answer.res ? { res: answer.res } : {}) };
  if (way !== 'patch-keys' && answer.res && ok(answer)) {
    const item = way === 'bulk-cases-keys' ? { id: target.id } : { id: target.customerId };
    part.reported = recogniseBulkReport(answer.res.json, [item]).items[0];
  }
  for (const c of cells) {
    c.exchange = answer.res?.exchange;
    if (answer.res) c.status = answer.res.status;
  }
  return { part, answer };
}

const said = (a: Answer) => (a.res ? `HTTP ${a.res.status}` : `no answer (${a.silent})`);

/**
 * Sends a way's group: its keys in one request; when the server does not take them together (a 4xx, an item
 * reported failed, a 5xx), each key alone as well, so that one key a server refuses (a schema that forbids unknown
 * fields) hides nothing of what it does with the others, and a 5xx is told to the key that causes it.
 */
async function sendGroup(
  t: Harness,
  way: KeyWay,
  group: KeyGroup,
  cells: KeyCell[],
  records: Records,
  tag: () => string,
): Promise<GroupSent> {
  const target = records.targets[way];
  const named = group === 'ours' ? records.ours : group === 'peer' ? records.peer : undefined;
  const t0 = tag();
  for (const c of cells)
    c.value = keyValue(c.spec, { target, ...(named ? { named } : {}), org: orgValue(group, t), tag: t0 });
  const sendable = cells.filter((c) => c.value !== undefined);
  for (const c of cells.filter((x) => x.value === undefined))
    for (const o of c.spec.oracles) judgeKey(c, o, notJudged('the record its value names has no such part'));
  const whole = await sendPart(t.primary, way, target, sendable, markerFor(way, t0));
  const parts = [whole.part];
  const taken = ok(whole.answer) && whole.part.reported !== 'failed';
  if (taken || sendable.length === 1) {
    const v = ok(whole.answer) || refused(whole.answer);
    const why = `${KEY_ENDPOINTS[way]} carrying these keys: ${said(whole.answer)} (a 2xx or a 4xx conforms)`;
    for (const c of sendable) judgeKey(c, 'answered', v ? pass(undefined, [c.exchange]) : failed(why, [c.exchange]));
    return { cells: sendable, parts, tag: t0 };
  }
  const alone: Answer[] = [];
  for (const c of sendable) {
    const single = await sendPart(t.primary, way, target, [c], markerFor(way, tag()));
    parts.push(single.part);
    alone.push(single.answer);
  }
  const serverFailed = (a: Answer) => !ok(a) && !refused(a);
  const singly = alone.filter(serverFailed).length;
  sendable.forEach((c, i) => {
    const mine = alone[i]!;
    const why = `${KEY_ENDPOINTS[way]} carrying ${c.spec.field} (${c.spec.kind}): ${said(mine)} sent alone`;
    const judged = [whole.part.res?.exchange, mine.res?.exchange];
    if (serverFailed(mine)) judgeKey(c, 'answered', failed(why, judged));
    // A 5xx no key gives alone is the request's: every key of it is named.
    else if (serverFailed(whole.answer) && singly === 0)
      judgeKey(c, 'answered', failed(`${why}, ${said(whole.answer)} with the others`, judged));
    else judgeKey(c, 'answered', pass(undefined, judged));
  });
  return { cells: sendable, parts, tag: t0 };
}

/** Whether a named record's read carries a group's tag or one of its markers (the group reached it), as text. */
const mentions = (sent: GroupSent, after: CaseRead) => {
  const text = after.body ? (stringifyJson(after.body) ?? '') : '';
  return text.includes(sent.tag) || sent.parts.some((p) => text.includes(String(p.marker)));
};

/** Sends and judges every key cell; the cells with their verdicts. */
export async function runKeyMatrix(t: Harness): Promise<KeyCell[]> {
  const cells = keyCellsToSend();
  const [patch, bulkCase, bulkCustomer, ours] = await mapLimit([0, 1, 2, 3], 4, () => made(t.primary));
  const records: Records = {
    targets: { 'patch-keys': patch!, 'bulk-cases-keys': bulkCase!, 'bulk-customers-keys': bulkCustomer! },
    ours: ours!,
    ...(t.peer ? { peer: await made(t.peer) } : {}),
  };
  const retired = new Map<KeyWay, string>();
  const lost: KeyWay[] = [];
  const tag = tagger();
  for (const group of KEY_GROUPS) {
    // A way whose record a group lost (moved, deleted) goes on with a new one: the later groups are judged too.
    for (const way of lost.splice(0)) {
      try {
        records.targets[way] = await made(t.primary);
      } catch (err) {
        if (!(err instanceof ConformanceFailure)) throw err;
        retired.set(way, `its record was lost, and a new case could not be made (${err.message.split('\n')[0]})`);
      }
    }
    const why = unsendable(group, t, records);
    const ways = (Object.keys(records.targets) as KeyWay[]).filter((w) => !retired.has(w));
    const of = (way: KeyWay) => cells.filter((c) => c.spec.way === way && c.spec.kind === group);
    for (const [way, reason] of retired)
      for (const c of of(way)) for (const o of c.spec.oracles) judgeKey(c, o, notJudged(`not sent: ${reason}`));
    if (why) {
      for (const way of ways) for (const c of of(way)) for (const o of c.spec.oracles) judgeKey(c, o, notJudged(why));
      continue;
    }
    const sent = await mapLimit(ways, 3, (way) => sendGroup(t, way, group, of(way), records, tag));
    lost.push(...(await judgeReads(t, group, ways, sent, records)));
  }
  return cells;
}

/**
 * Reads what a group's requests may have changed, judges each way's cells, and keeps the states read; the ways whose
 * record is lost (its case no longer read by us, or no longer showing the customer a customer item names).
 */
async function judgeReads(
  t: Harness,
  group: KeyGroup,
  ways: KeyWay[],
  sent: GroupSent[],
  records: Records,
): Promise<KeyWay[]> {
  const peer = t.peer;
  const orgGroup = group.startsWith('org') || group === 'flags';
  const [ours, theirs, named] = await Promise.all([
    mapLimit(ways, 3, (w) => readAs(t.primary, records.targets[w].id)),
    peer && orgGroup ? mapLimit(ways, 3, (w) => readAs(peer, records.targets[w].id)) : undefined,
    group === 'ours'
      ? readAs(t.primary, records.ours.id)
      : group === 'peer' && records.peer && peer
        ? readAs(peer, records.peer.id)
        : undefined,
  ]);
  const namedRecord = group === 'ours' ? records.ours : group === 'peer' ? records.peer : undefined;
  const lost: KeyWay[] = [];
  // A named record reached is blamed on the requests whose tag or marker it shows, or on each when it shows none.
  const reached = named ? sent.filter((s) => mentions(s, named)) : [];
  ways.forEach((way, i) => {
    const target = records.targets[way];
    const others: OtherRead[] =
      named && namedRecord && (reached.length === 0 || reached.includes(sent[i]!))
        ? [
            {
              who: `${group === 'peer' ? "the peer's" : 'our other'} case ${namedRecord.id}`,
              before: namedRecord.state,
              after: named,
            },
          ]
        : [];
    const after = ours[i]!;
    const customerId = way === 'bulk-customers-keys' ? target.customerId : undefined;
    const changes = changesOf(sent[i]!, customerId, target.state, after, theirs?.[i], others);
    judgeGroup(sent[i]!, target.state, after.body !== undefined, changes);
    if (after.body) target.state = after.body;
    if (changes.some((c) => c.reach === 'gone')) lost.push(way);
  });
  if (named?.body && namedRecord) namedRecord.state = named.body;
  return lost;
}

export type { KeyCell } from './key-values.ts';
