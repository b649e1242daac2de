/** Where an interface path is on a target. */
/**
 * The URL of an interface path on a target: the path goes after the base URL's own path, so a
 * service behind a gateway prefix (https://gw.example.com/screening) is reached there, not at
 * the host's root (which `new URL('/api/…', base)` would give).
 */
export function targetUrl(baseUrl: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return new URL(path).toString();
  const base = baseOf(baseUrl);
  // A plain path (letters, digits, - _ ~ between single slashes) is already as the URL parser would write it.
  if (base.plain && PLAIN_PATH.test(path)) return `${base.origin}${base.prefix}${path}`;
  // Joined as one absolute URL: a prefix beginning with "//", resolved against the origin, would name another host.
  return new URL(`${base.origin}${base.prefix}${path.startsWith('/') ? '' : '/'}${path}`).toString();
}

const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)+\/?$|^\/$/;

/** Each base URL's origin and path prefix (without trailing slashes), parsed once. */
const bases = new Map<string, Base>();

interface Base {
  origin: string;
  prefix: string;
  /**
   * The prefix and a plain path joined are the URL: an http(s) base whose prefix does not begin with "//" (which
   * the parser reads as a host).
   */
  plain: boolean;
}

function baseOf(baseUrl: string): Base {
  let base = bases.get(baseUrl);
  if (!base) {
    const url = new URL(baseUrl);
    const prefix = url.pathname.replace(/\/+$/, '');
    base = {
      origin: url.origin,
      prefix,
      plain: (url.protocol === 'http:' || url.protocol === 'https:') && !prefix.startsWith('//'),
    };
    if (bases.size > 100) bases.clear();
    bases.set(baseUrl, base);
  }
  return base;
}
