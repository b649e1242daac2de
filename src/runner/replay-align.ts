/**
 * Whether a check run again by `screenconf replay` met the setup its run's failure was judged on. The replay is the
 * same code on the same inputs, so it sends the run's requests in the run's order, with other ids: the check's
 * exchanges in the run (its attempt that failed last, from the run's exchanges.har) and in the replay (its last
 * attempt) are aligned as two sequences, as a diff aligns lines. Two exchanges pair when their shapes are equal
 * (method, credential, path with its ids blanked); they pair better when the ids they name stand for the same records
 * as far as the sequences show (a record the sequence created is named by how many creations ago it was made, which
 * a block of requests repeated on fresh records, a property's run or a check's confirming round, names alike); and
 * the steps of the failure's evidence weigh most (a check that failed repeated the block it failed in, a passing one
 * did not: the evidence's copy is the one aligned); between alignments alike, more pairs sending the same body win.
 * A request the replay sent more or less often (a poll, a shared case made once) is skipped. Requests on several
 * records sent side by side are answered in any order, so a setup step on one record is then paired again among the
 * requests on that record alone (with the replay's record whose requests pair best with them). Each setup step of the
 * evidence (before its last judged request) must have been sent and answered with the status the run saw; after a
 * judged request the replay answered otherwise, a step it did not send is the check's own path, not a divergence.
 */
import { type Exchange, UNKNOWN_ID_FLOOR } from '../results/exchange.ts';
import type { LoggedExchange } from '../results/exchange-log.ts';
import { bodyIdSpans, oldestFirst } from '../results/evidence.ts';
import { idKeys, kindAt, parseBody, relativePath } from '../report/repro-plan.ts';

/** A step of the evidence as the reproductions number them (1-based, cleanup left out), with what the run saw. */
export interface EvidenceStep {
  n: number;
  exchange: Exchange;
}

/** How the replay met the failure's evidence. */
export type SetupMatch =
  /**
   * Every setup step was sent and answered as in the run. (The judged requests need not be: a read that shows a
   * failure, a webhook that did not come, is sent only when the check fails.)
   */
  | { kind: 'same' }
  /** The replay stopped before this setup step (it failed earlier): nothing after it was sent. */
  | { kind: 'stopped'; step: EvidenceStep }
  /** A setup step answered otherwise than in the run. */
  | { kind: 'status'; step: EvidenceStep; run: number; replay: number | undefined }
  /** A setup step the replay did not send, though it went on past it (or passed without it). */
  | { kind: 'skipped'; step: EvidenceStep };

/** A check's exchanges in a run or a replay: those of its last attempt, and the whole log they are part of. */
export interface CheckLog {
  baseUrl: string;
  /** The check's last attempt, in the order sent (cleanup left out). */
  attempt: readonly LoggedExchange[];
  /** Every exchange of the run (or replay): the cases other checks or attempts made that the check acts on. */
  all: readonly LoggedExchange[];
}

/** Past this many cells (run × replay exchanges), only the evidence is aligned, not the whole attempt. */
const MAX_CELLS = 4_000_000;

/** An exchange among its check's: when it was sent, and what. */
function identity(e: Exchange): string {
  return `${e.at} ${e.request.method} ${e.request.url}`;
}

/** What aligning compares of an exchange: method, credential, path with its ids (any number) blanked. */
function shape(e: Exchange, baseUrl: string): string {
  const path = relativePath(e.request.url, baseUrl)
    .split('?')[0]!
    .replace(/\/\d+(?=\/|$)/g, '/#');
  return `${e.request.method} ${e.request.credential ?? ''} ${e.request.organisation ?? ''} ${path}`;
}

/** The records a request names (path, then body), as `kind:id`. */
function named(e: Exchange, baseUrl: string): string[] {
  const path = relativePath(e.request.url, baseUrl).split('?')[0]!;
  const out = [...path.matchAll(/\/(\d+)(?=\/|$)/g)].map((m) => `${kindAt(path, false)}:${m[1]}`);
  for (const n of bodyIdSpans(e.request.body)) out.push(`${kindAt(path, true)}:${n.text}`);
  return out;
}

/** The records a creation made (a 2xx POST naming none), as `kind:id`; none for any other exchange. */
function created(e: Exchange, baseUrl: string): string[] {
  const status = e.response?.status ?? 0;
  if (e.request.method !== 'POST' || status < 200 || status > 299 || named(e, baseUrl).length) return [];
  return idKeys(parseBody(e.response?.body)).map((k) => `${k.kind}:${k.id}`);
}

/**
 * The ids each exchange of a sequence names, as the same in the run and its replay where they stand for the same
 * records: one the sequence created, by how many creations ago ("c0": the last); another, by the order the sequence
 * first named it ("n0"); a made-up id that names nothing, "u".
 */
function recordKeys(sequence: readonly Exchange[], baseUrl: string): string[] {
  const creation = new Map<string, number>();
  const first = new Map<string, number>();
  let creations = 0;
  return sequence.map((e) => {
    const key = named(e, baseUrl)
      .map((k) => {
        if (Number(k.split(':')[1]) >= UNKNOWN_ID_FLOOR) return 'u';
        const made = creation.get(k);
        if (made !== undefined) return `c${creations - 1 - made}`;
        if (!first.has(k)) first.set(k, first.size);
        return `n${first.get(k)}`;
      })
      .join(',');
    const made = created(e, baseUrl);
    for (const k of made) creation.set(k, creations);
    if (made.length) creations += 1;
    return key;
  });
}

/**
 * The exchanges a replay compares of a check's attempt: those sent outside a property's runs (its setup), those of
 * one run of the property (of the run, the one the evidence came from; of the replay, the first: the counterexample,
 * which a failing replay runs twice and a passing one once), and the creations, made by another check or attempt, of
 * the records they name.
 */
function sequenceOf(log: CheckLog, from: { property: string; pass: number | undefined } | undefined): Exchange[] {
  const passes = from ? log.attempt.filter((l) => l.property === from.property).map((l) => l.pass ?? 0) : [];
  const pass = from?.pass ?? Math.min(...passes);
  const own = log.attempt
    .filter((l) => !from || l.property === undefined || (l.property === from.property && l.pass === pass))
    .map((l) => l.exchange);
  const made = new Set(own.flatMap((e) => created(e, log.baseUrl)));
  const wanted = new Set(own.flatMap((e) => named(e, log.baseUrl)).filter((k) => !made.has(k)));
  const elsewhere = log.all
    .map((l) => l.exchange)
    .filter((e) => !own.includes(e) && created(e, log.baseUrl).some((k) => wanted.has(k)));
  return oldestFirst([...own, ...elsewhere]);
}

/**
 * The pairs of a weighted longest common subsequence: `weight(i, j)` (0 when they cannot pair) summed over the pairs
 * is as high as it can be, and among the alignments that reach it, each element of the first sequence is paired
 * with the earliest partner it can have (the replay's first copy of a request it sent twice). For each element of
 * the first sequence, its partner's index in the second, or -1.
 */
function align(n: number, m: number, weight: (i: number, j: number) => number): number[] {
  // best(i, j): the highest sum for the suffixes from i and from j.
  const best = new Int32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const skip = Math.max(best[at(i + 1, j)]!, best[at(i, j + 1)]!);
      const w = weight(i, j);
      best[at(i, j)] = w > 0 ? Math.max(skip, best[at(i + 1, j + 1)]! + w) : skip;
    }
  }
  const pairs = new Array<number>(n).fill(-1);
  for (let i = 0, j = 0; i < n && j < m; ) {
    const w = weight(i, j);
    if (w > 0 && best[at(i, j)] === best[at(i + 1, j + 1)]! + w) {
      pairs[i] = j;
      i++;
      j++;
    } else if (best[at(i, j + 1)] === best[at(i, j)]) j++;
    else i++;
  }
  return pairs;
}

/**
 * What aligning compares of a request's body: its text with what a replay sends otherwise blanked, the ids it names
 * and every word holding a digit (the run's tags and external_ids, values made of the time), so two requests of one
 * input (the same field, the same kind of value) compare equal and two of different inputs do not.
 */
function skeleton(e: Exchange): string {
  const body = e.request.body ?? '';
  let out = '';
  let at = 0;
  for (const n of bodyIdSpans(body)) {
    out += `${body.slice(at, n.start)}#`;
    at = n.start + n.text.length;
  }
  return `${out}${body.slice(at)}`.replace(/[A-Za-z0-9]*[0-9][A-Za-z0-9]*/g, '#');
}

/** A record of a sequence as aligning keys it (`case:5`), made-up ids that name nothing as one ("u"). */
function recordsOf(e: Exchange, baseUrl: string): string[] {
  return named(e, baseUrl).map((k) => (Number(k.split(':')[1]) >= UNKNOWN_ID_FLOOR ? 'u' : k));
}

/** The requests of a sequence that name one record alone (not a made-up id), by that record: its own stream. */
function streams(seq: readonly Exchange[], url: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  seq.forEach((e, i) => {
    const keys = recordsOf(e, url);
    if (keys.length === 1 && keys[0] !== 'u') out.set(keys[0]!, [...(out.get(keys[0]!) ?? []), i]);
  });
  return out;
}

/** What ranks two records as alike: how many of the run's requests on one pair with the other's (see alignStreams). */
interface Likeness {
  /** The pairs' weight (aligning's). */
  weight: (i: number, j: number) => number;
  /** Whether a request of the run is a setup step of the evidence. */
  setup: (i: number) => boolean;
  /** Whether two requests send the same body. */
  same: (i: number, j: number) => boolean;
}

/**
 * The pairs of two streams aligned, and how alike they are: how many setup steps of the evidence pair (what the
 * replay must have sent), then how many requests (the same requests in the same order), then how many of those send
 * the same body.
 */
function alignStreams(mine: readonly number[], theirs: readonly number[], like: Likeness) {
  const pairs = align(mine.length, theirs.length, (a, b) => like.weight(mine[a]!, theirs[b]!));
  const paired = pairs.flatMap((b, a) => (b < 0 ? [] : [[mine[a]!, theirs[b]!] as [number, number]]));
  const count = (keep: (p: [number, number]) => boolean) => paired.filter(keep).length;
  return {
    pairs: new Map(paired),
    alike: [count(([i]) => like.setup(i)), paired.length, count(([i, j]) => like.same(i, j))],
  };
}

/**
 * The pairs of the requests on each of the `wanted` records of the run alone with those on the record of the replay
 * that stands for it: the one whose own requests align best with its (alignStreams), each record given once, the
 * best aligned first. Requests on other records are left out: the order among requests on several records is the
 * order concurrent requests happened to be answered in (the input matrix sends each case's inputs side by side, and
 * creates its cases side by side), which a replay need not keep.
 */
function recordPairs(
  wanted: ReadonlySet<string>,
  seqs: readonly [readonly Exchange[], readonly Exchange[]],
  urls: readonly [string, string],
  like: Likeness,
): Map<number, number> {
  const [mine, theirs] = [streams(seqs[0], urls[0]), streams(seqs[1], urls[1])];
  const candidates = [...wanted].flatMap((k) =>
    [...theirs].map(([v, list]) => ({ k, v, ...alignStreams(mine.get(k) ?? [], list, like) })),
  );
  const out = new Map<number, number>();
  const [given, taken] = [new Set<string>(), new Set<string>()];
  const rank = (x: (typeof candidates)[number], y: (typeof candidates)[number]) =>
    y.alike[0]! - x.alike[0]! || y.alike[1]! - x.alike[1]! || y.alike[2]! - x.alike[2]!;
  for (const c of candidates.filter((x) => x.alike[1]! > 0).sort(rank)) {
    if (given.has(c.k) || taken.has(c.v)) continue;
    given.add(c.k);
    taken.add(c.v);
    for (const i of mine.get(c.k)!) out.set(i, c.pairs.get(i) ?? -1);
  }
  return out;
}

/**
 * How the replay's exchanges met the evidence `steps` of a failure. `run`: the check's exchanges in the run, or
 * undefined when the run folder has none (then the evidence alone is aligned); `replay`: the check's exchanges in the
 * replay.
 */
export function compareSetup(steps: readonly EvidenceStep[], run: CheckLog | undefined, replay: CheckLog): SetupMatch {
  const ids = new Set(steps.map((s) => identity(s.exchange)));
  const judged = new Set(steps.filter((s) => s.exchange.judged).map((s) => identity(s.exchange)));
  const inProperty = run?.attempt.filter((l) => ids.has(identity(l.exchange)) && l.property !== undefined) ?? [];
  const last = inProperty.find((l) => judged.has(identity(l.exchange))) ?? inProperty.at(-1);
  const from = last?.property ? { property: last.property, pass: last.pass } : undefined;
  let sequence = run ? sequenceOf(run, from) : steps.map((s) => s.exchange);
  const replayed = sequenceOf(replay, from && { property: from.property, pass: undefined });
  if (sequence.length * replayed.length > MAX_CELLS) sequence = steps.map((s) => s.exchange);
  const runUrl = run?.baseUrl ?? replay.baseUrl;
  const position = new Map(sequence.map((e, i) => [identity(e), i]));
  const stepAt = new Map<number, EvidenceStep>();
  for (const s of steps) {
    const i = position.get(identity(s.exchange));
    if (i !== undefined) stepAt.set(i, s);
  }
  const urls = [runUrl, replay.baseUrl] as const;
  const shapes = [sequence.map((e) => shape(e, runUrl)), replayed.map((e) => shape(e, replay.baseUrl))];
  const bodies = [sequence.map(skeleton), replayed.map(skeleton)];
  const records = [recordKeys(sequence, runUrl), recordKeys(replayed, replay.baseUrl)];
  // A pair of the same shape scores 1, 2 when it names the same records; a step of the evidence ten times that. Among
  // alignments that score alike, the one where more pairs send the same body (the same input) is taken: a body is
  // worth less than any pair (random parts a skeleton keeps may make two inputs look alike, or one look unlike).
  const same = (i: number, j: number) => bodies[0]![i] === bodies[1]![j];
  const scale = Math.max(sequence.length, replayed.length) + 1;
  const like = (i: number, j: number) =>
    shapes[0]![i] !== shapes[1]![j] ? 0 : (stepAt.has(i) ? 10 : 1) * scale + (same(i, j) ? 1 : 0);
  const pairs = align(sequence.length, replayed.length, (i, j) =>
    like(i, j) === 0 ? 0 : like(i, j) + (records[0]![i] === records[1]![j] ? (stepAt.has(i) ? 10 : 1) * scale : 0),
  );
  // Refused both times (a 4xx or 5xx in the run, a 4xx or 5xx now): a refusal changes nothing (rejected means
  // unchanged), so what it left is the same setup, whatever the status (a 500 in the run, the 404 a fix answers).
  const refused = (status: number | undefined) => status !== undefined && status >= 400;
  const answered = (i: number, j: number) => {
    const [saw, got] = [sequence[i]!.response?.status, replayed[j]!.response?.status];
    return (refused(saw) && refused(got)) || saw === undefined || got === saw;
  };
  // Then each setup step on one record is paired among the requests on that record alone.
  const lastJudged = Math.max(-1, ...[...stepAt].filter(([, s]) => s.exchange.judged).map(([i]) => i));
  const setup = new Set([...stepAt].filter(([i, s]) => !s.exchange.judged && i <= lastJudged).map(([i]) => i));
  const alone = [...setup].map((i) => recordsOf(sequence[i]!, runUrl)).filter((k) => k.length === 1 && k[0] !== 'u');
  const wanted = new Set(alone.map((k) => k[0]!));
  const likeness: Likeness = {
    weight: like,
    setup: (i) => setup.has(i),
    same,
  };
  for (const [i, j] of recordPairs(wanted, [sequence, replayed], urls, likeness)) if (stepAt.has(i)) pairs[i] = j;
  const sentAfter = (i: number) => pairs.slice(i + 1).some((j, k) => j >= 0 && stepAt.has(i + 1 + k));
  // A judged request the replay answered otherwise (it conforms now): what the check sends after it may follow from
  // that answer (a request confirming a refusal is sent only after one).
  let branched = false;
  for (const [i, s] of [...stepAt].sort(([x], [y]) => x - y)) {
    const j = pairs[i]!;
    if (s.exchange.judged && j >= 0 && !answered(i, j)) branched = true;
    if (s.exchange.judged || i > lastJudged) continue;
    // A case the check made in the run and not in the replay: another check of the replay made it, as checks of a
    // file share cases where the verdict cannot depend on a fresh one (and had it not been made, what names it fails).
    if (j < 0 && created(s.exchange, runUrl).length) continue;
    if (j < 0 && branched) continue;
    if (j < 0) return sentAfter(i) ? { kind: 'skipped', step: s } : { kind: 'stopped', step: s };
    if (!answered(i, j))
      return { kind: 'status', step: s, run: s.exchange.response!.status, replay: replayed[j]!.response?.status };
  }
  return { kind: 'same' };
}
