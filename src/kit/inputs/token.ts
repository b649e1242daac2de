/**
 * The token endpoint's way in of the input matrix: each field of a token request in the spellings of
 * spec/inputs/token.ts, built from the run's own client credentials. A token is issued for the exact
 * credentials only; anything else the server never issued gets none, and nothing is answered with a 5xx.
 */
import { RawJson } from '../../client/encode.ts';
import { TOKEN_KINDS, type TokenParts } from '../../spec/inputs/token.ts';
import type { Organisation } from '../context.ts';
import { failed, judge, label, pass, type SentCell } from './cell.ts';
import { answered, answerOf, ok } from './send.ts';

/** Every token request cell. */
export function tokenCells(): SentCell[] {
  return TOKEN_KINDS.map((k) => {
    const [field, kind] = k.kind.split('/') as [string, string];
    return {
      spec: {
        id: `token/json/${field}/${kind}`,
        way: 'token',
        encoding: 'json',
        field,
        kind,
        verdict: k.verdict,
        oracles: ['answered', 'own-record'],
      },
      value: '',
      // The body holds the secret (or most of it): a message names the kind, never the value.
      shown: `(the ${field} ${kind.replace(/-/g, ' ')})`,
      verdicts: {},
    };
  });
}

/** Sends each token cell with `parts` (the run's client id and secret); undefined when the run has none. */
export async function runTokenMatrix(org: Organisation, parts: TokenParts): Promise<SentCell[]> {
  const cells = tokenCells();
  for (const [i, c] of cells.entries()) {
    const kind = TOKEN_KINDS[i]!;
    c.value = kind.body(parts);
    const a = await answerOf(org.api.requestToken(new RawJson(c.value)));
    answered(c, a, label(c));
    if (!a.res) continue;
    const token = (a.res.json as { access_token?: unknown } | undefined)?.access_token;
    const issued = ok(a) && typeof token === 'string' && token.length > 0;
    const judged = c.exchange ? [c.exchange] : [];
    if (kind.verdict === 'refuse' && issued)
      judge(c, 'own-record', failed(`${label(c)}: a token was issued (HTTP ${a.res.status})`, judged));
    else if (kind.verdict === 'issue' && !issued)
      judge(c, 'own-record', failed(`${label(c)}: the exact credentials got no token (HTTP ${a.res.status})`, judged));
    else judge(c, 'own-record', pass(issued ? 'issued' : 'refused', judged));
  }
  return cells;
}
