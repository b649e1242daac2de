/**
 * `screenconf cleanup LEDGER`: removes what a run left on its target, as its ledger lists it
 * (a run killed before its teardown, a target that refused a DELETE, a run with --keep).
 * Each removal is confirmed and appended to the ledger, so running cleanup again is safe.
 */
import { organisationClient } from '../client/api.ts';
import { TokenSource } from '../client/auth.ts';
import { Redactor } from '../base/redact.ts';
import { DEFAULT_TRANSPORT, Transport } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import { exitForCleanup } from '../exit.ts';
import { Ledger, readLedger } from '../provision/ledger.ts';
import { removeAll } from '../provision/removal.ts';
import { type Config, configSecrets } from './config.ts';
import { loadLimits } from './settings.ts';

export interface CleanupIO {
  out: (...lines: string[]) => void;
  err: (line: string) => void;
}

/**
 * Removes every case the ledger lists as created and not confirmed deleted. `makeConfig` gets
 * the ledger's base URL (when it names one target) to use unless one is configured.
 * Returns the exit status: 0 nothing left, 1 something left or unknown.
 */
export async function cleanupLedger(
  path: string,
  makeConfig: (ledgerBaseUrl: string | undefined) => Config,
  io: CleanupIO,
): Promise<number> {
  const state = readLedger(path);
  const embedded = new Set(state.runs.filter((r) => r.target === 'embedded').map((r) => r.run));
  const pending = state.pending.filter((c) => !embedded.has(c.run));
  const unconfirmed = state.unconfirmed.filter((u) => !embedded.has(u.run));
  io.out(
    `ledger ${path}: ${state.runs.length} run(s), ${state.removed} case(s) already removed, ${pending.length} to ` +
      `remove`,
  );
  if (embedded.size)
    io.out(`run(s) ${[...embedded].join(', ')} used the embedded reference server: what they created went with it`);
  if (state.unreadable)
    io.out(`${state.unreadable} unreadable line(s) skipped (a run killed while writing leaves at most one)`);

  if (pending.length > 0) {
    const targets = [...new Set(pending.map((c) => c.baseUrl))];
    let config: Config;
    try {
      config = makeConfig(targets.length === 1 ? targets[0] : undefined);
    } catch (err) {
      if (targets.length > 1 && err instanceof HarnessError && err.code === 'SC_CONFIG') {
        throw new HarnessError(
          'SC_USAGE',
          `the ledger lists cases on ${targets.length} targets (${targets.join(', ')}); give --base-url for the one ` +
            `to clean up`,
        );
      }
      // The base URL came from the ledger, so "required with --base-url" would puzzle: say what is missing.
      if (
        err instanceof HarnessError &&
        err.code === 'SC_CONFIG' &&
        /^--client-id \S+ is required with/.test(err.message)
      ) {
        throw new HarnessError(
          'SC_CONFIG',
          `cleanup of ${pending.length} case(s) on ${targets.length === 1 ? targets[0] : 'the target'} needs the ` +
            `credentials the run used: give --client-id and --client-secret (or --api-key), as flags, ` +
            `SCREENCONF_* variables or in the config file`,
        );
      }
      throw err;
    }
    if (!config.baseUrl) throw new HarnessError('SC_USAGE', 'no target: give --base-url');
    const redactor = new Redactor(configSecrets(config));
    const limits = loadLimits(config, 'url');
    const transport = new Transport(
      {
        ...DEFAULT_TRANSPORT,
        timeoutMs: config.timeoutMs,
        maxResponseBytes: config.maxResponseBytes,
        concurrency: limits.concurrency,
        maxRps: limits.maxRps,
      },
      redactor,
    );
    const { baseUrl } = config;
    const clients = {
      a: organisationClient({
        baseUrl,
        credentials: { clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey },
        transport,
        organisation: 'ours',
      }),
      b: organisationClient({
        baseUrl,
        credentials: { clientId: config.peerClientId, clientSecret: config.peerClientSecret },
        transport,
        organisation: 'peer',
      }),
    };
    // Fail once, clearly, when the target is unreachable or refuses the credentials.
    if (config.clientId && config.clientSecret)
      await new TokenSource(
        config.baseUrl,
        { clientId: config.clientId, clientSecret: config.clientSecret },
        transport,
        Date.now,
        { apiKey: config.apiKey },
      ).get({ cleanup: true });
    io.out(`target ${config.baseUrl}`);
    const writers = new Map<string, Ledger>();
    const { removed, left } = await removeAll(pending, clients, (c) => {
      const key = `${c.run} ${c.baseUrl}`;
      if (!writers.has(key)) writers.set(key, new Ledger(path, c.run, c.baseUrl));
      writers.get(key)!.deleted(c.org, c.id, c.externalId);
    });
    for (const r of removed) io.out(`removed case ${r.id} (organisation ${r.org}): ${r.detail}`);
    for (const r of left) io.out(redactor.redact(`could not remove case ${r.id} (organisation ${r.org}): ${r.detail}`));
    io.out(
      `cleanup: removed ${removed.length}, could not remove ` +
        `${left.length}${left.length ? ` (${left.map((r) => r.id).join(', ')})` : ''}`,
    );
    if (left.length)
      io.err(
        `screenconf: cleanup could not remove ${left.length} case(s): ${left.map((r) => r.id).join(', ')}; see above`,
      );
    if (unconfirmed.length) reportUnconfirmed(unconfirmed, io);
    return exitForCleanup(left.length + unconfirmed.length);
  }
  if (unconfirmed.length) {
    reportUnconfirmed(unconfirmed, io);
    return exitForCleanup(unconfirmed.length);
  }
  io.out('cleanup: nothing of this ledger is left on the target');
  return exitForCleanup(0);
}

function reportUnconfirmed(unconfirmed: { externalId: string }[], io: CleanupIO): void {
  io.out(
    `${unconfirmed.length} create request(s) got no answer before the run ended: the target may hold cases with ` +
      `these external ids, with no id known to remove them by: ${unconfirmed.map((u) => u.externalId).join(', ')}`,
  );
}
