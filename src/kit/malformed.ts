/**
 * Malformed bulk bodies (interface § Endpoints: "object with items, an array of objects" or "object
 * with ids, an array of integers"), for the requirements that a client's mistake is never a 5xx.
 */
import { stringifyJson } from '../base/json.ts';
import { RawJson } from '../client/encode.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { isId, type RequirementId } from '../spec/index.ts';
import { fractionOf } from '../spec/inputs/ids.ts';
import { expectNoServerError } from './assert.ts';
import type { CheckApi } from './check.ts';

/** One malformed body and how to name it. */
export interface MalformedBody {
  label: string;
  body: unknown;
}

/**
 * The malformed bodies of a bulk endpoint whose entries are under `key`; `entry` is a well-formed
 * entry (an item or an id) naming a record that does not exist, placed beside the broken entries.
 */
export function malformedBulkBodies(key: 'items' | 'ids', entry: unknown): MalformedBody[] {
  const fraction = isId(entry) ? fractionOf(entry) : undefined;
  const broken: [string, unknown][] =
    key === 'items'
      ? [
          ['a number', 5],
          ['a string', 'x'],
          ['null', null],
          ['an array', [entry]],
        ]
      : [
          ['"abc"', 'abc'],
          // A fraction of an id that does not exist: a parser that truncates (Jackson's default) must not reach a
          // real check. Only where a double still reads it as one (fractionOf): past 2^52, `N.5` is an integer.
          ...(fraction !== undefined ? [['a fraction', fraction] as [string, unknown]] : []),
          ['null', null],
          ['an array', [entry]],
          ['an object', { id: entry }],
        ];
  return [
    { label: `${key} empty`, body: { [key]: [] } },
    { label: `${key} missing`, body: {} },
    { label: `${key} an object`, body: { [key]: key === 'items' ? entry : { id: entry } } },
    { label: `${key} a string`, body: { [key]: stringifyJson([entry]) } },
    { label: `${key} null`, body: { [key]: null } },
    ...broken.map(([what, value]) => ({ label: `an entry that is ${what}`, body: { [key]: [entry, value] } })),
    { label: 'invalid JSON', body: new RawJson(`{"${key}": [${stringifyJson(entry)},`) },
    { label: 'a JSON array as the body', body: [entry] },
  ];
}

/**
 * Sends each malformed body; every answer must be a 2xx or a 4xx. The statuses are recorded under
 * `id` (which one a server chose is not shown); the first answer that is neither fails the check.
 */
export async function expectMalformedHandled(
  t: CheckApi,
  id: RequirementId,
  endpoint: string,
  bodies: readonly MalformedBody[],
  send: (body: unknown) => Promise<ReceivedResponse>,
): Promise<void> {
  const answers: [MalformedBody, ReceivedResponse][] = [];
  for (const b of bodies) answers.push([b, await send(b.body)]);
  t.observe(id, answers.map(([b, res]) => `${b.label}: HTTP ${res.status}`).join('; '));
  for (const [b, res] of answers) expectNoServerError(res, `${endpoint} with a malformed body (${b.label})`);
}
