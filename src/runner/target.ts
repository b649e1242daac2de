/** Where a run sends its requests: the embedded reference server, a given base URL, or a container it starts. */
import type { Credentials } from '../client/api.ts';
import { HarnessError } from '../errors.ts';
import { peerRange } from '../version.ts';
import { createReferenceServer } from '../reference/server.ts';
import type { Config } from './config.ts';

export interface Target {
  kind: 'embedded' | 'url';
  baseUrl: string;
  primary: Credentials;
  peer?: Credentials;
  /** The shortest time a delivery that must not come is watched for (the webhooks suite): see QUIET_MIN_MS. */
  quietMinMs: number;
  /** How long a delivery is waited for, unless --webhook-timeout-ms says: see WEBHOOK_TIMEOUT_MS. */
  webhookTimeoutMs: number;
  /** The image the target was started from (--target-image); the run removes its container on close. */
  image?: string;
  close(): Promise<void>;
}

export interface OpenTargetOptions {
  /** Settles when the run is asked to stop: a container still starting is abandoned and removed. */
  stopped?: Promise<unknown>;
  /** Where a problem removing the container is reported. */
  log?: (line: string) => void;
}

/**
 * How the embedded reference server processes cases and retries webhooks: the run chooses it against its own
 * server (screenconf serve keeps the slower defaults of options.ts, closer to a real service). A step of 10 ms
 * completes a case in about a tenth of a second; a failed delivery is tried again 100 ms and then 300 ms later.
 */
const EMBEDDED_PROCESSING = { stepMs: 10, retryDelaysMs: [100, 300] } as const;

/**
 * A delivery that must not come (a second one, one at a former URL) is watched for twice the first delivery's
 * latency, and at least this long: a target the run did not start could send it any time (a second), the embedded
 * server within its first retry delay (100 ms): four times that leaves a loaded machine its slack.
 */
const QUIET_MIN_MS = { url: 1_000, embedded: 4 * EMBEDDED_PROCESSING.retryDelaysMs[0] } as const;

/**
 * How long a delivery is waited for by default: a target the run did not start, 15 s; the embedded server, whose
 * cases complete in about a tenth of a second and whose slowest legal delivery (the variant webhook.slow) comes 3 s
 * after, 8 s, which leaves a loaded machine its slack. A wait that ends at this deadline is one for a delivery that
 * never comes: only a faulty server's run pays it.
 */
const WEBHOOK_TIMEOUT_MS = { url: 15_000, embedded: 8_000 } as const;

export async function openTarget(config: Config, options: OpenTargetOptions = {}): Promise<Target> {
  if (config.baseUrl === undefined && config.targetImage === undefined) {
    const server = await createReferenceServer({
      faults: config.referenceFaults,
      variants: config.referenceVariants,
      processing: EMBEDDED_PROCESSING,
    });
    const [a, b] = server.organisations;
    return {
      kind: 'embedded',
      quietMinMs: QUIET_MIN_MS.embedded,
      webhookTimeoutMs: WEBHOOK_TIMEOUT_MS.embedded,
      baseUrl: server.url,
      primary: { clientId: a!.clientId, clientSecret: a!.clientSecret, apiKey: a!.apiKey },
      peer: { clientId: b!.clientId, clientSecret: b!.clientSecret, apiKey: b!.apiKey },
      close: () => server.close(),
    };
  }
  const peer = config.peerClientId
    ? { clientId: config.peerClientId, clientSecret: config.peerClientSecret }
    : undefined;
  if (config.targetImage !== undefined) {
    const { startContainerTarget } = await loadContainerSupport();
    const credentials =
      config.clientSecret !== undefined || config.apiKey !== undefined || config.peerClientSecret !== undefined;
    const container = await startContainerTarget({
      image: config.targetImage,
      ...(config.targetPort !== undefined ? { port: config.targetPort } : {}),
      ...(config.targetEnv !== undefined ? { env: config.targetEnv } : {}),
      ...(config.targetReadyTimeoutMs !== undefined ? { readyTimeoutMs: config.targetReadyTimeoutMs } : {}),
      loopbackOnly: credentials && !config.allowInsecureHttp,
      ...(options.stopped ? { stopped: options.stopped } : {}),
    });
    return {
      kind: 'url',
      quietMinMs: QUIET_MIN_MS.url,
      webhookTimeoutMs: WEBHOOK_TIMEOUT_MS.url,
      baseUrl: container.baseUrl,
      image: config.targetImage,
      primary: { clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey },
      ...(peer ? { peer } : {}),
      close: async () => {
        const problem = await container.remove();
        if (problem) options.log?.(`screenconf: ${problem}`);
      },
    };
  }
  return {
    kind: 'url',
    quietMinMs: QUIET_MIN_MS.url,
    webhookTimeoutMs: WEBHOOK_TIMEOUT_MS.url,
    baseUrl: config.baseUrl!,
    primary: { clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey },
    ...(peer ? { peer } : {}),
    close: async () => {},
  };
}

/**
 * The container target, loaded only for --target-image: it needs testcontainers, an optional
 * dependency that not every installation has.
 */
async function loadContainerSupport(): Promise<typeof import('./container.ts')> {
  try {
    return await import('./container.ts');
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes("'testcontainers'")) throw err;
    throw new HarnessError(
      'SC_CONTAINER_SUPPORT',
      '--target-image starts the container with testcontainers, an optional peer dependency of screenconf that ' +
        `is not installed here: "npm install --save-dev testcontainers@${peerRange('testcontainers') ?? 'latest'}" ` +
        'beside screenconf, then run again (or give --base-url)',
    );
  }
}
