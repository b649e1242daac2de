/**
 * Removing a case and confirming it is gone: DELETE, then an empty PATCH (which changes nothing
 * on a case that still exists) must be refused. Shared by teardown, the end-of-run sweep and
 * `screenconf cleanup`, so each reports the same way. Teardown confirms a sample and takes the
 * DELETE's word for the rest once the sample held (`removeSampled`).
 *
 * A server may give a deleted case's id to a new case (CASE-ID-NOT-REUSED): where what identifies the case is
 * known (created_at, external_id: identity.ts), a case answering with its id is compared with it, and another
 * case there is never deleted: the run's case is gone, and the id is someone else's now.
 */
import { isJsonObject } from '../base/json.ts';
import type { ApiClient } from '../client/api.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import type { Id } from '../spec/index.ts';
import { anotherCase, type CaseIdentity, describeIdentity, identityOf } from './identity.ts';
import type { LedgerCase } from './ledger.ts';

export interface Removal {
  org: string;
  id: Id;
  gone: boolean;
  /** Why it is not gone (or how it went). */
  detail: string;
  /** Whether a later request confirmed it (removeSampled's sample). */
  confirmed?: boolean;
  /** What identified the case removed, when known (its creation's external_id first). */
  identity?: CaseIdentity;
}

/** Another case than `identity`'s answering with its id (the id given again), described; undefined if none. */
function otherCase(res: ReceivedResponse, identity: CaseIdentity | undefined): string | undefined {
  if (!identity || res.status < 200 || res.status > 299 || !isJsonObject(res.json)) return undefined;
  if (!anotherCase(identity, res.json)) return undefined;
  const shown = identityOf(res.json);
  return `another case answers with its id now (${shown ? describeIdentity(shown) : 'no identity shown'})`;
}

/**
 * Whether a status to a request on the case means it no longer exists: a 4xx, except those
 * that say something about the request rather than the case (credentials, timeout, throttling).
 */
export function isGoneStatus(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 407, 408, 429].includes(status);
}

function message(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/**
 * Deletes a case and confirms it is gone. With `deletedAlready` (a check deleted it), only
 * confirms, and deletes if it is still there. With `confirm: false`, a DELETE answered 2xx, 404 or
 * 410 is taken as done, without the later PATCH. With `identity`, a case answering with the id is
 * compared with it: another case there means the run's is gone, and it is left alone (`probe`: read
 * before the DELETE, so the DELETE never reaches it; deletedAlready reads first anyway).
 */
export async function removeCase(
  api: ApiClient,
  org: string,
  id: Id,
  options: { deletedAlready?: boolean; confirm?: boolean; identity?: CaseIdentity; probe?: boolean } = {},
): Promise<Removal> {
  const { identity } = options;
  const result = (gone: boolean, detail: string): Removal => ({
    org,
    id,
    gone,
    detail,
    ...(identity ? { identity } : {}),
  });
  try {
    if (options.deletedAlready || options.probe) {
      const probe = await api.patchCase(id, {}, { cleanup: true });
      if (isGoneStatus(probe.status)) return result(true, `already gone (PATCH answered HTTP ${probe.status})`);
      const other = otherCase(probe, identity);
      if (other) return result(true, `already gone: ${other}, left alone`);
    }
    const del = await api.deleteCase(id, { cleanup: true });
    if (!(del.status >= 200 && del.status < 300) && !isGoneStatus(del.status))
      return result(false, `DELETE answered HTTP ${del.status}`);
    const plain = (del.status >= 200 && del.status < 300) || del.status === 404 || del.status === 410;
    if (options.confirm === false && plain)
      return result(true, `deleted (DELETE answered HTTP ${del.status}; not read again: the sample held)`);
    const confirm = await api.patchCase(id, {}, { cleanup: true });
    if (isGoneStatus(confirm.status))
      return result(true, `deleted (DELETE answered HTTP ${del.status}, a later PATCH ${confirm.status})`);
    const other = otherCase(confirm, identity);
    if (other) return result(true, `deleted (DELETE answered HTTP ${del.status}); ${other}`);
    if (confirm.status >= 200 && confirm.status < 300)
      return result(
        false,
        `still there after DELETE answered HTTP ${del.status} (a later PATCH answered ${confirm.status})`,
      );
    return result(false, `deletion not confirmed: a later PATCH answered HTTP ${confirm.status}`);
  } catch (err) {
    return result(false, message(err));
  }
}

/** How many deletions of a teardown are confirmed by a later request before the rest are taken at the DELETE's word. */
export const CONFIRMED_SAMPLE = 3;

/**
 * Removes cases of one organisation, confirming the first CONFIRMED_SAMPLE removals with a later
 * request. When each of those is confirmed gone, the target's DELETE does what it answers, and
 * the rest are taken at the DELETE's answer: one request each for the cases still there, none
 * for those a check deleted itself (`deletedAlready`: its DELETE answered 2xx, 404 or 410).
 * Confirming every one cost a request per case (about 300 of a full run). The sample is the
 * target's, not the teardown's: what earlier teardowns of the same client confirmed counts toward
 * it (`confirmedBefore`), so once CONFIRMED_SAMPLE deletions held, a worker's later teardowns
 * confirm none (a few confirmations per suite file cost about 40 requests of a full run). When any
 * of the sample is not confirmed gone, every other removal is confirmed too. The case-delete suite judges
 * DELETE itself (CASE-DELETE-REMOVES); the end-of-run sweep and `screenconf cleanup` confirm all.
 */
export async function removeSampled(
  api: ApiClient,
  org: string,
  cases: readonly { id: Id; deletedAlready: boolean; identity?: CaseIdentity | undefined }[],
  /** Deletions earlier teardowns of the same client confirmed, none of them found still there: the sample's start. */
  confirmedBefore = 0,
): Promise<Removal[]> {
  // The sample favours cases still there: their DELETE is the one the rest will be taken at.
  const ordered = [...cases.filter((c) => !c.deletedAlready), ...cases.filter((c) => c.deletedAlready)];
  const sample = ordered.slice(0, Math.max(0, CONFIRMED_SAMPLE - confirmedBefore));
  const sampled = await Promise.all(
    sample.map(async (c) => ({
      ...(await removeCase(api, org, c.id, { deletedAlready: c.deletedAlready, ...known(c.identity) })),
      confirmed: true,
    })),
  );
  const held = sampled.every((r) => r.gone);
  const rest = await Promise.all(
    ordered.slice(sample.length).map(
      (c): Promise<Removal> =>
        held && c.deletedAlready
          ? Promise.resolve({
              org,
              id: c.id,
              gone: true,
              detail: 'deleted by a check (its DELETE answered 2xx, 404 or 410); not read again: the sample held',
              ...known(c.identity),
            })
          : removeCase(api, org, c.id, { deletedAlready: c.deletedAlready, confirm: !held, ...known(c.identity) }),
    ),
  );
  return [...sampled, ...rest];
}

function known(identity: CaseIdentity | undefined): { identity?: CaseIdentity } {
  return identity ? { identity } : {};
}

/**
 * Removes every listed case with its organisation's client; `onGone` records each confirmed deletion. A case whose
 * ledger line knows when it was created is read first, so a DELETE never reaches another case given its id.
 */
export async function removeAll(
  cases: readonly LedgerCase[],
  clients: Readonly<Record<string, ApiClient | undefined>>,
  onGone: (c: LedgerCase) => void = () => {},
): Promise<{ removed: Removal[]; left: Removal[] }> {
  const removals = await Promise.all(
    cases.map(async (c): Promise<Removal> => {
      const api = clients[c.org];
      if (!api)
        return {
          org: c.org,
          id: c.id,
          gone: false,
          detail: `no credentials for organisation ${c.org === 'b' ? 'b (give the peer credentials)' : c.org}`,
        };
      const identity = c.createdAt === undefined ? undefined : { id: c.id, createdAt: c.createdAt, externalIds: [] };
      const r = await removeCase(api, c.org, c.id, identity ? { identity, probe: true } : {});
      if (r.gone) onGone(c);
      return r;
    }),
  );
  return { removed: removals.filter((r) => r.gone), left: removals.filter((r) => !r.gone) };
}
