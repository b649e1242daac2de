/**
 * The containers of the bulk endpoints as a dimension of the input matrix (issue 33 §2): the array that carries
 * a batch (`items` of a bulk case or customer update, `ids` of a bulk check delete), how many entries it holds
 * and what they name, on every way in, and the kind of each entry. The kinds of a sync_platforms list's entries
 * are value kinds of that field (values.ts), sent with the other values of the matrix.
 *
 * What the interface decides: "maximum length 100" bounds the body, whatever its encoding and whatever its
 * entries name (101 entries naming one record are 101 entries); "up to 100 … per request" takes 100; an entry of
 * another kind than the array's ("an array of objects", "an array of integers") is not an entry the server may
 * act on. What it leaves open: whether such an entry fails its item or the whole request ("failures are reported
 * per item"), and whether an empty batch is taken or refused. This module is data: kit/containers sends and
 * judges the cells, `screenconf list --matrix` shows them.
 */
import { ENCODINGS, type Encoding, type OracleName } from './matrix.ts';

/** The bulk ways in, each with its container. */
export type ContainerWay = 'bulk-cases' | 'bulk-customers' | 'bulk-checks';
export const CONTAINER_WAYS: readonly ContainerWay[] = ['bulk-cases', 'bulk-customers', 'bulk-checks'];
export const CONTAINER_OF: Record<ContainerWay, 'items' | 'ids'> = {
  'bulk-cases': 'items',
  'bulk-customers': 'items',
  'bulk-checks': 'ids',
};

/** The suite file that sends the container cells. */
export const CONTAINER_SUITE = 'inputs-containers';

/** One kind of container: how many entries, what they name, or the kind of one entry among valid ones. */
export interface ContainerKind {
  readonly kind: string;
  /**
   * accept: taken whole; reject: applies nothing of what it names (the batch refused, or the entry failed while
   * the rest apply); open: taken or refused.
   */
  readonly verdict: 'accept' | 'reject' | 'open';
  readonly oracles: readonly OracleName[];
  /** The encodings it is sent in: every one, or JSON only (a flat form has no spelling of the entry). */
  readonly encodings: readonly Encoding[];
  /** The ways that send it (default: all three). */
  readonly ways?: readonly ContainerWay[];
  /** What is sent, for `list --matrix` readers and messages. */
  readonly about: string;
}

const ITEMS: readonly ContainerWay[] = ['bulk-cases', 'bulk-customers'];
const JSON_ONLY: readonly Encoding[] = ['json'];
const ELEMENT: readonly OracleName[] = ['answered', 'unchanged'];
const NAMING_ELEMENT: readonly OracleName[] = ['answered', 'own-record', 'unchanged'];

export const CONTAINER_KINDS: readonly ContainerKind[] = [
  { kind: 'empty', verdict: 'open', oracles: ['answered'], encodings: JSON_ONLY, about: 'no entry at all' },
  {
    kind: '100',
    verdict: 'accept',
    oracles: ['stored'],
    encodings: ENCODINGS,
    about: '100 entries, each naming a record of its own: every one applied',
  },
  {
    kind: '101',
    verdict: 'reject',
    oracles: ['limits'],
    encodings: ENCODINGS,
    about: '101 entries, each naming a record of its own: none applied',
  },
  {
    kind: '101-one-record',
    verdict: 'reject',
    oracles: ['limits'],
    encodings: JSON_ONLY,
    about: '101 entries naming one record (a server that counts after removing duplicates sees one): none applied',
  },
  {
    kind: '101-two-records',
    verdict: 'reject',
    oracles: ['limits'],
    encodings: JSON_ONLY,
    about: '101 entries naming two records in turn: none applied',
  },
  { kind: 'element-null', verdict: 'reject', oracles: ELEMENT, encodings: JSON_ONLY, about: 'an entry null' },
  {
    kind: 'element-number',
    verdict: 'reject',
    oracles: ELEMENT,
    encodings: JSON_ONLY,
    ways: ITEMS,
    about: "an item that is a record's id as a bare number (ids hold numbers)",
  },
  { kind: 'element-string', verdict: 'reject', oracles: ELEMENT, encodings: JSON_ONLY, about: 'an entry of text' },
  {
    kind: 'element-array',
    verdict: 'reject',
    oracles: NAMING_ELEMENT,
    encodings: JSON_ONLY,
    about: 'an entry that is an array holding a valid entry (a server that flattens acts on it)',
  },
  {
    kind: 'element-empty-object',
    verdict: 'reject',
    oracles: ELEMENT,
    encodings: JSON_ONLY,
    about: 'an entry {}',
  },
  {
    kind: 'element-no-identifier',
    verdict: 'reject',
    oracles: NAMING_ELEMENT,
    encodings: JSON_ONLY,
    about: 'an item setting a value but naming no record (no id; for ids an object {"check_id": …})',
  },
];

/** The requirement that owns each oracle of the container cells of each way in. */
export const CONTAINER_OWNERS: Record<ContainerWay, Partial<Record<OracleName, string>>> = {
  'bulk-cases': {
    answered: 'BULK-CASES-ANSWERED',
    stored: 'BULK-CASES-ACCEPT-100',
    limits: 'BULK-CASES-REJECT-101',
    'own-record': 'BULK-CASES-OWN-RECORD',
    unchanged: 'BULK-CASES-PARTIAL',
  },
  'bulk-customers': {
    answered: 'BULK-CUSTOMERS-ANSWERED',
    stored: 'BULK-CUSTOMERS-ACCEPT-100',
    limits: 'BULK-CUSTOMERS-REJECT-101',
    'own-record': 'BULK-CUSTOMERS-OWN-RECORD',
    unchanged: 'BULK-CUSTOMERS-PARTIAL',
  },
  'bulk-checks': {
    answered: 'BULK-CHECKS-MALFORMED',
    stored: 'BULK-CHECKS-ACCEPT-100',
    limits: 'BULK-CHECKS-REJECT-101',
    'own-record': 'BULK-CHECKS-OWN-RECORD',
    unchanged: 'BULK-CHECKS-PARTIAL',
  },
};

/** The JSON 100- and 101-item cells: judged by the limit checks of the way's own suite file (suites/bulk-*.test.ts). */
export function judgedByLimitCheck(kind: string, encoding: Encoding): boolean {
  return encoding === 'json' && (kind === '100' || kind === '101');
}

/** A container cell as the matrix lists it. */
export interface ContainerCellSpec {
  readonly id: string;
  readonly way: ContainerWay;
  readonly encoding: Encoding;
  /** `items` or `ids`. */
  readonly field: string;
  readonly kind: string;
  readonly verdict: string;
  readonly oracles: readonly OracleName[];
  /** The suite file whose checks judge it. */
  readonly suite: string;
}

/** Every container cell, in a stable order: way, kind, encoding. */
export function containerCellSpecs(): ContainerCellSpec[] {
  return CONTAINER_WAYS.flatMap((way) =>
    CONTAINER_KINDS.filter((k) => !k.ways || k.ways.includes(way)).flatMap((k) =>
      k.encodings.map((encoding) => ({
        id: `${way}/${encoding}/${CONTAINER_OF[way]}/${k.kind}`,
        way,
        encoding,
        field: CONTAINER_OF[way],
        kind: k.kind,
        verdict: k.verdict,
        oracles: k.oracles,
        suite: judgedByLimitCheck(k.kind, encoding) ? way : CONTAINER_SUITE,
      })),
    ),
  );
}
