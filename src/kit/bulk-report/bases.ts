/**
 * Whether the indexes labels carry (`item 1`, `items[1]`) count from 0 or from 1, decided from the answer itself:
 * a base is out when it puts a label past the last item or before the first, or on an item the rest of the answer
 * reports the other way (`{"updated": [45], "errors": {"item 1": …}}` for items [45, x]: `item 1` cannot be item
 * 0, which `updated` reports a success). When both bases fit, array subscripts count from 0 (every stack that writes
 * `items[1]` does), an ordinal goes by the base under which the rest of the answer agrees with it, and otherwise
 * the labels stay unplaced: nothing in the answer tells.
 */
import type { IndexLabel } from './labels.ts';
import type { Outcome } from './vocabulary.ts';

export interface PendingLabel {
  index: IndexLabel;
  outcome: Outcome | 'contradictory';
  where: string;
}

export type Signal = { outcome: Outcome; where: string };

export type BaseDecision = { base: 0 | 1; why: string } | { base: undefined; why: string };

function quoted(labels: readonly PendingLabel[]): string {
  const texts = [...new Set(labels.map((l) => JSON.stringify(l.index.text)))];
  return texts.length > 3 ? `${texts.slice(0, 3).join(', ')}…` : texts.join(', ');
}

/** Why base `b` does not fit the answer, or undefined when it does. */
function misfit(labels: readonly PendingLabel[], b: 0 | 1, signals: readonly Signal[][]): string | undefined {
  for (const l of labels) {
    const i = l.index.n - b;
    if (i < 0 || i >= signals.length) return `from ${b}, ${JSON.stringify(l.index.text)} would name no item`;
  }
  for (const l of labels) {
    if (l.outcome === 'contradictory') continue;
    const other = signals[l.index.n - b]!.find((s) => s.outcome !== l.outcome);
    if (other)
      return (
        `from ${b}, ${JSON.stringify(l.index.text)} (${l.outcome}) would be item ${l.index.n - b}, ` +
        `which ${other.where} reports ${other.outcome}`
      );
  }
  return undefined;
}

function agreements(labels: readonly PendingLabel[], b: 0 | 1, signals: readonly Signal[][]): number {
  return labels.filter((l) => signals[l.index.n - b]!.some((s) => s.outcome === l.outcome)).length;
}

/** The base of one kind of labels (all subscripts, or all ordinals) of an answer; `signals`: the rest's, per item. */
export function decideBase(labels: readonly PendingLabel[], signals: readonly Signal[][]): BaseDecision {
  const kind = labels[0]!.index.kind;
  const which = `${kind === 'subscript' ? 'subscripts' : 'item labels'} ${quoted(labels)}`;
  const off = { 0: misfit(labels, 0, signals), 1: misfit(labels, 1, signals) } as const;
  if (off[0] === undefined && off[1] !== undefined) return { base: 0, why: `${which} counted from 0 (${off[1]})` };
  if (off[1] === undefined && off[0] !== undefined) return { base: 1, why: `${which} counted from 1 (${off[0]})` };
  if (off[0] !== undefined)
    return { base: undefined, why: `${which} fit no count from 0 nor from 1 (${off[0]}; ${off[1]})` };
  if (kind === 'subscript') return { base: 0, why: `${which} counted from 0, as array subscripts are` };
  const agree = { 0: agreements(labels, 0, signals), 1: agreements(labels, 1, signals) } as const;
  if (agree[0] > 0 && agree[1] === 0)
    return { base: 0, why: `${which} counted from 0 (so the rest of the answer agrees with them)` };
  if (agree[1] > 0 && agree[0] === 0)
    return { base: 1, why: `${which} counted from 1 (so the rest of the answer agrees with them)` };
  return {
    base: undefined,
    why: `${which} may count items from 0 or from 1, and nothing else in the answer tells which`,
  };
}
