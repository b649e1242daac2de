/**
 * The embedded reference server: a correct implementation of every endpoint the interface
 * shows, plus the provisioning conventions of docs/architecture.md. State lives in memory. Switches bend
 * it on purpose: faults (faults.ts) break one requirement each, for the self-tests; variants
 * (variants.ts) make another legal choice, which a conformance run must accept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attributed, whileListening } from './attribution.ts';
import { type Behaviour, correctBehaviour, type Env } from './behaviour.ts';
import { type FaultName, faultSwitch } from './faults.ts';
import { AnswerNow, DropNow, dropAnswer, HttpError, writeAnswer } from './http.ts';
import { DEFAULT_PROCESSING, type ProcessingOptions } from './options.ts';
import { newOrganisation, type TenantCredentials } from './organisations.ts';
import { route } from './router.ts';
import { MemoryStore, type Store } from './store.ts';
import { compose, conflict } from './switches.ts';
import { Timers } from './timers.ts';
import { TokenStore } from './tokens.ts';
import { buildRules, type RequestRules } from './validation.ts';
import { type VariantName, variantSwitch } from './variants.ts';

export type { TenantCredentials } from './organisations.ts';
export type { ProcessingOptions } from './options.ts';

export interface ReferenceServerOptions {
  port?: number;
  host?: string;
  faults?: Iterable<FaultName>;
  /** Legal choices other than the default ones; alternatives of one group exclude each other. */
  variants?: Iterable<VariantName>;
  processing?: Partial<ProcessingOptions>;
  /** Lifetime of an access token, in seconds (a variant may choose another). */
  tokenTtlSeconds?: number;
  organisations?: TenantCredentials[];
}

export interface ReferenceServer {
  readonly url: string;
  readonly organisations: readonly TenantCredentials[];
  readonly store: Store;
  close(): Promise<void>;
}

/** The state and behaviour of one server: variants first, then faults, each in the order given. */
function createEnv(options: ReferenceServerOptions): Env {
  const switches = [...new Set(options.variants)].map(variantSwitch);
  const problem = conflict(switches);
  if (problem) throw new Error(`reference server variants: ${problem}`);
  switches.push(...[...new Set(options.faults)].map(faultSwitch));
  let b: Behaviour | undefined;
  let rules: RequestRules | undefined;
  const env: Env = {
    organisations: options.organisations ?? [newOrganisation('org-1'), newOrganisation('org-2')],
    store: new MemoryStore((last) => env.b.idAfter(last)),
    tokens: new TokenStore(),
    timers: new Timers(),
    options: {
      processing: { ...DEFAULT_PROCESSING, ...options.processing },
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    },
    get b() {
      if (!b) throw new Error('reference server: behaviour read before every switch was applied');
      return b;
    },
    get rules() {
      rules ??= buildRules(this.b);
      return rules;
    },
  };
  b = compose(correctBehaviour(env), switches, env);
  return env;
}

/** Starts a reference server; it listens until close(). */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const env = createEnv(options);
  const server: Server = createServer((req, res) => {
    // Identifies the software, as servers commonly do (the report lists it under the target).
    res.setHeader('server', 'screenconf-reference');
    // Stryker disable next-line all: Connection: close is a legal choice (variant http.connection-close), no defect
    if (env.b.closeAfterAnswer) res.setHeader('connection', 'close');
    const contentType = (mediaType: string) => env.b.contentType(mediaType);
    // Stryker disable next-line all: which check a request came from is for the mutation campaign's coverage only
    attributed(req.headers, () => route(env, req))
      .then((answer) => writeAnswer(res, answer, contentType))
      .catch((err: unknown) => {
        if (res.headersSent) return res.destroy();
        // Stryker disable next-line all: only the fault switches throw DropNow; the correct server never does
        if (err instanceof DropNow) return dropAnswer(res, err.how);
        if (err instanceof AnswerNow) return writeAnswer(res, err.answer, contentType);
        if (err instanceof HttpError) return writeAnswer(res, env.b.errorAnswer(err), contentType);
        // A defect in the reference server: say so without leaking internals.
        writeAnswer(
          res,
          { status: 500, body: { error: 'server_error', detail: 'internal error in the reference server' } },
          contentType,
        );
        process.emitWarning(`reference server: ${(err as Error)?.stack ?? String(err)}`);
      });
  });
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  // Stryker disable next-line all: how the mutation campaign ends a crashed server, which no client sees
  const forget = whileListening(server, () => env.timers.close());
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    organisations: env.organisations,
    store: env.store,
    async close() {
      // Stryker disable next-line all: the campaign's registry of live servers
      forget();
      env.timers.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
