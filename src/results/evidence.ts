/** What a result shows of the server: the exchanges behind it, with curl reproductions. */
import { z } from 'zod';
import { ExchangeSchema } from './exchange.ts';
import { obj, text } from './schema-helpers.ts';

export const PropertyEvidenceSchema = obj({
  name: text('the property'),
  counterexample: text(
    'the shrunk input that breaks it, compact: long strings cut with their length, invisible characters escaped',
  ),
  seed: z.int().describe("fast-check's seed of this property"),
  path: text("fast-check's replay path"),
  runSeed: z.int().describe('the run seed (--seed) that reproduces it'),
  numRuns: z.int(),
  numShrinks: z.int(),
  notation: text("the counterexample in fast-check's own notation (at most 4000 characters)").optional(),
  shrinkBudget: obj({
    ms: z.int().describe('how long shrinking ran'),
    requests: z.int().describe('requests it sent'),
    reached: z.boolean().describe('the budget ran out: the counterexample is smaller than the first, not minimal'),
  })
    .describe('what shrinking spent against the target')
    .optional(),
})
  .describe('a property-based check: the counterexample and how to replay it')
  .meta({ id: 'PropertyEvidence' });

export const EvidenceSchema = obj({
  exchanges: z
    .array(ExchangeSchema)
    .describe('the exchanges the failed assertion judged (marked judged) and the last ones before it, oldest first'),
  curl: z.array(z.string()).describe('one curl command per exchange; secrets are $SCREENCONF_* variables'),
  property: PropertyEvidenceSchema.optional(),
})
  .describe('what the server was sent and answered')
  .meta({ id: 'Evidence' });

export type PropertyEvidence = z.infer<typeof PropertyEvidenceSchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;

/** What a check recorded for an OBSERVE requirement. */
export interface Observation {
  requirement: string;
  text: string;
  /** The exchange just before the observation was recorded (the first observation of an id in a check). */
  evidence?: Evidence;
}
