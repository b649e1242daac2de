/**
 * The two checks of a bulk endpoint's 100-item limit, on one pool of 101 records: a batch of exactly
 * 100 items (every item applied) and one of 101 (rejected whole, nothing changed). Sent one after the
 * other, 100 first, and the pool read back once after both: the one read judges both checks, where a
 * read after each batch cost 201 requests.
 *
 * The 101-item batch sends values no record holds, so a record showing its item's value took it
 * whatever came before. The 100-item batch's values are judged on the same read only where the
 * 101-item batch left the record alone: when it took any of them (a server that applies the first
 * 100 items of an over-long batch), the 100-item check sends a batch of its own and reads it back,
 * as it does on a re-run of either check (vitest retries a failed check once).
 */
import type { JsonObject } from '../base/json.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import type { Exchange } from '../results/exchange.ts';
import { LIMITS } from '../spec/index.ts';
import { exchanged, mapLimit } from './bulk.ts';
import type { Harness } from './context.ts';

const LIMIT = LIMITS.bulkMaxItems;
/** Reads in flight at once. */
const CONCURRENCY = 8;

export type LimitKind = 'full' | 'over';

export interface LimitBatch<M, R> {
  /** The records the batch named, in item order. */
  members: readonly M[];
  items: JsonObject[];
  res: ReceivedResponse;
  exchange: Exchange | undefined;
  /** Each record the batch named, in item order, read after it. */
  after: R[];
  /** The read came after both batches (one read for both checks): said in messages. */
  readAfterBoth: boolean;
}

export interface LimitBatchesSpec<M, R> {
  /** The file's 101 records, made once (the mixed-batch checks may take some of them too). */
  pool(t: Harness): Promise<M[]>;
  /**
   * The items of a batch naming `members`, with values no record holds yet: `round` counts the
   * batches of this kind sent so far, so a second one differs from the first.
   */
  items(t: Harness, members: readonly M[], kind: LimitKind, round: number): JsonObject[];
  send(t: Harness, body: unknown): Promise<ReceivedResponse>;
  read(t: Harness, member: M): Promise<R>;
  /** Whether a record read back shows a value its item (of a 101-item batch) sent. */
  took(read: R, item: JsonObject): boolean;
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
  let both: Promise<Record<LimitKind, LimitBatch<M, R>>> | undefined;

  const sent = async (t: Harness, members: readonly M[], kind: LimitKind) => {
    const items = spec.items(t, members, kind, rounds[kind]++);
    return { members, items, ...(await exchanged(t, () => spec.send(t, { items }))) };
  };
  const readAll = (t: Harness, members: readonly M[]) => mapLimit(members, CONCURRENCY, (m) => spec.read(t, m));

  const bothBatches = async (t: Harness) => {
    const pool = await spec.pool(t);
    const full = await sent(t, pool.slice(0, LIMIT), 'full');
    const over = await sent(t, pool, 'over');
    const after = await readAll(t, pool);
    return {
      full: { ...full, after: after.slice(0, LIMIT), readAfterBoth: true },
      over: { ...over, after, readAfterBoth: true },
    };
  };
  const ownBatch = async (t: Harness, kind: LimitKind): Promise<LimitBatch<M, R>> => {
    const pool = await spec.pool(t);
    const members = kind === 'full' ? pool.slice(0, LIMIT) : pool;
    const batch = await sent(t, members, kind);
    return { ...batch, after: await readAll(t, members), readAfterBoth: false };
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
        const { full, over } = await both;
        if (!full.after.some((read, i) => spec.took(read, over.items[i]!))) return full;
      }
      return ownBatch(t, 'full');
    },
    async over(t) {
      if (first('over')) {
        both ??= bothBatches(t);
        return (await both).over;
      }
      return ownBatch(t, 'over');
    },
  };
}

/**
 * `n` records of the pool a file's limit checks made, from its start or (`fromEnd`) its end, or
 * undefined when they made none (not run, or failed to). Other checks of the file act on them
 * instead of making records of their own; each reads what it judges first, so what the batches
 * left on them does not decide it. Start and end keep two such checks apart.
 */
export async function fromPool<T>(
  pool: Promise<T[]> | undefined,
  n: number,
  fromEnd = false,
): Promise<T[] | undefined> {
  const made = pool && (await pool.catch(() => undefined));
  if (!made || made.length < n) return undefined;
  return fromEnd ? made.slice(made.length - n) : made.slice(0, n);
}
