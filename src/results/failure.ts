/**
 * A conformance failure as data: what was checked, what was expected and received, the request
 * it judged. Assertions throw a ConformanceFailure carrying these fields; only reporters turn them
 * into text (the message is kept for people and for vitest's own output).
 */
import { z } from 'zod';
import type { PropertyEvidence } from './evidence.ts';
import { describeRequest, type Exchange, RequestRefSchema, requestRef } from './exchange.ts';
import { obj, text } from './schema-helpers.ts';

/**
 * What the judged answer must show, as data a reproduction script can check: a status among
 * patterns (`200`, `4xx`), fields of the JSON body with their values (as JSON), values fields
 * must not hold (a read back after a request that was to change nothing), or an id no deleted record had.
 */
export const ExpectationSchema = obj({
  status: z
    .array(z.string().regex(/^[1-5][0-9x]{2}$/))
    .describe('a conforming answer has one of these statuses ("200", "4xx")')
    .optional(),
  fields: z
    .array(
      obj({
        name: text('a top-level field of the JSON body'),
        expected: text('its value in a conforming answer, as JSON'),
        received: text('its value in the judged answer, as JSON ("absent" when left out)'),
      }),
    )
    .describe('fields of the body whose values were judged')
    .optional(),
  unlike: z
    .array(
      obj({
        name: text('a field of the JSON body'),
        value: text(
          'a value a conforming answer does not show in it, as JSON (one a rejected request sent, a value outside ' +
            'an enum); "absent": a conforming answer has the field',
        ),
      }),
    )
    .describe('fields a conforming answer does not hold these values in')
    .optional(),
  newId: z
    .literal(true)
    .describe(
      'the judged request created a record whose id no record deleted before it had (CASE-ID-NOT-REUSED): a ' +
        'reproduction compares it with the ids of the records its earlier steps deleted',
    )
    .optional(),
  header: obj({
    name: text('a response header'),
    contains: text('text its value holds in a conforming answer (compared ignoring case; empty: present)'),
  })
    .describe('a header of the answer that was judged')
    .optional(),
})
  .describe('what the judged answer must show, for a reproduction script to check')
  .meta({ id: 'Expectation' });
export type Expectation = z.infer<typeof ExpectationSchema>;

/** The fields a failed assertion fills in. */
export const FailureDetailSchema = obj({
  what: text('what was checked (the request or read, in words)'),
  expected: text('what a conforming server does').optional(),
  received: text('what this server did').optional(),
  request: RequestRefSchema.describe('the request whose answer was judged').optional(),
  expect: ExpectationSchema.optional(),
});
export type FailureDetail = z.infer<typeof FailureDetailSchema>;

const HEADLINE_RECEIVED = 100;

/**
 * The first line of a failure: the judged request (method, path, credential), then expected vs received, e.g.
 * `PATCH /api/cases/5/ with our access token: expected a 4xx rejection, received HTTP 200 {"id":5,…`.
 */
export function failureHeadline(detail: Pick<FailureDetail, 'expected' | 'received' | 'request'>): string | undefined {
  if (!detail.request) return undefined;
  const cut = (text: string) => {
    const line = text.split('\n')[0]!;
    return line.length > HEADLINE_RECEIVED ? `${line.slice(0, HEADLINE_RECEIVED)}…` : line;
  };
  // An answer is named by its status here; its body is on the Received line.
  const received = /^HTTP \d{3}\b/.exec(detail.received ?? '')?.[0] ?? cut(detail.received ?? '');
  const verdict = detail.expected !== undefined ? `: expected ${cut(detail.expected)}, received ${received}` : '';
  return `${describeRequest(detail.request)}${verdict}`;
}

/** The message people read: the headline (when the request is known), `what`, then Expected / Received. */
export function failureMessage(detail: Pick<FailureDetail, 'what' | 'expected' | 'received' | 'request'>): string {
  const headline = failureHeadline(detail);
  const lines = headline ? [headline, detail.what] : [detail.what];
  if (detail.expected !== undefined) lines.push(`Expected: ${detail.expected}`);
  if (detail.received !== undefined) lines.push(`Received: ${detail.received}`);
  return lines.join('\n');
}

export interface FailureInit {
  what: string;
  expected?: string;
  received?: string;
  /** The exchanges whose answers broke the requirement, when the assertion knows them. */
  judged?: readonly (Exchange | undefined)[];
  /** What the judged answer must show, when the assertion can say it as data. */
  expect?: Expectation;
  /** Text after Expected / Received (a counterexample, the shape a recogniser saw). */
  more?: string;
  /** A property-based check: the shrunk counterexample and how to replay it. */
  property?: PropertyEvidence;
}

/** A broken requirement, as opposed to a harness fault (src/errors.ts). */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly #detail: FailureDetail;
  #judged: Exchange[];
  readonly #property: PropertyEvidence | undefined;
  readonly #more: string | undefined;

  constructor(init: FailureInit) {
    const judged = (init.judged ?? []).filter((e): e is Exchange => e !== undefined);
    const detail: FailureDetail = {
      what: init.what,
      ...(init.expected !== undefined ? { expected: init.expected } : {}),
      ...(init.received !== undefined ? { received: init.received } : {}),
      ...(init.expect ? { expect: init.expect } : {}),
    };
    const last = judged.at(-1);
    if (last) detail.request = requestRef(last);
    super(init.more ? `${failureMessage(detail)}\n${init.more}` : failureMessage(detail));
    this.#detail = detail;
    this.#judged = judged;
    this.#property = init.property;
    this.#more = init.more;
  }

  /**
   * What vitest keeps of the error when it crosses from a worker (and writes into its output): the
   * name and message. The fields travel in the check's record (task metadata) instead.
   */
  toJSON(): { name: string; message: string } {
    return { name: this.name, message: this.message };
  }

  get detail(): FailureDetail {
    return this.#detail;
  }

  /** The exchanges the assertion judged, newest last. */
  get judged(): Exchange[] {
    return this.#judged;
  }

  /**
   * Adds exchanges the failure judged besides its own (the bulk request whose effect a read-back found wrong),
   * oldest first; the request its first line names stays the assertion's own, when it has one.
   */
  alsoJudged(exchanges: readonly (Exchange | undefined)[]): void {
    const more = exchanges.filter((e): e is Exchange => e !== undefined && !this.#judged.includes(e));
    this.#judged = [...more, ...this.#judged];
    const last = more.at(-1);
    if (this.#detail.request || !last) return;
    this.#detail.request = requestRef(last);
    this.message = this.#more ? `${failureMessage(this.#detail)}\n${this.#more}` : failureMessage(this.#detail);
  }

  get property(): PropertyEvidence | undefined {
    return this.#property;
  }
}
