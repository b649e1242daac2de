/** What the recogniser reads from a bulk answer, and how it is told what was sent. */
import type { Id } from '../../spec/index.ts';

export type ItemReport = 'failed' | 'succeeded' | 'unreported' | 'contradictory';

/** A request item as the recogniser matches it: a bare number is an id (bulk check delete). */
export type BulkRequestItem = Id | { readonly id?: unknown; readonly external_id?: unknown };

export interface BulkReportOptions {
  /** JSON path naming the failure list exactly (`$.errors`): the run's bulkFailuresPath. */
  failuresPath?: string;
}

export interface BulkReport {
  /** False when no part of the answer could be read as a per-item report. */
  recognised: boolean;
  /** The shape recognised, in a few words; 'unrecognised' when none was. */
  shape: string;
  /** Per request item, by index. */
  items: ItemReport[];
  /** Per request item: where the answer reports it (`$.results[3]`); empty when nowhere. */
  where: string[][];
  /** What was seen but named no requested item, for messages. */
  notes: string[];
}
