/**
 * The input matrix on the bulk endpoints (issue 25): every field of a bulk case item and of a bulk customer
 * item, every kind of value, every encoding; every spelling of an item's id and of a bulk check delete's ids.
 * Sent once on one set of cases (kit/inputs/bulk.ts) and judged by each oracle in a check of its own, owned
 * by the requirement src/spec/inputs/matrix.ts OWNERS names for the way in.
 */
import { describe } from 'vitest';
import { check, getHarness } from '../src/kit/index.ts';
import { judgeOracle, runBulkMatrix, type BulkCell, spellingsTaken } from '../src/kit/inputs/index.ts';
import { ORACLES, OWNERS, type OracleName, SPELLINGS_OBSERVED } from '../src/spec/inputs/matrix.ts';

type Cells = Awaited<ReturnType<typeof runBulkMatrix>>;
let sent: Promise<Cells> | undefined;
/** The cells, sent once for the file (a failed attempt at sending them is made again). */
function matrix(): Promise<Cells> {
  sent ??= runBulkMatrix(getHarness()).catch((err: unknown) => {
    sent = undefined;
    throw err;
  });
  return sent;
}

const WAYS = [
  ['bulk-cases', 'POST /api/cases/bulk-update/', (c: Cells): BulkCell[] => c.cases],
  ['bulk-customers', 'POST /api/customers/bulk-update/', (c: Cells): BulkCell[] => c.customers],
  ['bulk-checks', 'POST /api/checks/bulk-delete/', (c: Cells): BulkCell[] => c.checks],
] as const;

for (const [way, endpoint, cellsOf] of WAYS) {
  describe(`input matrix: ${endpoint}`, () => {
    for (const [oracle, id] of Object.entries(OWNERS[way]) as [OracleName, string][]) {
      check(`every ${way} input: ${ORACLES[oracle].split(':')[0]}`, [id], async (t) =>
        judgeOracle(t, cellsOf(await matrix()), oracle, id, endpoint),
      );
    }
    check(`which spellings of an id a ${way} request took as the id`, [SPELLINGS_OBSERVED[way]], async (t) =>
      t.observe(
        SPELLINGS_OBSERVED[way],
        spellingsTaken(cellsOf(await matrix()), (c) =>
          c.spec.encoding === 'json' ? endpoint : `${endpoint} as ${c.spec.encoding}`,
        ),
      ),
    );
  });
}
