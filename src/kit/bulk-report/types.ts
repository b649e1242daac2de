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
  /**
   * Parts of the answer that report items but could not be tied to one (a label whose index could count from 0
   * or from 1, a message naming no item) or whose status could not be read: an item they may be about is not
   * "not reported", it could not be judged.
   */
  unplaced: Unplaced[];
}

/** A part of an answer that reports items, not tied to one of them. */
export interface Unplaced {
  /** Where in the answer (`$.errors["item 1"]`). */
  where: string;
  /** What it reports of its item, when it says. */
  outcome?: 'failed' | 'succeeded';
  /** The request items it is about, when known (an entry of an item whose status is not read); else any. */
  items?: number[];
  /** Why it stays unplaced, in a few words. */
  why: string;
}
