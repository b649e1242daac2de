/** After the suites: remove what the ledger still lists for this run. */
import { organisationClient } from '../client/api.ts';
import type { Transport } from '../client/transport.ts';
import type { Ledger } from '../provision/ledger.ts';
import { readLedger } from '../provision/ledger.ts';
import { type Removal, removeAll } from '../provision/removal.ts';
import type { CleanupSummary } from '../results/report.ts';
import type { Target } from './target.ts';

/** Removes what per-file teardown could not, or never got to; with --keep, only lists it. */
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
  const clients = {
    a: organisationClient({ baseUrl, credentials: target.primary, transport, organisation: 'ours' }),
    b: organisationClient({ baseUrl, credentials: target.peer, transport, organisation: 'peer' }),
  };
  const { removed, left } = await removeAll(pending, clients, (c) => ledger.deleted(c.org, c.id));
  return { cleanup: { ...base, removedAtEnd: removed.length, left: left.map((r) => r.id) }, left };
}
