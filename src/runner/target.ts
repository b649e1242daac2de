/** Where a run sends its requests: the embedded reference server or a given base URL. */
import type { OrganisationCredentials } from '../kit/context.ts';
import { createReferenceServer } from '../reference/server.ts';
import type { Config } from './config.ts';

export interface Target {
  kind: 'embedded' | 'url';
  baseUrl: string;
  primary: OrganisationCredentials;
  peer?: OrganisationCredentials;
  close(): Promise<void>;
}

export async function openTarget(config: Config): Promise<Target> {
  if (config.baseUrl === undefined) {
    const server = await createReferenceServer({ faults: config.referenceFaults });
    const [a, b] = server.organisations;
    return {
      kind: 'embedded',
      baseUrl: server.url,
      primary: { clientId: a!.clientId, clientSecret: a!.clientSecret, apiKey: a!.apiKey },
      peer: { clientId: b!.clientId, clientSecret: b!.clientSecret, apiKey: b!.apiKey },
      close: () => server.close(),
    };
  }
  const peer = config.peerClientId ? { clientId: config.peerClientId, clientSecret: config.peerClientSecret } : undefined;
  return {
    kind: 'url',
    baseUrl: config.baseUrl,
    primary: { clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey },
    ...(peer ? { peer } : {}),
    close: async () => {},
  };
}
