/**
 * The two checks of a bulk endpoint's 100-item limit, on one pool of 101 records: a batch of exactly
 * 100 items (every item applied) and one of 101 (none applied: refused whole or item by item, kit/bulk.ts
 * expectOverLimitRefused; nothing changed). Sent one after the
 * other, 100 first, and the pool read back once after both: the one read judges both checks, where a
 * read after each batch cost 201 requests.
 *
 * The 101-item batch sends values no record holds, so a record showing its item's value took it
 * whatever came before. Both checks are judged on the shared read when it shows every item of the
 * 100-item batch applied. When it does not (the 101-item batch took some records, or undid or reset
 * what the 100-item batch did, or the 100 items were not applied), each check sends a batch of its
 * own: the 100-item one judged on its read back, the 101-item one sent after a 100-item batch and
 * judged on reads before and after it (so a batch that changes records without taking a value of
 * its own, undoing the batch before it, is seen). So does a re-run of either check (vitest retries
 * a failed check once).
 *
 * The records are held while a batch is sent and read back (`hold`: the pool several suite files
 * share, kit/shared-pool.ts), so no other file's batch lands between.
 *
 * Which fields an item takes is not shown: the items set the spec's preferred fields while the shared read shows
 * every one applied. When it does not, each field the items may set is sent alone once (kit/item-fields.ts, the one
 * rule of aloneRefused): a field refused alone is left out of every later batch (its fallbacks used when none is
 * left), and a field answered as taken stays, so its loss in a batch still fails. Items that can set nothing fail
 * the 100-item check: "up to 100 cases are updated per request".
 */
import type { JsonObject } from '../base/json.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import type { Exchange } from '../results/exchange.ts';
import { LIMITS } from '../spec/index.ts';
import { fail } from './assert.ts';
import { exchanged, mapLimit } from './bulk.ts';
import type { Harness } from './context.ts';
import { describeRefused, type FieldProbe, type ItemFields, itemFields } from './item-fields.ts';
import { unlessNoAnswer } from './no-answer.ts';
import { sharedPool, type SharedPool } from './shared-pool.ts';

const LIMIT = LIMITS.bulkMaxItems;
/** Reads in flight at once. */
const CONCURRENCY = 8;

/**
 * The 101 cases of the primary organisation (made as the provisioner makes a case by default) the
 * bulk suites' limit checks act on: one set for the run, shared by their files (kit/shared-pool.ts).
 * Call once at a suite file's top level.
 */
export function limitPool(): SharedPool {
  return sharedPool('bulk-limit', LIMIT + 1, (t: Harness, size, shared) =>
    mapLimit(Array.from({ length: size }), CONCURRENCY, () => t.primary.provision.createCase({}, { shared })),
  );
}

export type LimitKind = 'full' | 'over';

export interface LimitBatch<M, R> {
  /** The records the batch named, in item order. */
  members: readonly M[];
  items: JsonObject[];
  res: ReceivedResponse;
  exchange: Exchange | undefined;
  /** Each record the batch named, in item order, read after it. */
  after: R[];
  /**
   * Each record read just before the batch, where a 101-item check is judged on a batch of its own
   * (sent after a 100-item batch, as on the shared read): the shared read could not tell what it changed.
   */
  before?: R[];
  /** The read came after both batches (one read for both checks): said in messages. */
  readAfterBoth: boolean;
  /** The fields its items set. */
  fields: readonly string[];
  /** What sending each field alone found, once it was tried (the shared read showed items not applied). */
  tried?: ItemFields;
}

export interface LimitBatchesSpec<M, R> {
  /** Runs `fn` holding the 101 records (made on first use; other checks may act on them too). */
  hold<T>(t: Harness, fn: (records: M[]) => Promise<T>): Promise<T>;
  /**
   * The fields items set: every `preferred` one the items take, else every `fallback` one they take (each tried
   * alone once the shared read showed items not applied).
   */
  fields: { preferred: readonly string[]; fallback: readonly string[] };
  /** How a field is sent alone, in an item naming `member`. */
  probe(t: Harness, member: M): FieldProbe;
  /**
   * The items of a batch naming `members`, setting `fields`, with values no record holds yet: `round` counts the
   * batches of this kind sent so far, so a second one differs from the first.
   */
  items(t: Harness, members: readonly M[], kind: LimitKind, round: number, fields: readonly string[]): JsonObject[];
  send(t: Harness, body: unknown): Promise<ReceivedResponse>;
  read(t: Harness, member: M): Promise<R>;
  /** Whether a record read back shows every value its item (of a 100-item batch) set. */
  applied(read: R, item: JsonObject): boolean;
}

export interface LimitBatches<M, R> {
  /** The 100-item batch and the read that judges it. */
  full(t: Harness): Promise<LimitBatch<M, R>>;
  /** The 101-item batch and the read that judges it. */
  over(t: Harness): Promise<LimitBatch<M, R>>;
}

export function limitBatches<M, R>(spec: LimitBatchesSpec<M, R>): LimitBatches<M, R> {
  const rounds: Record<LimitKind, number> = { full: 0, over: 0 };
  const taken = new Set<LimitKind>();
  /** The fields items set; what trying each alone found, once it was tried. */
  let fields: readonly string[] = spec.fields.preferred;
  let tried: Promise<ItemFields> | undefined;
  /** The shared read; `applied`: it shows every item of the 100-item batch applied, so it judges both checks. */
  let both:
    | Promise<{ full: LimitBatch<M, R>; over: LimitBatch<M, R> | { failed: unknown }; applied: boolean }>
    | undefined;

  const sent = async (t: Harness, members: readonly M[], kind: LimitKind) => {
    const items = spec.items(t, members, kind, rounds[kind]++, fields);
    return { members, items, fields, ...(await exchanged(t, () => spec.send(t, { items }))) };
  };
  const readAll = (t: Harness, members: readonly M[]) => mapLimit(members, CONCURRENCY, (m) => spec.read(t, m));

  const bothBatches = (t: Harness) =>
    spec.hold(t, async (pool) => {
      const full = await sent(t, pool.slice(0, LIMIT), 'full');
      // A failure to send the 101-item batch is its check's: the 100-item check is then judged on a batch of its own.
      const over = await sent(t, pool, 'over').catch((failed: unknown) => ({ failed }));
      const after = await readAll(t, pool);
      return {
        full: { ...full, after: after.slice(0, LIMIT), readAfterBoth: true },
        over: 'failed' in over ? over : { ...over, after, readAfterBoth: true },
        applied: full.items.every((item, i) => spec.applied(after[i]!, item)),
      };
    });
  const ownBatch = async (t: Harness, kind: LimitKind): Promise<LimitBatch<M, R>> => {
    const found = tried && (await tried);
    return spec.hold(t, async (pool) => {
      const members = kind === 'full' ? pool.slice(0, LIMIT) : pool;
      // A 101-item batch follows a 100-item one, as on the shared read: what a refused batch undoes shows. A 100-item
      // batch the target gave no answer to fails the 100-item check (its own batch): here it set nothing to undo.
      if (kind === 'over') await sent(t, pool.slice(0, LIMIT), 'full').catch(unlessNoAnswer);
      const before = kind === 'over' ? await readAll(t, members) : undefined;
      const batch = await sent(t, members, kind);
      const after = await readAll(t, members);
      return {
        ...batch,
        after,
        readAfterBoth: false,
        ...(before ? { before } : {}),
        ...(found ? { tried: found } : {}),
      };
    });
  };
  /**
   * Each field the items may set, sent alone once (holding the records): those refused are left out of the batches
   * that follow.
   */
  const learn = async (t: Harness): Promise<ItemFields> => {
    tried ??= spec
      .hold(t, (pool) => itemFields(t, [...spec.fields.preferred, ...spec.fields.fallback], spec.probe(t, pool[0]!)))
      .catch((err: unknown) => {
        tried = undefined;
        throw err;
      });
    const found = await tried;
    const preferred = spec.fields.preferred.filter((f) => found.taken.includes(f));
    fields = preferred.length ? preferred : spec.fields.fallback.filter((f) => found.taken.includes(f));
    return found;
  };
  /** The shared read the first time a check asks for it; a batch of its own after that. */
  const first = (kind: LimitKind) => {
    const fresh = !taken.has(kind);
    taken.add(kind);
    return fresh;
  };

  return {
    async full(t) {
      if (first('full')) {
        both ??= bothBatches(t);
        const { full, applied } = await both;
        if (applied) return full;
        // Not every item applied: an item may carry a field the server's items do not take (refused alone).
        await learn(t);
      }
      // An item that can set nothing updates nothing: "up to 100 cases are updated per request".
      const found = tried && (await tried);
      if (found && fields.length === 0)
        fail(
          'items setting each field a bulk item may carry, each sent alone (a batch of one)',
          'an item setting some field answered as taken (a bulk update updates what its items name)',
          `every one refused: ${describeRefused(found)}`,
          { judged: found.refused.map((r) => r.res) },
        );
      return ownBatch(t, 'full');
    },
    async over(t) {
      if (first('over')) {
        both ??= bothBatches(t);
        // The 100-item batch got no answer: a failure of the 100-item check, and this one sends a batch of its own.
        const shared = await both.catch((err: unknown) => unlessNoAnswer(err));
        if (!shared) return ownBatch(t, 'over');
        const { over, applied } = shared;
        if ('failed' in over) throw over.failed;
        // The records show what the 100-item batch set: the 101-item batch changed none of it. Where they do not,
        // it may have undone it without taking a value of its own: judged on a batch of its own, read before and after.
        if (applied) return over;
        await learn(t);
      }
      return ownBatch(t, 'over');
    },
  };
}

/** What a limit batch's items set, and what sending each field alone found where it was tried: an observation. */
export function describeLimitFields(batch: Pick<LimitBatch<unknown, unknown>, 'fields' | 'tried'>): string {
  const set = batch.fields.length ? batch.fields.join(', ') : 'no field';
  if (!batch.tried) return `the items set ${set}`;
  const taken = batch.tried.taken.length ? batch.tried.taken.join(', ') : 'none';
  const refused = batch.tried.refused.length ? describeRefused(batch.tried) : 'none';
  return (
    `the items set ${set}; each field sent alone in an item (the batch was not applied whole): taken ${taken}; ` +
    `refused ${refused}`
  );
}

/**
 * `n` records of the pool the limit checks share (kit/shared-pool.ts), from its start or
 * (`fromEnd`) its end, or undefined when none was made (the limit checks did not run, or failed
 * to make it). Other checks of the file act on them, holding the pool, instead of making records
 * of their own; each reads what it judges first, so what the batches left on them does not decide
 * it. Start and end keep two such checks apart.
 */
export function fromPool<T>(lease: { cases: T[] } | undefined, n: number, fromEnd = false): T[] | undefined {
  const made = lease?.cases;
  if (!made || made.length < n) return undefined;
  return fromEnd ? made.slice(made.length - n) : made.slice(0, n);
}
