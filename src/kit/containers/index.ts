/**
 * The containers of the bulk endpoints (issue 33 §2, src/spec/inputs/containers.ts): sent once for a suite file
 * and judged oracle by oracle, as the input matrix's cells are; and the JSON cells of the 100- and 101-item
 * batches, which the bulk suites' limit checks judge, recorded from those checks.
 */
import { ConformanceFailure } from '../../results/failure.ts';
import { CONTAINER_OWNERS, type ContainerWay, containerCellSpecs } from '../../spec/inputs/containers.ts';
import type { CheckApi } from '../check.ts';
import type { Harness } from '../context.ts';
import type { SharedPool } from '../shared-pool.ts';
import { type ContainerCells, containerCells, freshValues } from './cells.ts';
import { idsContainers } from './ids.ts';
import { CASE_ITEMS, CUSTOMER_ITEMS, itemsContainers } from './items.ts';

export { type ContainerCells, containerCells } from './cells.ts';

/**
 * Sends every container cell: the bulk updates' on the cases the bulk suites share (held while a way's are sent),
 * the bulk check delete's on cases of their own.
 */
export async function runContainers(t: Harness, pool: SharedPool): Promise<ContainerCells> {
  const cells = containerCells();
  const fresh = freshValues();
  // Held for one way at a time: another file's batches on the pool may come between, never inside one.
  for (const w of [CASE_ITEMS, CUSTOMER_ITEMS])
    await pool.use(t, ({ cases }) => itemsContainers(t, w, cases, fresh, cells[w.way]));
  await idsContainers(t, cells['bulk-checks']);
  return cells;
}

/**
 * A bulk suite's limit check (`fn`) that records its verdict on the JSON cell it judges (`100`: every item applied;
 * `101`: none), so the matrix shows the JSON cells beside the flat ones this module sends.
 */
export function asCell(
  way: ContainerWay,
  kind: '100' | '101',
  fn: (t: CheckApi) => Promise<void>,
): (t: CheckApi) => Promise<void> {
  const spec = containerCellSpecs().find((c) => c.way === way && c.encoding === 'json' && c.kind === kind)!;
  const oracle = spec.oracles[0]!;
  return async (t) => {
    const record = (result: 'pass' | 'fail', why?: string) =>
      t.recordCells([
        {
          cell: spec.id,
          oracle,
          requirement: CONTAINER_OWNERS[way][oracle]!,
          verdict: spec.verdict,
          result,
          ...(why ? { why } : {}),
        },
      ]);
    try {
      await fn(t);
      record('pass');
    } catch (err) {
      if (err instanceof ConformanceFailure)
        record('fail', `${err.detail.what}: ${err.detail.received ?? ''}`.slice(0, 300));
      throw err;
    }
  };
}
