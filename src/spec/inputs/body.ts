/**
 * The body as a whole, a dimension of the input matrix (issue 33 §1): on every endpoint, in each media type it
 * takes, bodies that are not exactly one JSON object (text or a second value after the object, another JSON type),
 * and the bodies the interface and RFC 8259 leave open (a byte-order mark, an empty body, a JSON object without a
 * Content-Type, a key given twice, a form
 * field or multipart part given twice, nesting past common parser limits, a multipart body without its close
 * delimiter); whitespace around the object is JSON. Data only: kit/inputs/body*.ts builds and sends the
 * cells, `screenconf list --matrix` (way `body`) shows them with the oracles that judge each.
 */
import { OWNERS, ORACLES } from './matrix.ts';

/** The endpoints a body reaches, named as the matrix's ways in. */
export type BodyWay = 'patch' | 'bulk-cases' | 'bulk-customers' | 'bulk-checks' | 'token';
export const BODY_WAYS: readonly BodyWay[] = ['patch', 'bulk-cases', 'bulk-customers', 'bulk-checks', 'token'];

/** The media types a body is sent in (the token endpoint's is JSON; a form is tried, and sent to where taken). */
export type BodyEncoding = 'json' | 'form' | 'multipart';

/** The oracles of a body cell: answered and readable are the matrix's; whole and one-value are this dimension's. */
export type BodyOracle = 'answered' | 'whole' | 'one-value' | 'readable';
export const BODY_ORACLE_NAMES: readonly BodyOracle[] = ['answered', 'whole', 'one-value', 'readable'];

export const BODY_ORACLES: Record<'whole' | 'one-value', string> = {
  whole:
    'one body, one object: a body that is not exactly one JSON object (text or a second value after it, another ' +
    'JSON type) is refused and changes nothing, never applied in part; whitespace around the object is JSON and ' +
    'is taken; a body the interface leaves open (a byte-order mark, an empty body, one without a Content-Type, deep ' +
    'nesting, a multipart body ' +
    'without its close delimiter) is refused changing nothing, or taken and applied as what it holds',
  'one-value':
    'a key or field given twice is refused changing nothing, or takes one of the values sent, one its field ' +
    'allows, shown alike by the answer and a later read: never the two mixed, never a value the field refuses',
};

/** What an oracle says, whichever table holds it. */
export function bodyOracleText(o: BodyOracle): string {
  return o === 'whole' || o === 'one-value' ? BODY_ORACLES[o] : ORACLES[o];
}

/**
 * What a conforming server does with a body:
 *  - accept: takes it and applies the object it holds (whitespace around the object);
 *  - reject: refuses it with a 4xx and changes nothing (not JSON; no object on PATCH and the token endpoint);
 *  - no-effect: changes nothing, answered 4xx or 2xx (a bulk body that is JSON but no object: BULK-*-MALFORMED);
 *  - open: refuses it changing nothing, or takes it and applies what it holds as sent (BOM, empty, deep);
 *  - one-of: refuses it changing nothing, or applies one of the values given twice, never both nor another;
 *  - issue / refuse: a token, or none (the token endpoint).
 */
export type BodyVerdict = 'accept' | 'reject' | 'no-effect' | 'open' | 'one-of' | 'issue' | 'refuse';

/** Levels of nesting of the deep bodies: past Rails' 100, PHP's 512, and Jackson's and Python's 1000. */
export const DEEP_LEVELS = 1100;

/** One kind of body, where it is sent, and what a conforming server does with it on each endpoint. */
export interface BodyKind {
  readonly kind: string;
  readonly encodings: readonly BodyEncoding[];
  readonly ways: readonly BodyWay[];
  readonly verdict: (way: BodyWay) => BodyVerdict;
}

const ALL = BODY_WAYS;
const API: readonly BodyWay[] = ['patch', 'bulk-cases', 'bulk-customers', 'bulk-checks'];
const UPDATES: readonly BodyWay[] = ['patch', 'bulk-cases', 'bulk-customers'];
const BULK = new Set<BodyWay>(['bulk-cases', 'bulk-customers', 'bulk-checks']);

const always = (v: BodyVerdict) => (): BodyVerdict => v;
/** On the token endpoint a body either gets a token or none. */
const tokenOr =
  (v: BodyVerdict, token: BodyVerdict) =>
  (way: BodyWay): BodyVerdict =>
    way === 'token' ? token : v;
/** JSON that is no object: refused on PATCH and the token endpoint; on a bulk endpoint a 2xx may apply nothing. */
const noObject = (way: BodyWay): BodyVerdict => (way === 'token' ? 'refuse' : BULK.has(way) ? 'no-effect' : 'reject');

/** Every kind of body, in the order a way sends them. */
export const BODY_KINDS: readonly BodyKind[] = [
  { kind: 'whitespace', encodings: ['json'], ways: ALL, verdict: tokenOr('accept', 'issue') },
  { kind: 'trailing-text', encodings: ['json'], ways: ALL, verdict: tokenOr('reject', 'refuse') },
  { kind: 'second-value', encodings: ['json'], ways: ALL, verdict: tokenOr('reject', 'refuse') },
  { kind: 'null', encodings: ['json'], ways: ALL, verdict: noObject },
  { kind: 'array', encodings: ['json'], ways: ALL, verdict: noObject },
  { kind: 'string', encodings: ['json'], ways: ALL, verdict: noObject },
  { kind: 'number', encodings: ['json'], ways: ALL, verdict: noObject },
  { kind: 'bom', encodings: ['json'], ways: ALL, verdict: always('open') },
  { kind: 'empty', encodings: ['json'], ways: ALL, verdict: tokenOr('open', 'refuse') },
  { kind: 'empty', encodings: ['form', 'multipart'], ways: API, verdict: always('open') },
  // A JSON object sent with no Content-Type (RFC 9110 §8.3: the recipient may take it as octet-stream, or sniff it):
  // refused, or taken as the JSON it is; never a 2xx that applies nothing (a JSON parser that skips an unlabelled
  // body leaves the handler an empty one).
  { kind: 'unlabelled', encodings: ['json'], ways: API, verdict: always('open') },
  // PATCH: the first value one its field allows and the second over the limit, then the other way round.
  { kind: 'duplicate-key', encodings: ['json'], ways: ALL, verdict: tokenOr('one-of', 'open') },
  { kind: 'duplicate-key-reversed', encodings: ['json'], ways: ['patch', 'token'], verdict: tokenOr('one-of', 'open') },
  { kind: 'deep', encodings: ['json'], ways: ALL, verdict: always('open') },
  { kind: 'deep', encodings: ['form', 'multipart'], ways: ['patch'], verdict: always('open') },
  // A bulk check delete's ids repeat in a flat body by convention (the only flat spelling of an array).
  { kind: 'repeated-field', encodings: ['form', 'multipart'], ways: UPDATES, verdict: always('one-of') },
  { kind: 'repeated-field-over-limit', encodings: ['multipart'], ways: ['patch'], verdict: always('one-of') },
  // RFC 2046 §5.1.1 ends a multipart body with a close delimiter; no RFC makes a server refuse one without it (busboy
  // refuses it, an Express app without an error handler answering 500; others take the parts they read).
  { kind: 'cut-short', encodings: ['multipart'], ways: ['patch', 'bulk-checks'], verdict: always('open') },
  // The token endpoint's body is JSON; a form, which RFC 6749 §4.4.2 sends, may be taken: then it is varied too.
  { kind: 'object', encodings: ['form'], ways: ['token'], verdict: always('open') },
  { kind: 'repeated-field', encodings: ['form'], ways: ['token'], verdict: always('open') },
];

/** The requirement of each way's body: its whole and one-value oracles. */
export const BODY_REQUIREMENTS: Record<BodyWay, string> = {
  patch: 'CASE-PATCH-BODY',
  'bulk-cases': 'BULK-CASES-BODY',
  'bulk-customers': 'BULK-CUSTOMERS-BODY',
  'bulk-checks': 'BULK-CHECKS-BODY',
  token: 'TOKEN-BODY',
};

/** The OBSERVE requirement recording what each endpoint did with the bodies left open. */
export const BODY_CHOICES = 'CONTENT-BODY-CHOICES';

/** The requirement that owns an oracle on a way; undefined where the oracle does not apply there. */
export function bodyOwner(way: BodyWay, oracle: BodyOracle): string | undefined {
  if (oracle === 'whole' || oracle === 'one-value') return BODY_REQUIREMENTS[way];
  return OWNERS[way][oracle];
}

/** The oracles that judge a cell: answered always, and what its verdict asks of the body and of a value taken. */
export function bodyOracles(way: BodyWay, encoding: BodyEncoding, kind: string, verdict: BodyVerdict): BodyOracle[] {
  if (way === 'token') return verdict === 'open' ? ['answered'] : ['answered', 'whole'];
  // A deep value as a form's JSON text: how a form carries metadata is not shown, only that the case stays readable.
  if (kind === 'deep' && encoding !== 'json') return ['answered', 'readable'];
  const rule: BodyOracle = verdict === 'one-of' ? 'one-value' : 'whole';
  const takes = verdict === 'accept' || verdict === 'open' || verdict === 'one-of';
  const readable = takes && bodyOwner(way, 'readable') !== undefined ? (['readable'] as const) : [];
  return ['answered', rule, ...readable];
}

/** One cell of the body dimension, as `list --matrix` shows it: way `body`, the endpoint its field. */
export interface BodyCellSpec {
  /** `body/json/patch/trailing-text`. */
  readonly id: string;
  readonly way: 'body';
  readonly encoding: BodyEncoding;
  readonly field: BodyWay;
  readonly kind: string;
  readonly verdict: BodyVerdict;
  readonly oracles: readonly BodyOracle[];
}

/** The id of a body cell. */
export const bodyCellId = (encoding: BodyEncoding, way: BodyWay, kind: string) => `body/${encoding}/${way}/${kind}`;

/** Every cell of the body dimension, by endpoint, then encoding, then kind. */
export function bodyCells(): BodyCellSpec[] {
  const cells: BodyCellSpec[] = [];
  for (const way of BODY_WAYS)
    for (const encoding of ['json', 'form', 'multipart'] as const)
      for (const k of BODY_KINDS.filter((x) => x.ways.includes(way) && x.encodings.includes(encoding))) {
        const verdict = k.verdict(way);
        const id = bodyCellId(encoding, way, k.kind);
        const oracles = bodyOracles(way, encoding, k.kind, verdict);
        cells.push({ id, way: 'body', encoding, field: way, kind: k.kind, verdict, oracles });
      }
  return cells;
}

/** The suite file that sends the body cells. */
export const BODY_SUITE = 'inputs-body';
