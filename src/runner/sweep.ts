/**
 * After the suites: remove the cases the suite files shared (kit/shared-pool.ts; teardown-like, a
 * sample of the deletions confirmed), and what else the ledger still lists for this run (each
 * confirmed: teardown left it, or never got to it).
 */
import { type ApiClient, organisationClient } from '../client/api.ts';
import type { Transport } from '../client/transport.ts';
import type { Ledger } from '../provision/ledger.ts';
import { readLedger } from '../provision/ledger.ts';
import { type Removal, removeAll, removeSampled } from '../provision/removal.ts';
import type { CleanupSummary } from '../results/report.ts';
import type { Target } from './target.ts';

/** Removes the shared cases and what per-file teardown could not, or never got to; with --keep, only lists it. */
export async function sweep(
  ledger: Ledger,
  target: Target,
  transport: Transport,
  keep: boolean,
): Promise<{ cleanup: CleanupSummary; left: Removal[] }> {
  const state = readLedger(ledger.path);
  const pending = state.pending.filter((c) => c.run === ledger.run);
  const unconfirmed = state.unconfirmed.filter((u) => u.run === ledger.run).map((u) => u.externalId);
  const customers = state.customers[ledger.run] ?? 0;
  const base = { ledger: ledger.path, kept: keep, unconfirmed, ...(customers ? { undeletable: { customers } } : {}) };
  if (keep) return { cleanup: { ...base, removedAtEnd: 0, left: pending.map((c) => c.id) }, left: [] };
  if (pending.length === 0) return { cleanup: { ...base, removedAtEnd: 0, left: [] }, left: [] };
  const { baseUrl } = target;
  const clients: Record<string, ApiClient | undefined> = {
    a: organisationClient({ baseUrl, credentials: target.primary, transport, organisation: 'ours' }),
    b: organisationClient({ baseUrl, credentials: target.peer, transport, organisation: 'peer' }),
  };
  const shared = pending.filter((c) => c.shared && clients[c.org]);
  const sharedLeft: Removal[] = [];
  for (const org of new Set(shared.map((c) => c.org))) {
    const ofOrg = shared.filter((c) => c.org === org).map((c) => ({ id: c.id, deletedAlready: false }));
    for (const r of await removeSampled(clients[org]!, org, ofOrg)) {
      if (r.gone) ledger.deleted(org, r.id);
      else sharedLeft.push(r);
    }
  }
  const rest = pending.filter((c) => !shared.includes(c));
  const { removed, left } = await removeAll(rest, clients, (c) => ledger.deleted(c.org, c.id, c.externalId));
  const allLeft = [...sharedLeft, ...left];
  return { cleanup: { ...base, removedAtEnd: removed.length, left: allLeft.map((r) => r.id) }, left: allLeft };
}
