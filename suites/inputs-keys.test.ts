/**
 * The key dimension of the input matrix (issue 33 §3): every key a PATCH body, a bulk case item or a bulk customer
 * item may carry beside its fields (the read representation's, a model's the representation does not show, keys no
 * model has), with values naming other records, ours and the peer's. Sent once (kit/inputs/keys.ts) and judged by
 * each oracle in a check of its own, owned by the requirement src/spec/inputs/keys.ts KEY_OWNERS names.
 */
import { describe } from 'vitest';
import { check, getHarness } from '../src/kit/index.ts';
import { judgeOracle } from '../src/kit/inputs/index.ts';
import { KEY_ENDPOINTS, type KeyCell, runKeyMatrix } from '../src/kit/inputs/keys.ts';
import { KEY_ORACLES, KEY_OWNERS, KEY_WAYS, type KeyOracle } from '../src/spec/inputs/keys.ts';
import { ORACLES } from '../src/spec/inputs/matrix.ts';

let sent: Promise<KeyCell[]> | undefined;
/** The cells, sent once for the file (a failed attempt at sending them is made again). */
function matrix(): Promise<KeyCell[]> {
  sent ??= runKeyMatrix(getHarness()).catch((err: unknown) => {
    sent = undefined;
    throw err;
  });
  return sent;
}

/** What an oracle says: the key dimension's own, or the value matrix's. */
const statement = (o: KeyOracle) => (o === 'read-only' || o === 'hidden' ? KEY_ORACLES[o] : ORACLES[o]);

for (const way of KEY_WAYS) {
  const endpoint = KEY_ENDPOINTS[way];
  describe(`key matrix: ${endpoint}`, () => {
    for (const [oracle, id] of Object.entries(KEY_OWNERS[way]) as [KeyOracle, string][]) {
      check(`every key beside the fields: ${statement(oracle).split(':')[0]}`, [id], async (t) =>
        judgeOracle(
          t,
          (await matrix()).filter((c) => c.spec.way === way),
          oracle,
          id,
          endpoint,
          statement(oracle),
        ),
      );
    }
  });
}
