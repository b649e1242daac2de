/**
 * The path way in of the input matrix: PATCH and DELETE of /api/cases/{id}/ with the id in every spelling
 * of ids.ts, on real cases. An exact spelling may act on the case it means (its answer must then be that
 * case); any other acts on none: the case a lenient parse would hit is read afterwards, unchanged and there.
 */
import type { Id } from '../../spec/id.ts';
import { binary64Blind, type IdKind } from '../../spec/inputs/ids.ts';
import { idKindsFor, type OracleName, PATH_METHODS } from '../../spec/inputs/matrix.ts';
import type { Organisation } from '../context.ts';
import { failed, judge, label, notJudged, pass, type SentCell } from './cell.ts';
import { answered, answerOf, ok } from './send.ts';

const ORACLES: readonly OracleName[] = ['answered', 'own-record'];

/** A path cell: the method, the spelling of the id, and (PATCH) the delete_after it writes. */
export interface PathCell extends SentCell {
  method: 'PATCH' | 'DELETE';
  idKind: IdKind;
  spell: (id: Id) => string;
  /** What a PATCH writes, so a read shows whether it acted on the case. */
  writes?: number;
}

/** Every path cell: each spelling of an id, by PATCH and by DELETE. */
export function pathCells(): PathCell[] {
  const kinds = idKindsFor('path', 'json');
  return PATH_METHODS.flatMap((method) =>
    kinds.map((k, i) => ({
      spec: {
        id: `path/json/${method} {id}/${k.kind}`,
        way: 'path' as const,
        encoding: 'json' as const,
        field: `${method} {id}`,
        kind: k.kind,
        verdict: k.verdict,
        oracles: ORACLES,
      },
      value: '',
      naming: k.verdict,
      method,
      idKind: k,
      spell: k.text!,
      ...(method === 'PATCH' ? { writes: 7_300_000 + i * 11, marker: String(7_300_000 + i * 11) } : {}),
      verdicts: {},
    })),
  );
}

/** The id a case read shows delete_after as, or undefined. */
async function readDeleteAfter(org: Organisation, id: Id): Promise<{ status?: number; value?: unknown }> {
  const a = await answerOf(org.provision.readCase(id));
  const json = a.res?.json as { delete_after?: unknown } | undefined;
  return { ...(a.res ? { status: a.res.status } : {}), value: json?.delete_after };
}

/** A cell left unsent, every oracle not judged, and why (a spelling no reading can judge on this id). */
function unsent(c: PathCell, id: Id, why: string): void {
  c.value = c.spell(id);
  c.record = id;
  for (const o of c.spec.oracles) judge(c, o, notJudged(why));
}

/**
 * Sends the path cells on `cases` (PATCH cells spread over them, exact spellings first so a later lenient one
 * shows), then reads each case. DELETEs by exact spellings go last, each on a case still there (the last, then
 * the one before, then new ones), read afterwards to tell whether the server took the spelling.
 */
export async function runPathMatrix(org: Organisation, cases: readonly Id[], cells = pathCells()): Promise<PathCell[]> {
  const patches = cells.filter((c) => c.method === 'PATCH');
  const lenientDeletes = cells.filter((c) => c.method === 'DELETE' && c.naming === 'none');
  const exactDeletes = cells.filter((c) => c.method === 'DELETE' && c.naming !== 'none');
  /** The cases a read after their cells showed still there, last first. */
  const present: Id[] = [];
  for (const [i, id] of cases.entries()) {
    const planned = [
      ...patches.filter((_, k) => k % cases.length === i).sort((a, b) => rank(a) - rank(b)),
      ...lenientDeletes.filter((_, k) => k % cases.length === i),
    ];
    const sent: PathCell[] = [];
    for (const c of planned) {
      const blind = binary64Blind(c.idKind, id);
      if (blind) unsent(c, id, blind);
      else sent.push(c);
    }
    for (const c of sent) await send(org, id, c);
    const after = await readDeleteAfter(org, id);
    if (after.status === 200) present.unshift(id);
    for (const c of sent.filter((x) => x.method === 'DELETE')) {
      if (after.status === 200) judge(c, 'own-record', pass('the case is still there'));
      else if (after.status === 404 || after.status === 410)
        judge(c, 'own-record', failed(`${label(c)} names no case, yet case ${id} is gone afterwards`, [c.exchange]));
      else judge(c, 'own-record', notJudged(`the case could not be read afterwards (HTTP ${after.status ?? 'none'})`));
    }
    for (const c of sent.filter((x) => x.method === 'PATCH' && x.naming === 'none')) {
      if (after.status !== 200) judge(c, 'own-record', notJudged('the case could not be read afterwards'));
      else if (String(after.value) === c.marker)
        judge(
          c,
          'own-record',
          failed(`${label(c)} names no case, yet case ${id} took its delete_after ${c.marker}`, [c.exchange]),
        );
      else judge(c, 'own-record', pass());
    }
  }
  const next = async () => present.shift() ?? (await org.provision.createCase()).id;
  let target = await next();
  for (const c of exactDeletes) {
    await send(org, target, c);
    const after = await readDeleteAfter(org, target);
    const gone = after.status === 404 || after.status === 410;
    // The case was there before: gone now, the DELETE took this spelling of its id.
    if (gone || after.status === 200) c.taken = gone;
    if (after.status !== 200) target = await next();
  }
  return cells;
}

const rank = (c: PathCell) => (c.naming === 'none' ? 1 : 0);

/** One request of a path cell; an exact spelling answered 2xx must answer with that case. */
async function send(org: Organisation, id: Id, c: PathCell): Promise<void> {
  const path = `/api/cases/${c.spell(id)}/`;
  c.value = c.spell(id);
  c.record = id;
  const a = await answerOf(
    org.api.request(c.method, path, c.writes !== undefined ? { body: { delete_after: c.writes } } : {}),
  );
  answered(c, a, label(c));
  if (!a.res) return;
  c.status = a.res.status;
  if (c.naming !== 'none' && c.method === 'PATCH') {
    c.taken = ok(a);
    const shown = (a.res.json as { id?: unknown } | undefined)?.id;
    if (ok(a) && shown !== undefined && String(shown) !== String(id))
      judge(
        c,
        'own-record',
        failed(`${label(c)} means case ${id}, yet the answer is case ${String(shown)}`, [c.exchange]),
      );
    else judge(c, 'own-record', pass(ok(a) ? `acted on case ${id}` : 'refused'));
  } else if (c.naming !== 'none') judge(c, 'own-record', pass());
}
