/**
 * The containers of the bulk endpoints (issue 33 §2): the 100-item limit and what the items name, on every way in
 * (JSON, form, multipart, multipart file parts), and the kind of each entry of items and ids (src/spec/inputs/
 * containers.ts). Sent once for the file (kit/containers), on the 101 cases the bulk suites share, and judged by
 * each oracle in a check of its own, owned by the requirement CONTAINER_OWNERS names for the way in. The JSON
 * 100- and 101-item batches are the bulk suites' own limit checks.
 */
import { describe } from 'vitest';
import { check, getHarness, limitPool } from '../src/kit/index.ts';
import { type ContainerCells, runContainers } from '../src/kit/containers/index.ts';
import { judgeOracle } from '../src/kit/inputs/index.ts';
import { CONTAINER_OF, CONTAINER_OWNERS, CONTAINER_WAYS } from '../src/spec/inputs/containers.ts';
import { ORACLES, type OracleName } from '../src/spec/inputs/matrix.ts';

/** The 101 cases the bulk suites share (kit/shared-pool.ts). */
const pool = limitPool();

let sent: Promise<ContainerCells> | undefined;
/** The cells, sent once for the file (a failed attempt at sending them is made again). */
function containers(): Promise<ContainerCells> {
  sent ??= runContainers(getHarness(), pool).catch((err: unknown) => {
    sent = undefined;
    throw err;
  });
  return sent;
}

const ENDPOINTS = {
  'bulk-cases': 'POST /api/cases/bulk-update/',
  'bulk-customers': 'POST /api/customers/bulk-update/',
  'bulk-checks': 'POST /api/checks/bulk-delete/',
} as const;

for (const way of CONTAINER_WAYS) {
  describe(`containers: ${ENDPOINTS[way]} ${CONTAINER_OF[way]}`, () => {
    for (const [oracle, id] of Object.entries(CONTAINER_OWNERS[way]) as [OracleName, string][]) {
      check(`every ${way} container: ${ORACLES[oracle].split(':')[0]}`, [id], async (t) =>
        judgeOracle(t, (await containers())[way], oracle, id, `${ENDPOINTS[way]} (${CONTAINER_OF[way]})`),
      );
    }
  });
}
