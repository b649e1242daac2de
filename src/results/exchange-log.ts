/**
 * The exchange log of a run: every exchange the harness sent and received (redacted as recorded),
 * one JSON line each, tagged with where in the run it happened: the check (suite, name, the
 * requirement ids it names), a suite file's teardown, or the runner's own preflight and sweep.
 * Workers append to it while the suites run; exchanges.har is assembled from it.
 */
import { z } from 'zod';
import { ExchangeSchema } from './exchange.ts';
import { obj, text } from './schema-helpers.ts';

export const ExchangeStageSchema = z
  .enum(['check', 'teardown', 'preflight', 'sweep'])
  .describe('check: inside a check; teardown: a suite file cleaning up; preflight and sweep: the runner');

export const ExchangeTagSchema = obj({
  stage: ExchangeStageSchema,
  suite: text('suite file name').optional(),
  check: text('full name of the check').optional(),
  requirements: z.array(z.string()).describe('the requirement ids the check names').optional(),
  attempt: z.int().describe("the check's attempt: 2 when a failed check is re-run").optional(),
  property: text('the property whose predicate sent it').optional(),
  pass: z
    .int()
    .describe("the predicate's run in the attempt (1, 2, …), counted over the check's properties")
    .optional(),
});

export const LoggedExchangeSchema = obj({ exchange: ExchangeSchema }).extend(ExchangeTagSchema.shape);

export type ExchangeTag = z.infer<typeof ExchangeTagSchema>;
export type LoggedExchange = z.infer<typeof LoggedExchangeSchema>;

/** The lines of an exchange log, in order; a line that is not an entry (a write cut short) is left out. */
export function parseExchangeLog(text: string): LoggedExchange[] {
  const out: LoggedExchange[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = LoggedExchangeSchema.safeParse(JSON.parse(line));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a torn line: left out
    }
  }
  return out;
}
