/**
 * What the runner hands to the suites (with vitest's provide/inject), and the clients built
 * from it once per worker.
 */
import { inject } from 'vitest';
import { ApiClient } from '../client/api.ts';
import { TokenSource } from '../client/auth.ts';
import { Redactor } from '../client/redact.ts';
import { Transport, type Exchange, type TransportOptions } from '../client/transport.ts';
import { Provisioner } from '../provision/provisioner.ts';

export interface OrganisationCredentials {
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
}

export interface RunContext {
  runId: string;
  seed: number;
  runs: number;
  target: {
    baseUrl: string;
    /** "embedded" when the run started its own reference server. */
    kind: 'embedded' | 'url';
    primary: OrganisationCredentials;
    peer?: OrganisationCredentials;
  };
  transport: TransportOptions;
  /** Where bulk responses list failed items, when the harness cannot recognise the shape. */
  bulkFailuresPath?: string;
  webhooks: { host: string; port: number; publicUrl?: string; timeoutMs: number };
}

declare module 'vitest' {
  export interface ProvidedContext {
    screenconf: RunContext;
  }
}

export interface Organisation {
  api: ApiClient;
  provision: Provisioner;
  credentials: OrganisationCredentials;
}

export interface Harness {
  run: RunContext;
  redactor: Redactor;
  primary: Organisation;
  peer?: Organisation;
  /** Exchanges recorded since the current test began (reset by check()). */
  exchanges: Exchange[];
}

let harness: Harness | undefined;

function organisation(run: RunContext, credentials: OrganisationCredentials, transport: Transport, label: string): Organisation {
  const tokens =
    credentials.clientId && credentials.clientSecret
      ? new TokenSource(run.target.baseUrl, { clientId: credentials.clientId, clientSecret: credentials.clientSecret }, transport)
      : undefined;
  const api = new ApiClient(run.target.baseUrl, transport, tokens, credentials.apiKey);
  return { api, credentials, provision: new Provisioner(api, `screenconf-${run.runId}-${label}-`) };
}

/** The run's harness in this worker: context, clients and the transcript of the current test. */
export function getHarness(): Harness {
  if (harness) return harness;
  const run = inject('screenconf');
  if (!run) throw new Error('screenconf: suites run under `screenconf run`, which provides the target');
  const redactor = new Redactor([
    run.target.primary.clientSecret,
    run.target.primary.apiKey,
    run.target.peer?.clientSecret,
    run.target.peer?.apiKey,
  ]);
  const exchanges: Exchange[] = [];
  const transport = new Transport(run.transport, redactor, (e) => {
    exchanges.push(e);
    if (exchanges.length > 50) exchanges.shift();
  });
  harness = {
    run,
    redactor,
    exchanges,
    primary: organisation(run, run.target.primary, transport, 'a'),
    ...(run.target.peer ? { peer: organisation(run, run.target.peer, transport, 'b') } : {}),
  };
  return harness;
}
