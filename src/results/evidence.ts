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
  notation: text(
    "the counterexample in fast-check's own notation (at most 4000 characters, replay paths of command sequences kept)",
  ).optional(),
  examples: z
    .int()
    .describe('fixed examples checked before the generated values, which its replay path counts')
    .optional(),
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
 * The name of a body field that holds ids of records (`id`, `ids`, `case_id`, `check_ids`): not `external_id` nor
 * `client_id`, values the client chose (a number sent as an external_id is a value, not a record).
 */
const ID_FIELD = '(?:ids?|(?!(?:external|client)_ids?\\b)[a-z_]*_ids?)';
/** A field of JSON text (a JSON body, a multipart part) and its id or list of ids. */
const JSON_IDS = new RegExp(`"${ID_FIELD}"\\s*:\\s*(\\[[\\d\\s,]*\\]|\\d+)`, 'g');
/** The same in JSON text sent as a form value (`items=%5B%7B%22id%22%3A72%7D%5D`), and a form field of its own. */
const FORM_IDS = new RegExp(
  `%22${ID_FIELD}%22(?:\\+|%20)*%3A(?:\\+|%20)*(%5B(?:\\d|%2C|\\+|%20)*%5D|\\d+)|(?:^|&)${ID_FIELD}=(\\d+)(?=&|$)`,
  'gi',
);
/** A number in a value, not a digit of a percent-escape (`%5B`, `%2C`). */
const NUMBER = /(?<!%[0-9A-Fa-f]?)\d+/g;

/** Where the ids of a request body are: each one's offset in the text and its digits, in the order of the text. */
export function bodyIdSpans(body: string | undefined): { start: number; text: string }[] {
  if (!body) return [];
  const spans: { start: number; text: string }[] = [];
  for (const re of [JSON_IDS, FORM_IDS]) {
    for (const m of body.matchAll(re)) {
      const value = m[1] ?? m[2]!;
      // The value ends the match.
      const at = m.index + m[0].length - value.length;
      for (const n of value.matchAll(NUMBER)) spans.push({ start: at + n.index, text: n[0] });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * Numbers a request names: path segments, and ids in its body (`"id": 5`, `"case_id": 5`, `"ids": [5, 6]`, as JSON,
 * in a multipart part or in a form value); exact beyond 2^53 (src/spec/id.ts), where ids a few apart are one JS number.
 */
export function idsNamed(e: Exchange): Id[] {
  const out: Id[] = [];
  for (const m of e.request.url.matchAll(/\/(\d+)(?=\/|$|\?)/g)) out.push(idFromText(m[1]!)!);
  for (const n of bodyIdSpans(e.request.body)) out.push(idFromText(n.text)!);
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
 * Values a request sends that name a record as an id does: the harness's own external ids (`"screenconf-…"`), which the
 * interface keeps unique per organisation, so what a request sending one does depends on the requests that gave that
 * value to a record (a PATCH rejected because another case holds the external_id it sends).
 */
export function valuesSent(e: Exchange): string[] {
  return [...(e.request.body ?? '').matchAll(/"(screenconf-[^"\\]+)"/g)].map((m) => m[1]!);
}

/**
 * The setup of the judged exchanges among a check's exchanges (oldest first): the requests before the last judged
 * one that created what the judged ones name, changed it (any method but GET), or sent a value they send (an
 * external_id another case held), and in turn their own setup (what they name, create or send), up to a fixed point:
 * the holder of a value is set up with what changed it after its creation. Token requests are left out: a
 * reproduction gets its own tokens, and so are requests sent again with a new one (`superseded`).
 */
export function setupOf(all: readonly Exchange[], judged: readonly Exchange[]): Exchange[] {
  const last = Math.max(...judged.map((e) => all.indexOf(e)));
  const ids = new Set(judged.flatMap(idsNamed));
  const values = new Set(judged.flatMap(valuesSent));
  const candidates = all
    .slice(0, Math.max(0, last))
    .filter((e) => !judged.includes(e) && !e.superseded && !e.request.url.includes('/oauth/token/'))
    .map((e) => ({
      e,
      change: e.request.method !== 'GET',
      named: idsNamed(e),
      made: idsCreated(e),
      sent: valuesSent(e),
    }))
    .reverse();
  const kept = new Set<Exchange>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of candidates) {
      if (kept.has(c.e)) continue;
      const makes = c.made.some((id) => ids.has(id));
      const changes = c.change && c.named.some((id) => ids.has(id));
      const sends = c.change && c.sent.some((v) => values.has(v));
      if (!makes && !changes && !sends) continue;
      kept.add(c.e);
      grew = true;
      for (const id of [...c.named, ...c.made]) ids.add(id);
      for (const v of c.sent) values.add(v);
    }
  }
  return all.filter((e) => kept.has(e));
}
