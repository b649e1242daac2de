/**
 * The key dimension of the input matrix (issue 33 §3): beside the fields a client writes, every other key a body
 * or a bulk item may carry. The read representation's keys (id, customer, checks, the read-only fields) with
 * values that name other records, ours and another organisation's, and plausible values; keys the representation
 * does not show but an ordinary model has (an organisation or owner id, timestamps, deleted and archived flags, a
 * customer_id); keys no model has. What they find is mass assignment: Rails without strong parameters, Django's
 * ModelSerializer with fields '__all__', Mongoose's update(req.body), Spring binding @RequestBody to the entity, a
 * nested customer written through. Data only: the kit sends and judges the cells (kit/inputs/keys.ts).
 *
 * Keys travel in groups, one request (a PATCH, one bulk item) per group, with a value the way writes (the marker:
 * delete_after, or a customer's full_name) that shows whether it was applied and to which record. A group holds
 * keys whose effects a read tells apart: each cell names what it could change (its reach), and a change a read
 * shows is blamed on the cells of the request that could have made it.
 */
import { READ_ONLY_CASE_FIELDS } from '../schemas.ts';

/** The ways in of the key dimension, each beside the way in of the matrix it writes through. */
export type KeyWay = 'patch-keys' | 'bulk-cases-keys' | 'bulk-customers-keys';
export const KEY_WAYS: readonly KeyWay[] = ['patch-keys', 'bulk-cases-keys', 'bulk-customers-keys'];

/** The oracles of a key cell: never a 5xx, its own record only, read-only values kept, hidden attributes kept. */
export type KeyOracle = 'answered' | 'own-record' | 'read-only' | 'hidden';

/** What the two oracles the value matrix does not have say (answered and own-record: src/spec/inputs/matrix.ts). */
export const KEY_ORACLES: Readonly<Record<Extract<KeyOracle, 'read-only' | 'hidden'>, string>> = {
  'read-only':
    'read-only values stay as they were: a key other than a writable field changes no field of the record (the ' +
    'read-only ones, and the writable ones it was not sent), and updated_at never to the value a client sent',
  hidden:
    'a hidden attribute is never assigned: the record stays in its organisation (we read it, the peer does not) ' +
    'and is neither deleted nor archived by a key',
};

/** The requirement that owns each oracle on each key way in. */
export const KEY_OWNERS: Readonly<Record<KeyWay, Readonly<Record<KeyOracle, string>>>> = {
  'patch-keys': {
    answered: 'CASE-PATCH-ANSWERED',
    'own-record': 'CASE-PATCH-OWN-RECORD',
    'read-only': 'CASE-PATCH-READ-ONLY-UNCHANGED',
    hidden: 'CASE-PATCH-HIDDEN-KEYS',
  },
  'bulk-cases-keys': {
    answered: 'BULK-CASES-ANSWERED',
    'own-record': 'BULK-CASES-OWN-RECORD',
    'read-only': 'BULK-CASES-READ-ONLY-UNCHANGED',
    hidden: 'BULK-CASES-HIDDEN-KEYS',
  },
  'bulk-customers-keys': {
    answered: 'BULK-CUSTOMERS-ANSWERED',
    'own-record': 'BULK-CUSTOMERS-OWN-RECORD',
    'read-only': 'BULK-CUSTOMERS-READ-ONLY-UNCHANGED',
    hidden: 'BULK-CUSTOMERS-HIDDEN-KEYS',
  },
};

/** The suite file that sends the key cells. */
export const KEY_SUITE = 'inputs-keys';

/**
 * The groups a way's keys travel in, one request each: read-only keys with plausible values; keys naming our
 * other records; keys naming the peer's; an organisation or owner key valued as the peer's client id, 1 or 2 (the
 * usual first ids: one of them is likely not ours); deletion and archive flags, and keys no model has.
 */
export type KeyGroup = 'plausible' | 'ours' | 'peer' | 'org-client-id' | 'org-1' | 'org-2' | 'flags';
export const KEY_GROUPS: readonly KeyGroup[] = [
  'plausible',
  'ours',
  'peer',
  'org-client-id',
  'org-1',
  'org-2',
  'flags',
];

/**
 * What a key cell could change, as reads show it: a field of its record (`field:<name>`; `field:*` any), another
 * record (`other`: ours or the peer's named by the value), its record gone from our reads (`gone`), its record read
 * by the peer (`moved`), the write applied elsewhere than to its record (`not-applied`).
 */
export type Reach = `field:${string}` | 'other' | 'gone' | 'moved' | 'not-applied';

/**
 * How the kit makes a cell's value: `plausible` (a value of the key's type the record does not hold), the id of
 * another record (`case`, `customer`, `check`: ours in the group `ours`, the peer's in `peer`), `nested-customer`
 * and `nested-checks` (the representation's nested objects naming that record), `org` (the group's organisation
 * value), `true`/`false`, `past` (a timestamp of 2001), `set` (a MongoDB update operator writing read-only
 * fields), `unknown` (a key no model has).
 */
export type KeyValue =
  | 'plausible'
  | 'case'
  | 'customer'
  | 'nested-customer'
  | 'nested-checks'
  | 'org'
  | 'true'
  | 'false'
  | 'past'
  | 'set'
  | 'unknown';

export interface KeyCellSpec {
  /** `patch-keys/json/customer/peer`. */
  readonly id: string;
  readonly way: KeyWay;
  readonly encoding: 'json';
  /** The key as sent. */
  readonly field: string;
  /** The group it travels in, which names its value's kind. */
  readonly kind: KeyGroup;
  /** What a conforming server does with it: ignore it (2xx) or refuse it (4xx), never apply it. */
  readonly verdict: 'ignore';
  readonly oracles: readonly KeyOracle[];
  readonly value: KeyValue;
  readonly reach: readonly Reach[];
}

const ORACLES: readonly KeyOracle[] = ['answered', 'own-record', 'read-only', 'hidden'];

/** Keys an ordinary model names its organisation or owner with. */
export const ORG_KEYS = [
  'organisation',
  'organisation_id',
  'organization',
  'organization_id',
  'org_id',
  'tenant',
  'tenant_id',
  'owner_id',
  'account_id',
  'user_id',
  'created_by',
  'updated_by',
] as const;

/** Deletion and archive flags and timestamps an ordinary model has. */
const FLAG_KEYS: readonly [string, KeyValue][] = [
  ['is_deleted', 'true'],
  ['deleted', 'true'],
  ['deleted_at', 'past'],
  ['archived', 'true'],
  ['is_archived', 'true'],
  ['archived_at', 'past'],
  ['is_active', 'false'],
  ['active', 'false'],
];

/** An identifier of another case, by the names models give one beside `id`. */
const CASE_ALIASES = ['pk', '_id', 'case_id'] as const;

const MOVED: readonly Reach[] = ['gone', 'moved', 'field:customer'];
const ELSEWHERE: readonly Reach[] = ['other', 'not-applied', 'gone', 'field:id'];

/** The read-only case keys with plausible values: each changes its own field only. */
function plausibleCaseKeys(way: KeyWay): [string, KeyValue, Reach[]][] {
  const keys = [...READ_ONLY_CASE_FIELDS, 'updated_at'].filter((k) => way === 'patch-keys' || k !== 'id');
  return keys.map((k) => {
    if (k === 'id') return [k, 'plausible', ['gone', 'field:id', 'not-applied']];
    if (k === 'origin_url') return [k, 'plausible', ['field:origin_url', 'field:external_id']];
    return [k, 'plausible', [`field:${k}`]];
  });
}

/** The keys of a group on a way in: key, value, reach. */
function groupKeys(way: KeyWay, group: KeyGroup): [string, KeyValue, readonly Reach[]][] {
  const customers = way === 'bulk-customers-keys';
  switch (group) {
    case 'plausible':
      return customers
        ? [
            ['created_at', 'past', ['field:*']],
            ['updated_at', 'past', ['field:*']],
          ]
        : plausibleCaseKeys(way);
    case 'ours':
    case 'peer':
      if (customers)
        return [
          ['pk', 'customer', ['other', 'not-applied']],
          ['_id', 'customer', ['other', 'not-applied']],
          ['customer_id', 'customer', ['other', 'not-applied']],
          ['case_id', 'case', ['other', 'field:*']],
          ['case', 'case', ['other', 'field:*']],
        ];
      return [
        ...(way === 'patch-keys' ? [['id', 'case', ELSEWHERE] as [string, KeyValue, readonly Reach[]]] : []),
        ...CASE_ALIASES.map((k): [string, KeyValue, readonly Reach[]] => [k, 'case', ELSEWHERE]),
        ['customer', 'nested-customer', ['field:customer', 'other']],
        ['customer_id', 'customer', ['field:customer', 'other']],
        ['checks', 'nested-checks', ['field:checks', 'other']],
      ];
    case 'org-client-id':
    case 'org-1':
    case 'org-2':
      return ORG_KEYS.map((k) => [k, 'org', MOVED]);
    case 'flags':
      return [
        ...FLAG_KEYS.map(([k, v]): [string, KeyValue, readonly Reach[]] => [k, v, MOVED]),
        ['$set', 'set', ['field:*']],
        ['screenconf_unknown', 'unknown', []],
      ];
  }
}

/** Every key cell, in a stable order. */
export function keyCells(): KeyCellSpec[] {
  return KEY_WAYS.flatMap((way) =>
    KEY_GROUPS.flatMap((group) =>
      groupKeys(way, group).map(([field, value, reach]) => ({
        id: `${way}/json/${field}/${group}`,
        way,
        encoding: 'json' as const,
        field,
        kind: group,
        verdict: 'ignore' as const,
        oracles: ORACLES,
        value,
        reach,
      })),
    ),
  );
}

/** Every requirement the key dimension judges, once each. */
export const KEY_REQUIREMENTS: readonly string[] = [
  ...new Set(Object.values(KEY_OWNERS).flatMap((o) => Object.values(o))),
];
