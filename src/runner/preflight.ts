/** Before any suite: the target answers, and accepts the credentials. */
import { type TokenEndpointAuth, TokenSource } from '../client/auth.ts';
import type { Transport } from '../client/transport.ts';
import { HarnessError, TransportError } from '../errors.ts';
import type { Target } from './target.ts';

/** What the preflight learned: what token requests carry, and why (the status a request without the key got). */
export interface Preflight {
  tokenEndpointAuth?: TokenEndpointAuth;
  /** Set when token requests carry the API key: the status the token endpoint refused one without it with. */
  refusedWithoutHeader?: number;
}

/**
 * Fails fast, before any suite, when the target cannot be reached or refuses the credentials. With client
 * credentials, gets a token, and so finds whether the token endpoint wants the API key as a bearer header.
 */
export async function preflight(target: Target, transport: Transport): Promise<Preflight> {
  const { clientId, clientSecret, apiKey } = target.primary;
  if (clientId && clientSecret) {
    const tokens = new TokenSource(target.baseUrl, { clientId, clientSecret }, transport, Date.now, { apiKey });
    await tokens.get();
    const refused = tokens.refusedWithoutHeader;
    return {
      ...(tokens.endpointAuth ? { tokenEndpointAuth: tokens.endpointAuth } : {}),
      ...(refused !== undefined ? { refusedWithoutHeader: refused } : {}),
    };
  }
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (err) {
    if (!(err instanceof TransportError) || err.code === 'SC_TARGET_PLAIN_HTTP') throw err;
    throw new HarnessError('SC_TARGET_UNREACHABLE', `target unreachable: ${err.message}`, { cause: err });
  }
  return {};
}
