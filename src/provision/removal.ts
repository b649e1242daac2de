/**
 * Removing a case and confirming it is gone: DELETE, then an empty PATCH (which changes nothing
 * on a case that still exists) must be refused. Shared by teardown, the end-of-run sweep and
 * `screenconf cleanup`, so each reports the same way.
 */
import type { ApiClient } from '../client/api.ts';
import type { LedgerCase } from './ledger.ts';

export interface Removal {
  org: string;
  id: number;
  gone: boolean;
  /** Why it is not gone (or how it went). */
  detail: string;
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
 * confirms, and deletes if it is still there.
 */
export async function removeCase(
  api: ApiClient,
  org: string,
  id: number,
  options: { deletedAlready?: boolean } = {},
): Promise<Removal> {
  const result = (gone: boolean, detail: string): Removal => ({ org, id, gone, detail });
  try {
    if (options.deletedAlready) {
      const probe = await api.patchCase(id, {}, { cleanup: true });
      if (isGoneStatus(probe.status)) return result(true, `already gone (PATCH answered HTTP ${probe.status})`);
    }
    const del = await api.deleteCase(id, { cleanup: true });
    if (!(del.status >= 200 && del.status < 300) && !isGoneStatus(del.status))
      return result(false, `DELETE answered HTTP ${del.status}`);
    const confirm = await api.patchCase(id, {}, { cleanup: true });
    if (isGoneStatus(confirm.status))
      return result(true, `deleted (DELETE answered HTTP ${del.status}, a later PATCH ${confirm.status})`);
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

/** Removes every listed case with its organisation's client; `onGone` records each confirmed deletion. */
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
      const r = await removeCase(api, c.org, c.id);
      if (r.gone) onGone(c);
      return r;
    }),
  );
  return { removed: removals.filter((r) => r.gone), left: removals.filter((r) => !r.gone) };
}
