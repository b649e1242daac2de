/**
 * Variants of authentication beyond what the interface shows: brute-force protection ("Rate limits: not shown";
 * nothing in § Authentication forbids refusing a client that keeps sending credentials that open nothing); the
 * status a malformed Authorization header is refused with ("Error status codes …: not shown").
 */
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';

/** auth.lockout: refused credentials from one address that lock it out, and for how long. */
const REFUSED = 20;
const LOCKED_MS = 1000;

export const AUTH_VARIANTS = [
  variant(
    'auth.malformed-400',
    'an Authorization header that is not "<scheme> <credential>" ("Bearer", "Bearer <credential> x", Basic) is ' +
      'refused 400 invalid_request with a Bearer challenge, as RFC 6750 §3.1 advises',
    (_base, env) => ({
      malformedCredentials: () => {
        const message = 'Authorization header must be "Bearer <credential>"';
        throw new HttpError(400, 'invalid_request', message, {}, env.b.challenge('invalid_request'));
      },
    }),
  ),
  variant(
    'auth.lockout',
    `after ${REFUSED} requests from one address refused for their credential, every request from that address ` +
      `(the token endpoint too, the right credentials too) is answered 401 as a wrong credential is, for ` +
      `${LOCKED_MS / 1000} s, with no Retry-After (brute-force protection that does not say it locked the client out)`,
    (_base, env) => {
      const refused = new Map<string, number>();
      const lockedUntil = new Map<string, number>();
      const address = (req: { socket: { remoteAddress?: string | undefined } }) => req.socket.remoteAddress ?? '';
      return {
        admit(req) {
          if ((lockedUntil.get(address(req)) ?? 0) > Date.now())
            throw new HttpError(401, 'invalid_token', 'the credential is invalid or expired', {}, env.b.challenge());
        },
        credentialRefused(req) {
          const from = address(req);
          const n = (refused.get(from) ?? 0) + 1;
          refused.set(from, n < REFUSED ? n : 0);
          if (n >= REFUSED) lockedUntil.set(from, Date.now() + LOCKED_MS);
        },
      };
    },
  ),
];
