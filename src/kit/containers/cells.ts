/**
 * The container cells as a run sends them (src/spec/inputs/containers.ts), and what their senders share: fresh
 * values no record holds, the one rule each answer meets told as a verdict rather than thrown, and reads that
 * say when a record could not be read instead of ending the run.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { ReceivedResponse } from '../../client/transport.ts';
import type { Exchange } from '../../results/exchange.ts';
import { ConformanceFailure } from '../../results/failure.ts';
import {
  CONTAINER_SUITE,
  CONTAINER_WAYS,
  type ContainerWay,
  containerCellSpecs,
} from '../../spec/inputs/containers.ts';
import type { Encoding, OracleName } from '../../spec/inputs/matrix.ts';
import { type CellVerdict, failed, judge, notJudged, pass, type SentCell } from '../inputs/cell.ts';
import type { Answer } from '../inputs/send.ts';

export type ContainerCells = Record<ContainerWay, SentCell[]>;

/**
 * The container cells this module sends, by way in, with no value yet (a sender fills in what it sent): all but the
 * JSON 100- and 101-item ones, which the bulk suites' limit checks judge.
 */
export function containerCells(): ContainerCells {
  const cells = Object.fromEntries(CONTAINER_WAYS.map((w) => [w, [] as SentCell[]])) as ContainerCells;
  for (const spec of containerCellSpecs())
    if (spec.suite === CONTAINER_SUITE) cells[spec.way].push({ spec, value: '', verdicts: {} });
  return cells;
}

/** The cell of `kind` in `encoding` among a way's cells. */
export function cellOf(cells: readonly SentCell[], encoding: Encoding, kind: string): SentCell {
  const found = cells.find((c) => c.spec.encoding === encoding && c.spec.kind === kind);
  if (!found) throw new Error(`no container cell ${encoding}/${kind}`);
  return found;
}

/** A value no record holds: a number within int32 and a short tag, both new within the run. */
export interface Fresh {
  n: number;
  s: string;
}

/** Hands out fresh values: a random stem and base, then a counter. */
export function freshValues(): () => Fresh {
  const stem = randomBytes(3).toString('hex');
  const base = randomInt(100_000_000, 1_000_000_000);
  let k = 0;
  return () => {
    k += 1;
    return { n: base + k, s: `c${stem}${k.toString(36)}` };
  };
}

/** What the cell was sent with, for messages: `value` stays short, the request is in the exchange. */
export function sent(cell: SentCell, shown: string, a: Answer): void {
  cell.value = shown;
  if (a.res) {
    cell.exchange = a.res.exchange;
    cell.status = a.res.status;
  }
}

/**
 * The one rule an assertion of the kit states (expectBatchSuccess, expectOverLimitRefused), as a line: undefined
 * when the answer meets it. The rule is the kit's; a cell records its breach instead of ending the check.
 */
export function breach(rule: () => unknown): string | undefined {
  try {
    rule();
    return undefined;
  } catch (err) {
    if (!(err instanceof ConformanceFailure)) throw err;
    const d = err.detail;
    const received = (d.received ?? '').split('\n')[0]!.slice(0, 240);
    return `${d.what}: expected ${d.expected ?? 'otherwise'}; received ${received}`;
  }
}

/** No answer, or an answer that is neither a 2xx nor a 4xx: why, as a line; undefined for a 2xx or a 4xx. */
export function unanswered(what: string, a: Answer): string | undefined {
  if (a.silent !== undefined) return `${what}: no answer (${a.silent})`;
  const status = a.res!.status;
  if (status >= 200 && status < 500 && !(status >= 300 && status < 400)) return undefined;
  return `${what}: HTTP ${status} (a 2xx or a 4xx conforms)`;
}

/** Judges `oracle` of the cells: failed with `why` when given, else passed (with a note). */
export function verdict(
  cells: readonly SentCell[],
  oracle: OracleName,
  why: string | undefined,
  judged: readonly (ReceivedResponse | Exchange | undefined)[],
  note?: string,
): void {
  const exchanges = judged.map((j) => (j && 'request' in j ? j : j?.exchange));
  const v: CellVerdict = why ? failed(why, exchanges) : pass(note, exchanges);
  for (const c of cells) judge(c, oracle, v);
}

/** Marks the cells' `oracle` not judged, with why. */
export function unjudged(cells: readonly SentCell[], oracle: OracleName, why: string): void {
  for (const c of cells) judge(c, oracle, notJudged(why));
}

/** A verdict's reason, and whether the answer's rule or the reads after it gave it. */
export interface Finding {
  why?: string | undefined;
  byAnswer: boolean;
}

/** The answer's rule first: what it found, else what the reads found. */
export function finding(answer: string | undefined, reads: () => string | undefined): Finding {
  return answer ? { why: answer, byAnswer: true } : { why: reads(), byAnswer: false };
}

/**
 * The exchanges a finding rests on, the decisive one last: a failure names its last judged exchange as its request,
 * which its reproduction sends again (the answer where its rule failed, else the read that showed the change).
 */
export function resting(
  f: Finding,
  answer: ReceivedResponse | undefined,
  reads: readonly (ReceivedResponse | undefined)[],
): (ReceivedResponse | undefined)[] {
  return f.byAnswer ? [...reads, answer] : [answer, ...reads];
}
