/**
 * What the runner hands to the suites (with vitest's provide/inject), and the clients built
 * from it once per worker.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inject } from 'vitest';
import { ApiClient, type Credentials, organisationClient } from '../client/api.ts';
import type { TokenEndpointAuth } from '../client/auth.ts';
import { Redactor } from '../base/redact.ts';
import { type OutgoingRequest, type ReceivedResponse, Transport, type TransportOptions } from '../client/transport.ts';
import { Provisioner } from '../provision/provisioner.ts';
import type { Exchange, OrganisationRole } from '../results/exchange.ts';
import type { ExchangeTag } from '../results/exchange-log.ts';
import { idsCreated, idsNamed, oldestFirst, type PropertyEvidence } from '../results/evidence.ts';
import { ServerHeaders } from '../results/server-headers.ts';
import { HarnessError } from '../errors.ts';
import { resumeSending } from '../client/stopping.ts';
import type { Id, UserRequirement } from '../spec/index.ts';
import { logExchange } from './exchange-log.ts';
import { InvariantWatcher } from './invariants.ts';
import { ATTRIBUTION_HEADER, attributionOf } from '../base/attribution.ts';

/** The exchanges a check keeps, newest last. */
const KEPT_PER_CHECK = 400;
export interface RunContext {
  runId: string;
  seed: number;
  runs: number;
  target: {
    baseUrl: string;
    /** "embedded" when the run started its own reference server. */
    kind: 'embedded' | 'url';
    primary: Credentials;
    peer?: Credentials;
    /**
     * What token requests carry besides their body, as the preflight found it: the API key as a bearer header
     * where the token endpoint refused a request without one (interface § Authentication 3), else nothing.
     */
    tokenEndpointAuth?: TokenEndpointAuth;
  };
  transport: TransportOptions;
  /** Where bulk responses list failed items, when the harness cannot recognise the shape. */
  bulkFailuresPath?: string;
  /** --credential-guesses: at most this many near-miss credentials are sent (absent: every one). */
  credentialGuesses?: number;
  webhooks: {
    host: string;
    port: number;
    publicUrl?: string;
    timeoutMs: number;
    /** The shortest time a delivery that must not come is watched for (the run chooses it by its target). */
    quietMinMs: number;
  };
  /** The run ledger: every case is recorded there before it is created (absent in unit tests). */
  ledgerPath?: string;
  /** --keep: leave what the run creates on the target. */
  keep?: boolean;
  /** --provisioner: an absolute path to the provisioning adapter module. */
  provisioner?: string;
  /** --only: the requirement ids whose checks run; the other checks are registered skipped. */
  only?: string[];
  /** How long a failing property may shrink against the target: time and requests (--shrink-*). */
  shrink?: ShrinkBudget;
  /** How long a started case may take to complete while a check polls it (--processing-timeout-ms). */
  processingTimeoutMs?: number;
  /**
   * The run's private folder its worker processes share: access tokens (client/token-share.ts)
   * and the cases the suite files share (kit/shared-pool.ts). Removed at the run's end.
   */
  shareDir?: string;
  /** The run's exchange log (JSON lines): every exchange is appended, tagged with its check (exchange-log.ts). */
  exchangeLog?: string;
  /** --shard I/N --shard-by runs: this shard runs its share of each property's cases, on seeds of its own. */
  runsShard?: { index: number; count: number };
  /** --duration: the round of the suites (2, 3, …): each round's properties run on seeds of their own. */
  round?: number;
  /**
   * One per run of the suite files (runner/suites.ts): a worker process kept warm between runs holds the state of
   * one run at a time, and knows a new run by it.
   */
  invocation?: string;
  /** --suites-dir: the user's own requirements, which their checks name beside screenconf's. */
  userCatalogue?: UserRequirement[];
  /**
   * `screenconf replay`: the run's failed checks run again (only they are selected), each replaying what its run
   * recorded: a property's shrunk counterexample, instead of exploring again.
   */
  replay?: { checks: ReplayedCheck[] };
}

/** A failed check of a run, as `screenconf replay` runs it again. */
export interface ReplayedCheck {
  /** Its suite file's name (suites/<suite>.test.ts, or the user's). */
  suite: string;
  /** Its full name (`describe > test`). */
  name: string;
  /** The counterexample its property failed on in the run. */
  property?: PropertyEvidence;
}

/** What a failing property may spend shrinking its counterexample against a live target. */
export interface ShrinkBudget {
  timeMs: number;
  requests: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    screenconf: RunContext;
  }
}

export interface Organisation {
  api: ApiClient;
  provision: Provisioner;
  credentials: Credentials;
}

export interface Harness {
  run: RunContext;
  redactor: Redactor;
  primary: Organisation;
  peer?: Organisation;
  /** Exchanges recorded: in a check, its own (check() gives each its list); elsewhere, the worker's. */
  exchanges: Exchange[];
  /** Judges every case body received, for the READ-* invariants (taken at the end of each file). */
  watcher: InvariantWatcher;
  /** Server identification headers seen in responses (taken at the end of each file, for the report). */
  serverHeaders: ServerHeaders;
  /** Requests this worker has sent (a property's shrink budget counts them). */
  stats: { requests: number };
}

/**
 * A Transport that also shows every answer, parsed and unredacted, to the invariant watcher; toward the run's own
 * embedded server, each request names the check that sends it (reference/attribution.ts: the mutation campaign
 * learns which checks execute which of the server's code), kept out of every record.
 */
class WatchedTransport extends Transport {
  constructor(
    options: TransportOptions,
    redactor: Redactor,
    record: (exchange: Exchange) => void,
    private readonly watcher: InvariantWatcher,
    private readonly embedded: boolean,
  ) {
    super(options, redactor, record);
  }

  protected override unrecordedHeaders(): Record<string, string> | undefined {
    if (!this.embedded) return undefined;
    const tag = checkScope.getStore()?.tag;
    const suite = tag?.suite ?? suiteFile;
    if (suite === undefined) return undefined;
    return { [ATTRIBUTION_HEADER]: encodeURIComponent(attributionOf(suite, tag?.check)) };
  }

  protected override renewalTag(): { suite?: string; check?: string } {
    const tag = checkScope.getStore()?.tag;
    const suite = tag?.suite ?? suiteFile;
    return { ...(suite !== undefined ? { suite } : {}), ...(tag?.check !== undefined ? { check: tag.check } : {}) };
  }

  override async send(req: OutgoingRequest): Promise<ReceivedResponse> {
    const res = await super.send(req);
    this.watcher.observe(req, res);
    return res;
  }
}

let harness: Harness | undefined;

/** The suite file this worker runs (set before its checks: kit/setup.ts). */
let suiteFile: string | undefined;

/** The suite file this worker runs from now on: its work outside a check is attributed to it. */
export function enterSuiteFile(suite: string): void {
  suiteFile = suite;
}

/**
 * The exchanges of the check whose code is running: checks of a file may run concurrently (the
 * webhook suite waits for deliveries side by side), so each records into a list of its own.
 */
const checkScope = new AsyncLocalStorage<CheckScope>();

/** What one check's requests are recorded into. */
export interface CheckScope {
  exchanges: Exchange[];
  requests: number;
  /** What the check's exchanges are tagged with in the run's exchange log. */
  tag?: ExchangeTag;
}

/** Runs a check's code with its own scope: its requests are recorded there. */
export function runInCheck<T>(scope: CheckScope, fn: () => Promise<T>): Promise<T> {
  return checkScope.run(scope, fn);
}

/**
 * A property of the running check runs its predicate once more (on a generated value, or its counterexample again):
 * what the check sends next is tagged with the property and that run's number in the attempt, so a replay can tell
 * the runs of the exchange log apart.
 */
export function nextPropertyRun(property: string): void {
  const scope = checkScope.getStore();
  if (scope?.tag) scope.tag = { ...scope.tag, property, pass: (scope.tag.pass ?? 0) + 1 };
}

/**
 * The exchange that created each id in this worker. Checks of a file share cases where the verdict
 * cannot depend on a fresh one, so what a check judges may have been created in another check's
 * transcript: a failure's setup (and its reproduction script) still needs that creation.
 */
const creations = new Map<Id, Exchange>();
/** The newest creations kept: a long campaign (--duration) creates cases without end. */
const CREATIONS_KEPT = 2_000;

/**
 * The creations of the ids `exchanges` name that none of them created (made by another check of
 * the worker), oldest first: the setup a check's own transcript lacks.
 */
export function creationsElsewhere(exchanges: readonly Exchange[]): Exchange[] {
  const made = new Set(exchanges.flatMap(idsCreated));
  const found = new Set<Exchange>();
  for (const id of exchanges.flatMap(idsNamed)) {
    const e = creations.get(id);
    if (e && !made.has(id) && !exchanges.includes(e)) found.add(e);
  }
  return oldestFirst(found);
}

/** The list each exchange was recorded into: the transcript of the check that sent it (or the worker's). */
const transcripts = new WeakMap<Exchange, Exchange[]>();

/**
 * What the check that sent `e` sent before it (as far as it is still kept): the setup of a body
 * another check of the worker made and this one judges (a PATCH before a read made once for two checks).
 */
export function sentBefore(e: Exchange): Exchange[] {
  const list = transcripts.get(e);
  const at = list?.indexOf(e) ?? -1;
  return at > 0 ? list!.slice(0, at) : [];
}

/** The exchange that created `id` in this worker, if it is still kept. */
export function creationOf(id: Id): Exchange | undefined {
  return creations.get(id);
}

/**
 * Creations made in another worker process (cases the run's suite files share,
 * kit/shared-pool.ts), known here as if made here: a failure judged on them keeps its setup.
 */
export function adoptCreations(exchanges: readonly Exchange[]): void {
  for (const e of exchanges) for (const id of idsCreated(e)) if (!creations.has(id)) creations.set(id, e);
}

/** The ledger's label of each organisation: a (ours) and b (the peer). */
const LEDGER_LABEL: Record<OrganisationRole, string> = { ours: 'a', peer: 'b' };

function organisation(
  run: RunContext,
  credentials: Credentials,
  transport: Transport,
  role: OrganisationRole,
): Organisation {
  const label = LEDGER_LABEL[role];
  const baseUrl = run.target.baseUrl;
  // Without any credential the client still exists: the auth checks send requests with none.
  const api =
    organisationClient({
      baseUrl,
      credentials,
      transport,
      organisation: role,
      shareDir: run.shareDir,
      tokenEndpointAuth: run.target.tokenEndpointAuth,
    }) ?? new ApiClient({ baseUrl, transport, organisation: role });
  return {
    api,
    credentials,
    provision: new Provisioner(api, `screenconf-${run.runId}-${label}-`, {
      org: label,
      runId: run.runId,
      ledgerPath: run.ledgerPath,
      keep: run.keep,
      adapterFile: run.provisioner,
    }),
  };
}

/** The run's harness in this worker: context, clients and the transcript of the current test. */
export function getHarness(): Harness {
  const run = inject('screenconf');
  if (!run) throw new HarnessError('SC_USAGE', 'the suites run under `screenconf run`, which provides the target');
  // A warm worker serves run after run (runner/warm-pool.ts): what this module holds belongs to one of them.
  if (harness && harness.run.invocation === run.invocation) return harness;
  creations.clear();
  resumeSending();
  const redactor = new Redactor([
    run.target.primary.clientSecret,
    run.target.primary.apiKey,
    run.target.peer?.clientSecret,
    run.target.peer?.apiKey,
  ]);
  // Outside a check (hooks, setup); a check records into its own list (runInCheck).
  const exchanges: Exchange[] = [];
  const watcher = new InvariantWatcher(redactor, run.target.baseUrl, run.shareDir);
  const serverHeaders = new ServerHeaders();
  const stats = { requests: 0 };
  const record = (e: Exchange) => {
    stats.requests += 1;
    serverHeaders.observe(e.response?.headers);
    const scope = checkScope.getStore();
    if (scope) scope.requests += 1;
    logExchange(run.exchangeLog, scope?.tag, e);
    for (const id of idsCreated(e)) {
      creations.set(id, e);
      if (creations.size > CREATIONS_KEPT) creations.delete(creations.keys().next().value!);
    }
    const list = scope?.exchanges ?? exchanges;
    transcripts.set(e, list);
    list.push(e);
    // A check keeps enough for the setup of what it judges (a 100-item batch: its cases and reads).
    if (list.length > KEPT_PER_CHECK) list.shift();
  };
  const transport = new WatchedTransport(run.transport, redactor, record, watcher, run.target.kind === 'embedded');
  harness = {
    run,
    redactor,
    exchanges,
    watcher,
    serverHeaders,
    stats,
    primary: organisation(run, run.target.primary, transport, 'ours'),
    ...(run.target.peer ? { peer: organisation(run, run.target.peer, transport, 'peer') } : {}),
  };
  return harness;
}
