/**
 * The input matrix on PATCH /api/cases/{id}/ (issue 25): every field of the body, every kind of value,
 * as JSON, form, multipart and multipart file parts, sent once (kit/inputs/patch.ts) and judged by each
 * oracle in a check of its own, owned by the requirement src/spec/inputs/matrix.ts OWNERS names.
 */
import { describe } from 'vitest';
import { check, getHarness } from '../src/kit/index.ts';
import { judgeOracle, runPatchMatrix, runPathMatrix, type SentCell, spellingsTaken } from '../src/kit/inputs/index.ts';
import { ORACLES, OWNERS, type OracleName, SPELLINGS_OBSERVED } from '../src/spec/inputs/matrix.ts';

interface Sent {
  body: SentCell[];
  path: SentCell[];
}
let sent: Promise<Sent> | undefined;
/**
 * The cells, sent once for the file (a failed attempt at sending them is made again): the body's, then the
 * path's on the same cases.
 */
function matrix(): Promise<Sent> {
  sent ??= (async () => {
    const h = getHarness();
    const run = await runPatchMatrix(h);
    return { body: run.cells, path: await runPathMatrix(h.primary, run.cases) };
  })().catch((err: unknown) => {
    sent = undefined;
    throw err;
  });
  return sent;
}

describe('input matrix: PATCH /api/cases/{id}/', () => {
  for (const [oracle, id] of Object.entries(OWNERS.patch) as [OracleName, string][]) {
    check(`every PATCH input: ${ORACLES[oracle].split(':')[0]}`, [id], async (t) =>
      judgeOracle(t, (await matrix()).body, oracle, id, 'PATCH /api/cases/{id}/'),
    );
  }
});

describe('input matrix: the id in /api/cases/{id}/', () => {
  check('every spelling of a case id in the path acts on that case or on none', ['CASE-ID-NON-INTEGER'], async (t) => {
    const cells = (await matrix()).path;
    judgeOracle(t, cells, 'answered', 'CASE-ID-NON-INTEGER', 'PATCH and DELETE /api/cases/{id}/');
    judgeOracle(t, cells, 'own-record', 'CASE-ID-NON-INTEGER', 'PATCH and DELETE /api/cases/{id}/');
  });

  check('which spellings of a case id the path took as the id', [SPELLINGS_OBSERVED.path], async (t) => {
    const cells = (await matrix()).path;
    t.observe(
      SPELLINGS_OBSERVED.path,
      spellingsTaken(cells, (c) => c.spec.field.replace('{id}', '/api/cases/{id}/')),
    );
  });
});
