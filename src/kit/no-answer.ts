/**
 * A request the target got and gave no answer to (its connection closed or reset, nothing within the timeout) while it
 * still answered the liveness read sent right after (client/liveness.ts) is answered: badly. The check that sent it
 * fails on that exchange, as on any answer that breaks its requirement: the failure names the request, shows the
 * exchange with no answer as the one judged, and its reproduction sends it again expecting an answer. A target that
 * answered no liveness read is gone instead: the error stays the harness's (not judged), and the run stops sending.
 */
import { exchangeOfNoAnswer } from '../client/transport.ts';
import { ConformanceFailure } from '../results/failure.ts';

/** The failure of a request that got no answer from a target that still answers, or undefined for any other error. */
export function noAnswerFailure(err: unknown): ConformanceFailure | undefined {
  const exchange = exchangeOfNoAnswer(err);
  if (!exchange) return undefined;
  return new ConformanceFailure({
    what: 'the answer to a request the check sent (a connection closed or reset, or silence, is no answer)',
    expected: "an HTTP answer within the run's --timeout-ms: a 2xx or a 4xx, never a 5xx",
    received: `no answer: ${exchange.error ?? 'none came'}`,
    judged: [exchange],
    expect: { status: ['2xx', '4xx'] },
  });
}

/** The error as a check records it: a request that got no answer from a target that still answers is a failure. */
export function asJudged(err: unknown): unknown {
  return noAnswerFailure(err) ?? err;
}

/**
 * Rethrows any error but that of a request that got no answer from a target that still answers: that one is the
 * failure of the check the request belongs to, and a check that sent it only as setup goes on without it.
 */
export function unlessNoAnswer(err: unknown): undefined {
  if (noAnswerFailure(err)) return undefined;
  throw err;
}
