/**
 * A target started from a container image (--target-image), with testcontainers: any engine with
 * a Docker-compatible API (Docker, or podman's `podman system service`; DOCKER_HOST names it).
 * The container is ready when its port answers HTTP (any status); the run then targets
 * http://<host>:<mapped port>. Every container carries the label screenconf.run=<token>, and
 * whatever holds that label is removed at the end: after the run, after a failed start, and
 * when a signal or the run deadline stops the run while the container is starting.
 * Loaded only for a run with --target-image (testcontainers is large).
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type Dockerode from 'dockerode';
import {
  GenericContainer,
  getContainerRuntimeClient,
  ImageName,
  type BoundPorts,
  type WaitStrategy,
} from 'testcontainers';
import { HarnessError } from '../errors.ts';
import { isLoopbackHost } from '../base/net.ts';

/** Labels on every container screenconf starts: `docker ps -a --filter label=screenconf.target` lists them. */
export const CONTAINER_LABEL = 'screenconf.target';
export const RUN_LABEL = 'screenconf.run';
export const DEFAULT_TARGET_PORT = 8080;
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
/** How long a stopped start gets to settle before removal goes ahead regardless. */
const SETTLE_MS = 30_000;
/** Between two readiness probes; and the longest a probe waits for an answer. */
const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 2_000;

export interface ContainerTargetOptions {
  image: string;
  /** The port the image serves HTTP on, inside the container. */
  port?: number;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** Refuse a host that is not loopback (credentials would cross the network over plain HTTP). */
  loopbackOnly?: boolean;
  /** Settles when the run is asked to stop (a signal, the deadline): the start is abandoned. */
  stopped?: Promise<unknown>;
}

export interface ContainerTarget {
  baseUrl: string;
  id: string;
  /** Stops and removes the container; resolves with a problem to report, if removal failed. */
  remove(): Promise<string | undefined>;
}

const HOW_TO_ENGINE =
  'start Docker, or podman\'s API service ("podman system service --time=0 unix:///run/podman/podman.sock") and set ' +
  'DOCKER_HOST=unix:///run/podman/podman.sock; see "Running against a container image" in docs/running.md';

function firstLine(err: unknown): string {
  const text = ((err as Error)?.message ?? String(err)).trim();
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.length > 240 ? `${line.slice(0, 240)}…` : line;
}

/** DOCKER_HOST as it can be shown (no user:password). */
function engineName(env: NodeJS.ProcessEnv): string {
  const host = env.DOCKER_HOST;
  return host ? `DOCKER_HOST=${host.replace(/\/\/[^/@]*@/, '//')}` : 'DOCKER_HOST is not set';
}

function containerError(message: string): HarnessError {
  return new HarnessError('SC_CONTAINER', message);
}

const stoppedError = () =>
  new HarnessError(
    'SC_INTERRUPTED',
    'the run was stopped while the target container was starting; the container was removed',
  );

/** Why a container was not ready: it exited, it did not answer in time, or the run stopped. */
class NotReady extends Error {
  constructor(
    readonly why: 'exited' | 'timeout' | 'stopped',
    readonly exitCode?: number,
  ) {
    super(`container not ready: ${why}`);
  }
}

/** Does anything answer HTTP at host:port? Any status counts; a refused or reset connection does not. */
function answersHttp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: '/', method: 'GET', timeout: PROBE_TIMEOUT_MS, agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/**
 * Ready when the mapped port answers HTTP; fails at once when the container exits, when the run
 * stops, or after the startup timeout. (testcontainers then stops and removes the container.)
 */
class HttpAnswerStrategy implements WaitStrategy {
  #startupTimeoutMs = DEFAULT_READY_TIMEOUT_MS;
  #startupTimeoutSet = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly isStopped: () => boolean,
  ) {}

  withStartupTimeout(ms: number): this {
    this.#startupTimeoutMs = ms;
    this.#startupTimeoutSet = true;
    return this;
  }

  isStartupTimeoutSet(): boolean {
    return this.#startupTimeoutSet;
  }

  getStartupTimeout(): number {
    return this.#startupTimeoutMs;
  }

  async waitUntilReady(container: Dockerode.Container, boundPorts: BoundPorts): Promise<void> {
    const mapped = boundPorts.getBinding(this.port);
    const deadline = Date.now() + this.#startupTimeoutMs;
    for (;;) {
      if (this.isStopped()) throw new NotReady('stopped');
      const state = (await container.inspect()).State;
      if (!state.Running) throw new NotReady('exited', state.ExitCode);
      if (await answersHttp(this.host, mapped)) return;
      if (Date.now() >= deadline) throw new NotReady('timeout');
      await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS));
    }
  }
}

/** Starts a container of the image and waits until its port answers HTTP. */
export async function startContainerTarget(options: ContainerTargetOptions): Promise<ContainerTarget> {
  const port = options.port ?? DEFAULT_TARGET_PORT;
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const { image } = options;
  let stopped = false;
  void options.stopped?.then(() => (stopped = true));

  // 1. The engine. testcontainers tries DOCKER_HOST, ~/.testcontainers.properties, then the usual sockets.
  let client: Awaited<ReturnType<typeof getContainerRuntimeClient>>;
  try {
    client = await abortable(getContainerRuntimeClient(), options.stopped);
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    throw containerError(`no container engine answers (${engineName(process.env)}): ${HOW_TO_ENGINE}`);
  }
  const host = client.info.containerRuntime.host;
  if (options.loopbackOnly && !isLoopbackHost(host)) {
    throw new HarnessError(
      'SC_INSECURE_TRANSPORT',
      `the container engine publishes ports on ${host}, which is not this machine: the credentials would cross the ` +
        `network over plain http://. Set TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 when the ports are reachable ` +
        `there, or pass --allow-insecure-http to accept that`,
    );
  }

  // 2. The image: used as it is when the engine has it, else pulled (never a localhost/ one: it is built here).
  await abortable(ensureImage(client, image), options.stopped);

  // 3. The container, labelled so that whatever happens it can be found and removed.
  const token = randomBytes(8).toString('hex');
  const dockerode = client.container.dockerode;
  const removeLabelled = async (): Promise<string | undefined> => {
    try {
      const found = await dockerode.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${token}`] } });
      for (const c of found) await dockerode.getContainer(c.Id).remove({ force: true, v: true });
      return undefined;
    } catch (err) {
      return (
        `could not remove the target container: ${firstLine(err)}; remove it with: docker rm -f $(docker ps ` +
        `-aq --filter label=${RUN_LABEL}=${token})`
      );
    }
  };
  const starting = new GenericContainer(image)
    .withExposedPorts(port)
    .withEnvironment(options.env ?? {})
    .withLabels({ [CONTAINER_LABEL]: 'true', [RUN_LABEL]: token })
    .withWaitStrategy(new HttpAnswerStrategy(host, port, () => stopped))
    .withStartupTimeout(readyTimeoutMs)
    .start();
  let started: Awaited<typeof starting>;
  try {
    started = await abortable(starting, options.stopped);
  } catch (err) {
    if (err instanceof HarnessError || (err instanceof NotReady && err.why === 'stopped')) {
      // Stopped while starting: the wait fails at its next probe and testcontainers removes the
      // container; the start gets a bounded time to settle, then whatever is left is removed.
      await Promise.race([
        starting.then((c) => c.stop({ remove: true })).catch(() => {}),
        new Promise((r) => setTimeout(r, SETTLE_MS).unref()),
      ]);
      const left = await removeLabelled();
      throw left
        ? new HarnessError(
            'SC_INTERRUPTED',
            `${stoppedError().message.replace(/; the container was removed$/, '')}; ${left}`,
          )
        : stoppedError();
    }
    const left = await removeLabelled();
    const why =
      err instanceof NotReady && err.why === 'exited'
        ? `the container of ${image} exited (status ${err.exitCode ?? 'unknown'}) before it answered HTTP on port ` +
          `${port}; run the image by hand to see its output (docker run --rm -p ${port}:${port} ${image})`
        : err instanceof NotReady
          ? `the container of ${image} did not answer HTTP on port ${port} within ${readyTimeoutMs} ms ` +
            `(--target-ready-timeout-ms); is ${port} the port it listens on (--target-port), on all addresses ` +
            `(0.0.0.0)?`
          : /ports to be bound/i.test(firstLine(err))
            ? `the container engine did not publish port ${port} of the container of ${image}; is ${port} the port ` +
              `it serves HTTP on (--target-port)?`
            : `could not start a container of ${image}: ${firstLine(err)}`;
    throw containerError(left ? `${why}; ${left}` : why);
  }

  const mapped = started.getMappedPort(port);
  let removed: Promise<string | undefined> | undefined;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${mapped}`,
    id: started.getId(),
    remove() {
      removed ??= (async () => {
        let problem: string | undefined;
        try {
          await started.stop({ remove: true, timeout: 5_000 });
        } catch (err) {
          problem = `stopping the target container ${started.getId().slice(0, 12)}: ${firstLine(err)}`;
        }
        return (await removeLabelled()) ?? problem;
      })();
      return removed;
    },
  };
}

/** The image on the engine: there already, or pulled; SC_CONTAINER when neither. */
async function ensureImage(
  client: Awaited<ReturnType<typeof getContainerRuntimeClient>>,
  image: string,
): Promise<void> {
  let name: ImageName;
  try {
    name = ImageName.fromString(image);
  } catch (err) {
    throw containerError(`--target-image ${image} is not an image name: ${firstLine(err)}`);
  }
  const missing = (why: string) =>
    containerError(
      `image ${image} is not on the container engine (${engineName(process.env)}) ${why} ` +
        `(scripts/build-reference-image.sh builds localhost/screenconf-reference)`,
    );
  try {
    if (await client.image.exists(name)) return;
  } catch (err) {
    throw containerError(
      `the container engine (${engineName(process.env)}) cannot look up image ${image}: ${firstLine(err)}`,
    );
  }
  if (name.registry === 'localhost')
    throw missing('and a localhost/ image is built there, never pulled: build it first');
  const dockerode = client.container.dockerode;
  try {
    const stream = await dockerode.pull(name.string);
    // An engine may report a failed pull inside the progress stream rather than as an error.
    await new Promise<void>((resolve, reject) =>
      dockerode.modem.followProgress(stream, (err: Error | null, events: { error?: string }[] = []) => {
        const failed = events.find((e) => typeof e?.error === 'string')?.error;
        if (err || failed) reject(err ?? new Error(failed));
        else resolve();
      }),
    );
  } catch (err) {
    throw missing(`and pulling it failed: ${firstLine(err)}; pull or build it first`);
  }
  if (!(await client.image.exists(name).catch(() => false)))
    throw missing('and pulling it brought nothing: pull or build it first');
}

/** The promise, unless the run is asked to stop first: then SC_INTERRUPTED. */
async function abortable<T>(promise: Promise<T>, stopped: Promise<unknown> | undefined): Promise<T> {
  if (!stopped) return promise;
  return Promise.race([promise, stopped.then(() => Promise.reject(stoppedError()))]);
}
