/**
 * The kinds of value the input matrix sends, per field type: each limit and one past it (in ASCII and
 * in astral characters), padding, NUL, a lone surrogate, right-to-left and combining marks, numbers in
 * every spelling a lenient parser reads, every other JSON type, keys a runtime treats specially, every
 * enum value and its near misses; and what the interface lets a server do with each (stored.ts).
 * Every kind is derived from the field's type, so a new field gets its kinds from its type alone.
 */
import type { FieldType } from './fields.ts';
import {
  accept,
  ANY_NUMBER,
  ANY_PLATFORMS,
  ANY_STRING,
  exactly,
  type Expect,
  number,
  objectOf,
  oneOf,
  open,
  reject,
  type Stored,
  text,
  UNCHANGED,
} from './stored.ts';

/** One kind of value for one field. */
export interface ValueKind {
  /** Stable name: `at-limit`, `over-limit-astral`, `string-12abc`… (the cell's name in the matrix). */
  readonly kind: string;
  /** The value as raw JSON text in a JSON body; absent when the kind has no JSON spelling. */
  readonly json?: string;
  /** What a conforming server does with it sent as JSON. */
  readonly expect: Expect;
  /** The value as a form or multipart field's text; absent when the kind has no flat spelling. */
  readonly text?: string;
  /** What a conforming server does with it sent as form text (default: `expect`). */
  readonly expectText?: Expect;
  /**
   * The JSON text makes the whole body invalid JSON (NaN, a trailing comma): in a bulk request it is sent in
   * a batch of its own, since the request, not the item, is then refused.
   */
  readonly wholeBody?: boolean;
  /** A value that identifies the cell among others of its field: text it contains, or the value itself. */
  readonly marker?: string;
}

/** Hands out short tags, unique within a run, that make each cell's value its own. */
export type Tagger = () => string;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Code points of the astral plane (4 UTF-8 bytes, 2 UTF-16 units each). */
const ASTRAL = '\u{1D49C}';
const TWO_BYTE = 'é';

const q = (s: string) => JSON.stringify(s);

/** A tag as decimal digits, as distinct as the tags are (a tag is a base-36 word of at most 10 letters). */
const digitsOf = (t: string) => String(Number.parseInt(t.replace(/[^0-9a-z]/g, '').slice(-10), 36));

/** A text of exactly `n` code points beginning with `head` (ASCII), padded with `pad`. */
export function exact(head: string, n: number, pad = 'a'): string {
  const rest = n - [...head].length;
  return rest > 0 ? head + pad.repeat(rest) : [...head].slice(0, n).join('');
}

/** The kinds for a string field. */
function stringKinds(f: Extract<FieldType, { type: 'string' }>, tag: Tagger): ValueKind[] {
  const { max, nullable, url } = f;
  // A URL field's values are URLs where the kind allows; the interface gives no format, so a
  // value that is no URL is open (a server may refuse it), never required.
  const head = (t: string) => (url ? `https://hooks.example.com/${t}/` : `${t}-`);
  const valid = (s: string): Expect => (url ? open(text(s)) : accept(text(s)));
  const kinds: ValueKind[] = [];
  const add = (kind: string, value: string, expect: Expect) => {
    kinds.push({ kind, json: q(value), expect, text: value, marker: value });
  };
  const at = exact(head(tag()), max);
  add('at-limit', at, accept(text(at)));
  // In code points within the limit; in UTF-16 units or UTF-8 bytes over it: how length is counted is not shown.
  const astral = exact(head(tag()), max, ASTRAL);
  add('at-limit-astral', astral, open(text(astral)));
  const twoByte = exact(head(tag()), max, TWO_BYTE);
  add('at-limit-2-byte', twoByte, open(text(twoByte)));
  const padded = ` ${exact(head(tag()), max - 2)} `;
  add('at-limit-padded', padded, url ? open(text(padded)) : accept(text(padded)));
  // Over the limit as sent, within it trimmed: a server that trims first may take it, stored trimmed.
  const paddedOver = ` ${exact(head(tag()), max)}  `;
  add('over-limit-padded', paddedOver, open(exactly(paddedOver.trim())));
  add('over-limit', exact(head(tag()), max + 1), reject);
  add('over-limit-astral', exact(head(tag()), max + 1, ASTRAL), reject);
  add('far-over-limit', exact(head(tag()), max * 4 + 3), reject);
  const blank: Stored = nullable
    ? oneOf(exactly(''), exactly(null), ...(f.nullBecomes === 'any-string' ? [ANY_STRING] : []))
    : exactly('');
  kinds.push({ kind: 'empty', json: '""', expect: open(blank), text: '', expectText: open(oneOf(blank, UNCHANGED)) });
  const spaces = `   ${tag()}`.replace(/[a-z0-9]/g, ' ');
  add('whitespace', spaces, open(oneOf(exactly(spaces), blank)));
  const nul = `${head(tag())}a\u0000b`;
  add('nul', nul, open(text(nul)));
  // A lone surrogate has no UTF-8 form: JSON only. The interface's JSON gives it no value, so a server may rewrite
  // it (U+FFFD, dropped) or refuse it; its type it gives: taken, it reads back as a string (never null, issue 33 §5).
  const lone = head(tag());
  kinds.push({
    kind: 'lone-surrogate',
    json: `${q(lone).slice(0, -1)}\\ud800x"`,
    expect: open(ANY_STRING),
    marker: lone,
  });
  const marks = `${head(tag())}\u202Eabc-cafe\u0301`;
  add('rtl-combining', marks, valid(marks));
  const numeric = `00${digitsOf(tag())}`;
  add('numeric-looking', numeric, url ? open(exactly(numeric)) : accept(exactly(numeric)));
  // Digits alone, no leading zero: what a form decoder that guesses types (qs-style coercion) turns into a number.
  const digits = `9${digitsOf(tag())}`;
  add('digits', digits, url ? open(exactly(digits)) : accept(exactly(digits)));
  if (url) {
    // What a URL parser would rewrite (scheme and host case, default port, dot segments, escapes): stored as sent.
    const rewrite = `HTTPS://Hooks.Example.COM:443/${tag()}/a/./b/../c?q=%7e&r=a%2Fb#frag`;
    add('url-rewritable', rewrite, open(exactly(rewrite)));
    const idn = `https://bücher.example/${tag()}/`;
    add('url-unicode-host', idn, open(exactly(idn)));
    const plain = `${tag()} not a url`;
    add('not-a-url', plain, open(text(plain)));
  } else {
    const sql = `${head(tag())}'; DROP TABLE cases;--`;
    add('sql-metacharacters', sql, accept(text(sql)));
    const markup = `${head(tag())}<script>alert(1)</script>&amp;`;
    add('markup', markup, accept(text(markup)));
  }
  kinds.push(
    nullable
      ? { kind: 'null', json: 'null', expect: accept(f.nullBecomes === 'any-string' ? ANY_STRING : exactly(null)) }
      : { kind: 'null', json: 'null', expect: reject },
  );
  const n = `9${digitsOf(tag())}`;
  kinds.push({ kind: 'number', json: n, expect: open(exactly(n)), marker: n });
  kinds.push({ kind: 'boolean', json: 'true', expect: reject });
  kinds.push({ kind: 'object', json: `{"v":${q(tag())}}`, expect: reject });
  kinds.push({ kind: 'array', json: `[${q(tag())}]`, expect: reject });
  return kinds;
}

/** The kinds for an int32 field (delete_after). */
function int32Kinds(): ValueKind[] {
  const kinds: ValueKind[] = [];
  /** A number spelt `json` in JSON and `txt` in a form, meaning `meant` (undefined: meaning nothing). */
  const add = (kind: string, json: string | undefined, expect: Expect, txt?: string, expectText?: Expect) => {
    kinds.push({
      kind,
      ...(json !== undefined ? { json } : {}),
      expect,
      ...(txt !== undefined ? { text: txt } : {}),
      ...(expectText ? { expectText } : {}),
    });
  };
  for (const [kind, v] of [
    ['min', INT32_MIN],
    ['max', INT32_MAX],
    ['never', -1],
    ['zero', 0],
    ['ordinary', 4242],
  ] as const)
    add(kind, String(v), accept(number(v)), String(v));
  // Spellings that mean an integer exactly: a server may take them as that integer, or refuse them.
  add('decimal-point-zero', '2.0', open(number(2)), '2.0');
  add('exponent', '1e2', open(number(100)), '1e2');
  add('negative-zero', '-0', open(number(0)), '-0');
  add('string', '"5"', open(number(5)));
  add('string-padded', '" 7"', open(number(7)), ' 7', open(number(7)));
  add('string-decimal-point-zero', '"12.0"', open(number(12)));
  add('string-exponent', '"1e1"', open(number(10)));
  add('string-hex', '"0x11"', open(number(17)), '0x11', open(number(17)));
  add('boolean-true', 'true', open(number(1)));
  // Beyond the range, fractions, and text a lenient parser reads as a number it does not mean.
  add('min-minus-one', String(INT32_MIN - 1), reject, String(INT32_MIN - 1));
  add('max-plus-one', String(INT32_MAX + 1), reject, String(INT32_MAX + 1));
  add('2^53+1', '9007199254740993', reject, '9007199254740993');
  add('2^63', '9223372036854775808', reject, '9223372036854775808');
  add('2^64', '18446744073709551616', reject, '18446744073709551616');
  add('1e400', '1e400', reject, '1e400');
  add('fraction', '1.5', reject, '1.5');
  add('negative-fraction', '-1.5', reject, '-1.5');
  add('string-12abc', '"12abc"', reject, '12abc');
  add('string-empty', '""', reject, '', open(UNCHANGED));
  add('string-array', '"[7]"', reject, '[7]');
  add('string-sql', '"5; DROP TABLE cases"', reject, '5; DROP TABLE cases');
  add('string-words', '"abc"', reject, 'abc');
  add('string-nan', '"NaN"', reject, 'NaN');
  add('string-infinity', '"Infinity"', reject, 'Infinity');
  add('null', 'null', reject);
  add('object', '{"v":5}', reject);
  add('array', '[7]', reject);
  // Tokens JSON does not have, in an otherwise valid body: the body is refused.
  for (const [kind, json] of [
    ['token-nan', 'NaN'],
    ['token-infinity', 'Infinity'],
    ['trailing-comma', '5,'],
  ] as const)
    kinds.push({ kind, json, expect: reject, wholeBody: true });
  return kinds;
}

/** The kinds for metadata (free JSON object or null). */
function objectKinds(tag: Tagger): ValueKind[] {
  const kinds: ValueKind[] = [];
  const obj = (kind: string, value: unknown, expect?: Expect) => {
    const json = JSON.stringify(value);
    kinds.push({ kind, json, expect: expect ?? accept(exactly(value)), marker: json });
  };
  obj('empty-object', {});
  obj('nested', { [tag()]: { list: [1, 'two', null, true, { deep: 'ü' }], n: -0.5, f: 0.1 } });
  // Keys a JavaScript runtime treats specially: stored as keys like any other.
  const proto = tag();
  kinds.push({
    kind: 'key-__proto__',
    json: `{"__proto__":{"polluted":${q(proto)}},"k":${q(proto)}}`,
    expect: accept(exactly(JSON.parse(`{"__proto__":{"polluted":${q(proto)}},"k":${q(proto)}}`))),
    marker: proto,
  });
  obj('key-constructor', { constructor: { prototype: { polluted: tag() } }, toString: tag() });
  obj('keys-unicode', { ключ: '値', 'emoji\u{1F600}': tag(), '': 'empty key' });
  const nulValue = { k: `${tag()}\u0000x` };
  obj('nul-in-value', nulValue, open(exactly(nulValue)));
  const deep = tag();
  let nested: unknown = { leaf: deep };
  for (let i = 0; i < 40; i++) nested = { d: nested };
  obj('deep', nested, open(exactly(nested)));
  // A number past a double's range: RFC 8259 §6 lets an implementation limit the range it takes, so it may be
  // refused; taken, it is still a number (issue 33 §5): read back as a JSON number, never null (JSON.stringify of
  // Infinity) nor a string ("Infinity"), and the object keeps its other key as sent.
  const huge = tag();
  kinds.push({
    kind: 'number-beyond-double',
    json: `{"n":1e400,"k":${q(huge)}}`,
    expect: open(objectOf({ n: ANY_NUMBER, k: exactly(huge) })),
    marker: huge,
  });
  // Duplicate keys: RFC 8259 leaves the value open; refused, the first or the last.
  const dup = tag();
  kinds.push({
    kind: 'duplicate-key',
    json: `{"k":"${dup}-first","k":"${dup}-last"}`,
    expect: open(oneOf(exactly({ k: `${dup}-last` }), exactly({ k: `${dup}-first` }))),
    marker: dup,
  });
  const jsonText = { k: tag() };
  kinds.push({
    kind: 'json-text-string',
    json: q(JSON.stringify(jsonText)),
    expect: open(exactly(jsonText)),
    marker: JSON.stringify(jsonText),
  });
  kinds.push({ kind: 'null', json: 'null', expect: accept(exactly(null)) });
  for (const [kind, json] of [
    ['array', '[1,2]'],
    ['number', '5'],
    ['boolean', 'true'],
    ['string', '"plain"'],
  ] as const)
    kinds.push({ kind, json, expect: reject });
  return kinds;
}

/** The kinds for sync_platforms ("object or null", described as a list of {domain, id}). */
function platformKinds(tag: Tagger): ValueKind[] {
  const one = (t: string) => ({ domain: 'crm.example.com', id: t });
  const list = [one(tag()), { domain: 'erp.example.org', id: tag(), extra: 1 }];
  const asObject = one(tag());
  const kinds: [string, unknown, Expect][] = [
    ['list', list, accept(exactly(list))],
    ['empty-list', [], accept(exactly([]))],
    ['null', null, accept(exactly(null))],
    // The interface types it both as an object and as a list: an object, or entries of another shape, are open.
    ['object', asObject, open(exactly(asObject))],
    // Entries of other types, and other JSON types: the interface's loose typing leaves taking them open; taken, the
    // field still reads back as a value of its type (issue 33 §5): a list of {domain, id} strings or an object.
    ['entry-wrong-types', [{ domain: 5, id: [tag()] }], open(ANY_PLATFORMS)],
    ['number', 5, open(ANY_PLATFORMS)],
    ['boolean', true, open(ANY_PLATFORMS)],
    ['string', tag(), open(ANY_PLATFORMS)],
    // An entry of another kind beside a valid one (issue 33 §2, containers.ts): open as the other shapes are, and a
    // list taken is stored as sent, never with the entry dropped, filled in or flattened.
    ...(
      [
        ['element-null', null],
        ['element-number', 5],
        ['element-string', 'crm.example.com'],
        ['element-array', [one(tag())]],
        ['element-empty-object', {}],
        ['element-no-identifier', { domain: 'crm.example.com' }],
      ] as const
    ).map(([kind, entry]): [string, unknown, Expect] => {
      const value = [one(tag()), entry];
      return [kind, value, open(exactly(value))];
    }),
  ];
  return kinds.map(([kind, value, expect]) => ({
    kind,
    json: JSON.stringify(value),
    expect,
    marker: JSON.stringify(value),
  }));
}

/** The kinds for an enum field: every listed value, near misses, and other types. */
function enumKinds(f: Extract<FieldType, { type: 'enum' }>): ValueKind[] {
  const kinds: ValueKind[] = [];
  for (const v of f.values)
    kinds.push({ kind: `value-${v}`, json: q(v), expect: accept(exactly(v)), text: v, marker: v });
  // The empty string is a listed value (issue 33 §6): sent, it reads back as "", never null (BULK-CUSTOMERS-STORED-
  // AS-SENT's decision). A form's empty text is that value too, or a field not given (left unchanged). null, the
  // type's "or null", may read back as null or as the enum's blank value "" (a store without null shows that).
  if (f.blank)
    kinds.push({
      kind: 'value-empty',
      json: '""',
      expect: accept(exactly('')),
      text: '',
      expectText: open(oneOf(exactly(''), UNCHANGED)),
    });
  if (f.nullable)
    kinds.push({
      kind: 'value-null',
      json: 'null',
      expect: accept(f.blank ? oneOf(exactly(null), exactly('')) : exactly(null)),
    });
  const first = f.values[0]!;
  // Near misses: refused, or taken as the value they resemble (never as sent: a read shows only listed values).
  for (const [kind, v] of [
    ['lower-case', first.toLowerCase()],
    ['leading-space', ` ${first}`],
    ['trailing-space', `${first} `],
  ] as const)
    kinds.push({ kind, json: q(v), expect: open(exactly(first)), text: v, marker: v });
  kinds.push({ kind: 'unlisted', json: '"PERSON"', expect: reject, text: 'PERSON', marker: 'PERSON' });
  for (const [kind, json] of [
    ['number', '1'],
    ['boolean', 'true'],
    ['object', `{"v":${q(first)}}`],
    ['array', `[${q(first)}]`],
  ] as const)
    kinds.push({ kind, json, expect: reject });
  return kinds;
}

/** Every kind of value for a field of this type. */
export function valueKinds(f: FieldType, tag: Tagger): ValueKind[] {
  switch (f.type) {
    case 'string':
      return stringKinds(f, tag);
    case 'int32':
      return int32Kinds();
    case 'object':
      return objectKinds(tag);
    case 'platforms':
      return platformKinds(tag);
    case 'enum':
      return enumKinds(f);
  }
}
