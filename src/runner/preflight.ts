/** Before any suite: the target answers, and accepts the credentials. */
import { TokenSource } from '../client/auth.ts';
import type { Transport } from '../client/transport.ts';
import { HarnessError, TransportError } from '../errors.ts';
import type { Target } from './target.ts';

/** Fails fast, before any suite, when the target cannot be reached or refuses the credentials. */
export async function preflight(target: Target, transport: Transport): Promise<void> {
  const { clientId, clientSecret } = target.primary;
  if (clientId && clientSecret) {
    await new TokenSource(target.baseUrl, { clientId, clientSecret }, transport).get();
    return;
  }
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (err) {
    if (!(err instanceof TransportError) || err.code === 'SC_TARGET_PLAIN_HTTP') throw err;
    throw new HarnessError('SC_TARGET_UNREACHABLE', `target unreachable: ${err.message}`, { cause: err });
  }
}
