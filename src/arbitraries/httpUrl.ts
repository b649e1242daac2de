import fc from 'fast-check';
import { LIMITS } from '../spec/index.ts';
import { checkInteger, checkKeys } from './constraints.ts';
import { seeded } from './faker.ts';

export interface HttpUrlConstraints {
  /** Most characters (UTF-16 units; the URLs are ASCII, so code points too). Default 511, the webhook_url limit. */
  maxLength?: number;
}

/** Shortest URL this module builds: every maxLength must leave room for it. */
const SHORTEST = 'https://example.com/';

/**
 * Hosts stay under the RFC 2606 reserved domains: a server may call a webhook_url, and a
 * harness must never point it at someone else's machine. No IPs, ports or localhost either:
 * a server may refuse them for webhooks (SSRF rules) although the interface is silent.
 */
const RESERVED = ['example.com', 'example.org', 'example.net'] as const;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const label = seeded((f) => f.internet.domainWord()).map((w) => (LABEL.test(w) ? w : 'hooks'));
const host = fc.oneof(
  fc.constantFrom(...RESERVED),
  fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 2 }), fc.constantFrom(...RESERVED))
    .map(([ls, d]) => [...ls, d].join('.')),
);

// Unreserved characters only, and never a segment of dots, so `new URL(u).href === u`:
// a server that normalises the URL still stores what was sent.
const UNRESERVED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_~';
const token = (max: number) => fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength: 1, maxLength: max });
const segment = fc.oneof(
  { weight: 3, arbitrary: token(12) },
  { weight: 1, arbitrary: seeded((f) => f.word.noun()).map((w) => encodeURIComponent(w)) },
  { weight: 1, arbitrary: fc.constantFrom('caf%C3%A9', '%E2%9C%93', '%F0%9F%98%80') }, // percent-encoded UTF-8
);
const query = fc
  .array(fc.tuple(token(8), token(16)), { minLength: 1, maxLength: 3 })
  .map((ps) => `?${ps.map(([k, v]) => `${k}=${v}`).join('&')}`);
const fragment = token(12).map((t) => `#${t}`);

interface Parts {
  base: string;
  path: string[];
  trailingSlash: boolean;
  query: string;
  fragment: string;
}

function assemble(p: Parts): string {
  const path = `/${p.path.join('/')}${p.trailingSlash && p.path.length > 0 ? '/' : ''}`;
  return p.base + path + p.query + p.fragment;
}

/** Drops the least essential parts until the URL fits; SHORTEST always does. */
function shrinkToFit(p: Parts, max: number): string {
  const parts = { ...p, path: [...p.path] };
  const steps = [() => (parts.fragment = ''), () => (parts.query = '')];
  let url = assemble(parts);
  for (const step of steps) {
    if (url.length <= max) return url;
    step();
    url = assemble(parts);
  }
  while (url.length > max && parts.path.length > 0) {
    parts.path.pop();
    url = assemble(parts);
  }
  return url.length <= max ? url : SHORTEST;
}

/** Pads the path with unreserved characters until the URL is exactly `max` long. */
function fill(p: Parts, max: number, pad: string): string {
  let url = shrinkToFit({ ...p, query: '', fragment: '' }, max - 1);
  if (!url.endsWith('/')) url += '/';
  let i = 0;
  while (url.length < max) url += pad[i++ % pad.length];
  return url;
}

/** Valid absolute http(s) URLs, canonical as WHATWG URL prints them, at most maxLength long. */
export function httpUrl(constraints: HttpUrlConstraints = {}): fc.Arbitrary<string> {
  const fn = 'httpUrl';
  checkKeys(fn, constraints, ['maxLength']);
  const max = checkInteger(
    fn,
    'maxLength',
    constraints.maxLength ?? LIMITS.webhookUrlMaxLength,
    SHORTEST.length,
    1_000_000,
  );
  const parts: fc.Arbitrary<Parts> = fc.record({
    base: fc.tuple(fc.constantFrom('https', 'http'), host).map(([s, h]) => `${s}://${h}`),
    path: fc.array(segment, { maxLength: 6 }),
    trailingSlash: fc.boolean(),
    query: fc.oneof(fc.constant(''), query),
    fragment: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fragment }),
  });
  return fc.oneof(
    { weight: 4, arbitrary: parts.map((p) => shrinkToFit(p, max)) },
    // Exactly at the limit: the boundary a server is most likely to get wrong.
    { weight: 1, arbitrary: fc.tuple(parts, token(8)).map(([p, pad]) => fill(p, max, pad)) },
  );
}

/** A valid https URL of exactly `n` characters (n >= 20), for boundary tests such as 511 and 512. */
export function httpUrlOfLength(n: number): string {
  checkInteger('httpUrlOfLength', 'n', n, SHORTEST.length, 1_000_000);
  return SHORTEST + 'a'.repeat(n - SHORTEST.length);
}
