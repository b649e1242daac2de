/**
 * Sending a cell and taking what came back: an answer (any status), or silence (no answer within the
 * deadline, a broken exchange), which the answered oracle judges like a 5xx. A problem that keeps the run
 * from judging at all (the target unreachable, the run stopping) is no answer to judge: it is thrown.
 */
import { randomBytes } from 'node:crypto';
import { exchangeOfNoAnswer, type ReceivedResponse } from '../../client/transport.ts';
import { HarnessError } from '../../errors.ts';
import type { Exchange } from '../../results/exchange.ts';
import type { Tagger } from '../../spec/inputs/values.ts';
import { failed, judge, pass, type SentCell } from './cell.ts';

export interface Answer {
  res?: ReceivedResponse;
  /** Why there is no answer (the transport's message). */
  silent?: string;
  /** The exchange that got none, from a target that still answered (client/liveness.ts): what the cell judged. */
  unanswered?: Exchange;
}

/** Awaits a request: its answer, or the silence a conforming server never gives. */
export async function answerOf(request: Promise<ReceivedResponse>): Promise<Answer> {
  try {
    return { res: await request };
  } catch (err) {
    const unanswered = exchangeOfNoAnswer(err);
    if (err instanceof HarnessError && err.inCheck === 'fails')
      return { silent: err.message, ...(unanswered ? { unanswered } : {}) };
    throw err;
  }
}

/** Whether an answer is a 2xx. */
export const ok = (a: Answer) => a.res !== undefined && a.res.status >= 200 && a.res.status < 300;
/** Whether an answer is a 4xx. */
export const refused = (a: Answer) => a.res !== undefined && a.res.status >= 400 && a.res.status < 500;

/** Records a cell's answer and judges the answered oracle on it: a 2xx or a 4xx, never a 5xx or silence. */
export function answered(cell: SentCell, a: Answer, what: string): void {
  cell.exchange = a.res?.exchange ?? a.unanswered;
  if (a.res) cell.status = a.res.status;
  const judged = cell.exchange ? [cell.exchange] : [];
  if (a.silent !== undefined) judge(cell, 'answered', failed(`${what}: no answer (${a.silent})`, judged));
  else if (ok(a) || refused(a)) judge(cell, 'answered', pass(undefined, judged));
  else judge(cell, 'answered', failed(`${what}: HTTP ${a.res!.status} (a 2xx or a 4xx conforms)`, judged));
}

/** The exchanges of answers, those that have one. */
export function exchangesOf(answers: readonly Answer[]): Exchange[] {
  return answers.map((a) => a.res?.exchange).filter((e): e is Exchange => e !== undefined);
}

/** Tags of the run's matrix values: short, lower-case ASCII, unique within the worker (a random stem, a counter). */
export function tagger(): Tagger {
  const stem = randomBytes(3).toString('hex');
  let n = 0;
  return () => `m${stem}${(n++).toString(36)}`;
}
