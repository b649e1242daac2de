/**
 * "Did you mean": the known name closest to a mistyped one (Levenshtein distance, by
 * fastest-levenshtein), when it is close enough to be a typo rather than another word.
 */
import { distance } from 'fastest-levenshtein';

/** The closest of `known` to `word`, within a third of its length (at least 2 edits, at most 4); else undefined. */
export function closestName(word: string, known: readonly string[]): string | undefined {
  const limit = Math.min(4, Math.max(2, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const d = distance(word.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= limit ? best : undefined;
}

/** ` (did you mean "x"?)` for a close known name; empty otherwise. */
export function didYouMean(word: string, known: readonly string[], quote = (s: string) => `"${s}"`): string {
  const name = closestName(word, known);
  return name === undefined ? '' : ` (did you mean ${quote(name)}?)`;
}
