/**
 * A curl command that reproduces a recorded exchange, with secrets replaced by environment
 * variables (the recorded exchange is already redacted; nothing secret reaches this code).
 */
import { REDACTED } from '../base/redact.ts';
import type { Exchange } from '../results/exchange.ts';

export const ENV = {
  baseUrl: 'SCREENCONF_BASE_URL',
  accessToken: 'SCREENCONF_ACCESS_TOKEN',
  peerAccessToken: 'SCREENCONF_PEER_ACCESS_TOKEN',
  apiKey: 'SCREENCONF_API_KEY',
  peerApiKey: 'SCREENCONF_PEER_API_KEY',
  clientSecret: 'SCREENCONF_CLIENT_SECRET',
} as const;

/** Quotes for a POSIX shell, splicing `$VAR` in where the redaction placeholder stands. */
function shellQuote(text: string, variable: string): string {
  return text
    .split(REDACTED)
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(`"$${variable}"`)
    .replace(/^''(?=")/, '')
    .replace(/(?<=")''$/, '');
}

export function toCurl(exchange: Exchange, baseUrl: string): string {
  const { request } = exchange;
  const url = request.url.startsWith(baseUrl)
    ? `"$${ENV.baseUrl}"${shellQuote(request.url.slice(baseUrl.length), ENV.baseUrl)}`
    : shellQuote(request.url, ENV.baseUrl);
  const parts = ['curl', '-sS', '-i', '-X', request.method, url];
  // The peer organisation's credential is its own variable: a reproduction must not send ours in its place.
  const peer = request.organisation === 'peer';
  const secretVar =
    request.credential === 'api-key'
      ? peer
        ? ENV.peerApiKey
        : ENV.apiKey
      : peer
        ? ENV.peerAccessToken
        : ENV.accessToken;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    parts.push('-H', shellQuote(`${name}: ${value}`, secretVar));
  }
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body, ENV.clientSecret));
  return parts.join(' ');
}
