/**
 * The body dimension on the token endpoint (issue 33 §1): the run's exact client credentials in bodies that are not
 * one JSON object (which get no token), with whitespace around them (which gets one), and in the bodies left open
 * (a byte-order mark, a key given twice, deep nesting in a key of no meaning, a form), whose answers are recorded.
 * The secret is never shown: a message names the kind of body.
 */
import { stringifyJson } from '../../base/json.ts';
import { BODY_KINDS, type BodyCellSpec, bodyCellId, bodyOracles, type BodyEncoding } from '../../spec/inputs/body.ts';
import type { TokenParts } from '../../spec/inputs/token.ts';
import { RawJson } from '../../client/encode.ts';
import type { Organisation } from '../context.ts';
import { failed, notJudged, pass } from './cell.ts';
import { AROUND, type BodyCell, deepValue, TRAILING } from './body-cells.ts';
import { answeredBody } from './body.ts';
import { answerOf } from './send.ts';

const q = (v: unknown) => stringifyJson(v)!;

/** The secret with its last character changed: a credential never issued. */
const wrong = (secret: string) => `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;

/** A kind's body from the credentials. */
function bodyOf(kind: string, encoding: BodyEncoding, c: TokenParts): string {
  const fields = (secret: string | string[], extra = '') =>
    `{"client_id":${q(c.clientId)},${[secret]
      .flat()
      .map((s) => `"client_secret":${q(s)}`)
      .join(',')},"grant_type":"client_credentials"${extra}}`;
  const exact = fields(c.secret);
  if (encoding === 'form') {
    const secrets = kind === 'repeated-field' ? [wrong(c.secret), c.secret] : [c.secret];
    return new URLSearchParams([
      ['client_id', c.clientId],
      ...secrets.map((s) => ['client_secret', s] as [string, string]),
      ['grant_type', 'client_credentials'],
    ]).toString();
  }
  switch (kind) {
    case 'whitespace':
      return `${AROUND[0]}${exact}${AROUND[1]}`;
    case 'trailing-text':
      return `${exact}${TRAILING}`;
    case 'second-value':
      return `${exact}\n${exact}`;
    case 'null':
      return 'null';
    case 'array':
      return `[${exact}]`;
    case 'string':
      return q(exact);
    case 'number':
      return '1';
    case 'bom':
      return `\uFEFF${exact}`;
    case 'empty':
      return '';
    case 'duplicate-key':
      return fields([wrong(c.secret), c.secret]);
    case 'duplicate-key-reversed':
      return fields([c.secret, wrong(c.secret)]);
    case 'deep':
      return fields(c.secret, `,"screenconf":${deepValue('x').json}`);
  }
  throw new Error(`token body cells: no body for kind ${kind}`);
}

/** Every token body cell, without its body (made from the credentials when sent). */
export function tokenBodyCells(): BodyCell[] {
  const cells: BodyCell[] = [];
  for (const encoding of ['json', 'form'] as const)
    for (const k of BODY_KINDS.filter((x) => x.ways.includes('token') && x.encodings.includes(encoding))) {
      const verdict = k.verdict('token');
      const spec: BodyCellSpec = {
        id: bodyCellId(encoding, 'token', k.kind),
        way: 'body',
        encoding,
        field: 'token',
        kind: k.kind,
        verdict,
        oracles: bodyOracles('token', encoding, k.kind, verdict),
      };
      const media = encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
      const shown = `(the client credentials: ${k.kind.replace(/-/g, ' ')})`;
      cells.push({ spec, text: '', media, readings: [], allowed: [], touches: [], records: [], shown, verdicts: {} });
    }
  return cells;
}

/** Sends each token body cell with the run's credentials; the form ones only where the endpoint takes a form. */
export async function runTokenBodies(org: Organisation, parts: TokenParts): Promise<BodyCell[]> {
  const cells = tokenBodyCells();
  let formTaken = true;
  for (const c of cells) {
    if (c.spec.encoding === 'form' && !formTaken) {
      c.verdicts.answered = notJudged('not sent: the token endpoint gave no token for the credentials as a form');
      c.took = 'not sent (a form got no token)';
      continue;
    }
    c.text = bodyOf(c.spec.kind, c.spec.encoding, parts);
    answeredBody(
      c,
      await answerOf(org.api.requestToken(new RawJson(c.text), { headers: { 'content-type': c.media } })),
    );
    const token = (c.answer as { access_token?: unknown } | undefined)?.access_token;
    const issued =
      c.status !== undefined && c.status < 300 && c.status >= 200 && typeof token === 'string' && token !== '';
    c.took = c.status === undefined ? 'no answer' : `HTTP ${c.status}, ${issued ? 'a token' : 'no token'}`;
    // The wrong secret first, then the exact one: a token says the second value was taken; reversed, the first.
    if (issued && (c.spec.kind.startsWith('duplicate-key') || c.spec.kind === 'repeated-field'))
      c.took += `: the ${c.spec.kind === 'duplicate-key-reversed' ? 'first' : 'second'} client_secret taken`;
    if (c.spec.kind === 'object') formTaken = issued;
    const judged = c.exchange ? [c.exchange] : [];
    const label = `POST /api/oauth/token/ as ${c.spec.encoding}, ${c.spec.kind} ${c.shown}`;
    if (c.spec.verdict === 'issue')
      c.verdicts.whole = issued
        ? pass('issued', judged)
        : failed(`${label}: ${c.took}, where whitespace around one JSON object is JSON`, judged);
    else if (c.spec.verdict === 'refuse') {
      // A 5xx or silence is answered's to judge: here, only that no token came, nor a 2xx or 3xx without one.
      const refusedRight = c.status === undefined || c.status >= 400;
      c.verdicts.whole =
        !issued && refusedRight
          ? pass('refused', judged)
          : failed(`${label}: ${c.took}, where a body that is not exactly one JSON object gets a 4xx`, judged);
    }
  }
  return cells;
}
