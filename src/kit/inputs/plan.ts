/**
 * How the cells of a way share records, so that the matrix costs about a request per cell and a read per
 * five: each record, each round, gets at most one cell per field that may change it (a reader: a value the
 * server may take), sent first, then any number that must not (rejects); one read then shows every field.
 * A value a refused cell wrongly left behind is told from the reader's by its marker; the reader's by
 * being the one value allowed. Readers of one encoding, all accepted by a conforming server, travel
 * together in one request (a PATCH of five fields), split one by one only when the server refuses them.
 */
import type { SentCell } from './cell.ts';

/** What a record gets in one round: readers (each a group sent in one request) and rejects, field by field. */
export interface RecordRound {
  readers: SentCell[][];
  rejects: SentCell[];
}

/** Whether a cell may change what it writes (a value the server may take) or must not. */
export function isReader(cell: SentCell): boolean {
  if (cell.naming) return cell.naming !== 'none';
  return cell.expect?.verdict !== 'reject';
}

/**
 * Plans the rounds of `cells` over `records` records: rounds[r][i] is what record i gets in round r. Readers
 * that must be accepted (`accept`) and share an encoding are grouped up to one per field (`together`);
 * every other reader goes alone. Rejects are spread evenly over the rounds and records, after the readers.
 */
export function planRounds(
  cells: readonly SentCell[],
  records: number,
  fieldOf: (c: SentCell) => string,
  together: (c: SentCell) => string | undefined,
): RecordRound[][] {
  const units: SentCell[][] = [];
  // Groups of accepted readers: per group key (an encoding), the n-th reader of each field together.
  const byKey = new Map<string, Map<string, SentCell[]>>();
  for (const c of cells.filter(isReader)) {
    const key = together(c);
    if (key === undefined) {
      units.push([c]);
      continue;
    }
    const fields = byKey.get(key) ?? new Map<string, SentCell[]>();
    byKey.set(key, fields);
    const list = fields.get(fieldOf(c)) ?? [];
    list.push(c);
    fields.set(fieldOf(c), list);
  }
  for (const fields of byKey.values()) {
    const depth = Math.max(...[...fields.values()].map((l) => l.length));
    for (let n = 0; n < depth; n++) {
      const group = [...fields.values()].map((l) => l[n]).filter((c): c is SentCell => c !== undefined);
      units.unshift(group);
    }
  }
  const rounds: RecordRound[][] = [];
  const queue = [...units];
  while (queue.length > 0) {
    const round: RecordRound[] = Array.from({ length: records }, () => ({ readers: [], rejects: [] }));
    for (const slot of round) {
      const used = new Set<string>();
      for (let i = 0; i < queue.length; ) {
        const unit = queue[i]!;
        if (unit.some((c) => used.has(fieldOf(c)))) {
          i++;
          continue;
        }
        for (const c of unit) used.add(fieldOf(c));
        slot.readers.push(unit);
        queue.splice(i, 1);
      }
    }
    rounds.push(round);
  }
  if (rounds.length === 0) rounds.push(Array.from({ length: records }, () => ({ readers: [], rejects: [] })));
  const rejects = cells.filter((c) => !isReader(c));
  const slots = rounds.flat();
  for (const [i, c] of rejects.entries()) slots[i % slots.length]!.rejects.push(c);
  return rounds;
}
