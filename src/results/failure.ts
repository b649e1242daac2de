/**
 * A conformance failure as data: what was checked, what was expected and received, the request
 * it judged. Assertions throw a ConformanceFailure carrying these fields; only reporters turn them
 * into text (the message is kept for people and for vitest's own output).
 */
import type { z } from 'zod';
import type { PropertyEvidence } from './evidence.ts';
import { type Exchange, RequestRefSchema, requestRef } from './exchange.ts';
import { obj, text } from './schema-helpers.ts';

/** The fields a failed assertion fills in. */
export const FailureDetailSchema = obj({
  what: text('what was checked (the request or read, in words)'),
  expected: text('what a conforming server does').optional(),
  received: text('what this server did').optional(),
  request: RequestRefSchema.describe('the request whose answer was judged').optional(),
});
export type FailureDetail = z.infer<typeof FailureDetailSchema>;

/** The message people read: `what`, then Expected / Received on lines of their own. */
export function failureMessage(detail: Pick<FailureDetail, 'what' | 'expected' | 'received'>): string {
  const lines = [detail.what];
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
  /** Text after Expected / Received (a counterexample, the shape a recogniser saw). */
  more?: string;
  /** A property-based check: the shrunk counterexample and how to replay it. */
  property?: PropertyEvidence;
}

/** A broken requirement, as opposed to a harness fault (src/errors.ts). */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly #detail: FailureDetail;
  readonly #judged: Exchange[];
  readonly #property: PropertyEvidence | undefined;

  constructor(init: FailureInit) {
    const judged = (init.judged ?? []).filter((e): e is Exchange => e !== undefined);
    const detail: FailureDetail = {
      what: init.what,
      ...(init.expected !== undefined ? { expected: init.expected } : {}),
      ...(init.received !== undefined ? { received: init.received } : {}),
    };
    const last = judged.at(-1);
    if (last) detail.request = requestRef(last);
    super(init.more ? `${failureMessage(detail)}\n${init.more}` : failureMessage(detail));
    this.#detail = detail;
    this.#judged = judged;
    this.#property = init.property;
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

  get property(): PropertyEvidence | undefined {
    return this.#property;
  }
}
