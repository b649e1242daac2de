/** What a result shows of the server: the exchanges behind it, with curl reproductions. */
import { z } from 'zod';
import { type Id, idFromText } from '../spec/id.ts';
import { type Exchange, ExchangeSchema } from './exchange.ts';
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

/** Exchanges (or what carries their time) in the order sent; those sent in one millisecond keep their order. */
export function oldestFirst<T extends { at: string }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * Numbers a request names: path segments, and ids in its body (`"id": 5`, `"case_id": 5`, `"ids": [5, 6]`); exact
 * beyond 2^53 (src/spec/id.ts), where ids a few apart are one JS number.
 */
export function idsNamed(e: Exchange): Id[] {
  const out: Id[] = [];
  for (const m of e.request.url.matchAll(/\/(\d+)(?=\/|$|\?)/g)) out.push(idFromText(m[1]!)!);
  for (const m of (e.request.body ?? '').matchAll(/"(?:ids?|[a-z_]*_ids?)"\s*:\s*(\[[\d\s,]*\]|\d+)/g))
    for (const n of m[1]!.matchAll(/\d+/g)) out.push(idFromText(n[0])!);
  return out;
}

/** Ids a request created: those in the 2xx answer to a POST that names none (a case with its customer and checks). */
export function idsCreated(e: Exchange): Id[] {
  const { response } = e;
  if (e.request.method !== 'POST' || !response || response.status < 200 || response.status > 299) return [];
  if (idsNamed(e).length) return [];
  return [...response.body.matchAll(/"id"\s*:\s*(\d+)/g)].map((m) => idFromText(m[1]!)!);
}

/**
 * The setup of the judged exchanges among a check's exchanges (oldest first): the requests before the last judged
 * one that created what the judged ones name, or changed it (any method but GET), and in turn their own setup.
 * Token requests are left out: a reproduction gets its own tokens.
 */
export function setupOf(all: readonly Exchange[], judged: readonly Exchange[]): Exchange[] {
  const last = Math.max(...judged.map((e) => all.indexOf(e)));
  const wanted = new Set(judged.flatMap(idsNamed));
  const kept: Exchange[] = [];
  for (let i = last - 1; i >= 0; i--) {
    const e = all[i]!;
    if (judged.includes(e) || e.request.url.includes('/oauth/token/')) continue;
    const named = idsNamed(e);
    const makes = idsCreated(e).some((id) => wanted.has(id));
    const changes = e.request.method !== 'GET' && named.some((id) => wanted.has(id));
    if (!makes && !changes) continue;
    kept.unshift(e);
    for (const id of named) wanted.add(id);
  }
  return kept;
}
