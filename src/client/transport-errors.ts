/** What went wrong in an exchange that got no complete HTTP answer, as a TransportError with a stable code. */
import { errors as undiciErrors } from 'undici';
import { TransportError } from '../errors.ts';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The connection ended by the target after the request went out, by what the client saw: a close (undici's
 * "other side closed", a body that stopped short) or a reset (a TCP RST: a process that died, a proxy that gave up on
 * the request, a body it would not read).
 */
const DROPPED: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'closed the connection',
  ERR_STREAM_PREMATURE_CLOSE: 'closed the connection',
  ECONNRESET: 'reset the connection',
  EPIPE: 'closed the connection while the request was sent',
};

/** The TransportError of an exchange that failed: a timeout, the connection dropped, the target unreachable, … */
export function describe(err: unknown, url: string, timeoutMs: number): TransportError {
  const origin = hostOf(url);
  if (err instanceof TransportError) return err;
  const name = (err as { name?: string })?.name;
  if (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.RequestAbortedError ||
    name === 'TimeoutError' ||
    name === 'AbortError'
  ) {
    return new TransportError('SC_TARGET_TIMEOUT', `no complete answer from ${origin} within ${timeoutMs} ms`, {
      cause: err,
    });
  }
  const code = (err as { code?: string })?.code ?? '';
  const plain = plainHttpError(err, url);
  if (plain) return plain;
  const dropped = DROPPED[code];
  if (dropped) {
    const message = String((err as Error)?.message ?? '').split('\n')[0];
    const detail = message && !message.includes(code) ? `${code}: ${message}` : message || code;
    return new TransportError('SC_TARGET_DROPPED', `the target ${dropped} before a complete answer (${detail})`, {
      cause: err,
    });
  }
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CLOSED'].includes(code)) {
    // Refused, or no such host: the request never left (UND_ERR_CLOSED: our own client was closed).
    const notSent = code !== 'UND_ERR_CLOSED';
    return new TransportError('SC_TARGET_UNREACHABLE', `cannot reach ${origin}: ${code}`, { cause: err, notSent });
  }
  const message = String((err as Error)?.message ?? err).split('\n')[0];
  return new TransportError('SC_TARGET_PROTOCOL', `HTTP exchange with ${origin} failed: ${message}`, { cause: err });
}

/**
 * TLS to a port that speaks plain HTTP: OpenSSL reads the server's "HTTP/1.1 400 …" as a TLS record ("wrong version
 * number", "packet length too long"). Said as what it is, with the URL to try; nothing was sent.
 */
function plainHttpError(err: unknown, url: string): TransportError | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'https:') return undefined;
  const causes = [err, (err as { cause?: unknown })?.cause];
  const tls = causes.some((e) => {
    const code = (e as { code?: string })?.code ?? '';
    const message = String((e as Error)?.message ?? '');
    return (
      code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
      code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
      code === 'ERR_SSL_HTTP_REQUEST' ||
      /wrong version number|packet length too long/i.test(message)
    );
  });
  if (!tls) return undefined;
  const http = `http://${target.host}`;
  return new TransportError(
    'SC_TARGET_PLAIN_HTTP',
    `https://${target.host} does not answer TLS: this port speaks plain HTTP; try ${http}`,
    { cause: err, notSent: true },
  );
}
