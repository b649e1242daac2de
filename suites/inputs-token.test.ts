/**
 * The input matrix on POST /api/oauth/token/ (issue 25): the client id, the secret and the grant type in
 * every spelling a lenient parser or a loose comparison takes for the real ones (kit/inputs/token.ts).
 * Never a 5xx; a token for the exact credentials only.
 */
import { describe } from 'vitest';
import { check, type CheckApi, getHarness } from '../src/kit/index.ts';
import { judgeOracle, runTokenMatrix, type SentCell } from '../src/kit/inputs/index.ts';

let sent: Promise<SentCell[]> | undefined;
/** The cells, sent once for the file; a run without client credentials has no token request to vary. */
function matrix(t: CheckApi): Promise<SentCell[]> {
  const { clientId, clientSecret } = t.primary.credentials;
  if (!clientId || !clientSecret) t.skip('no client credentials configured (an API key alone has no token request)');
  sent ??= runTokenMatrix(getHarness().primary, { clientId: clientId!, secret: clientSecret! }).catch(
    (err: unknown) => {
      sent = undefined;
      throw err;
    },
  );
  return sent;
}

const ENDPOINT = 'POST /api/oauth/token/';

describe('input matrix: POST /api/oauth/token/', () => {
  check('every token request: answered, never a 5xx', ['TOKEN-INPUT-ANSWERED'], async (t) =>
    judgeOracle(t, await matrix(t), 'answered', 'TOKEN-INPUT-ANSWERED', ENDPOINT),
  );
  check('a token for the exact client credentials only', ['TOKEN-EXACT-CREDENTIALS'], async (t) => {
    const cells = (await matrix(t)).filter((c) => c.spec.field !== 'grant_type');
    judgeOracle(t, cells, 'own-record', 'TOKEN-EXACT-CREDENTIALS', ENDPOINT);
  });
  check('a token for the grant type client_credentials only', ['TOKEN-REJECT-GRANT-TYPE'], async (t) => {
    const cells = (await matrix(t)).filter((c) => c.spec.field === 'grant_type');
    judgeOracle(t, cells, 'own-record', 'TOKEN-REJECT-GRANT-TYPE', ENDPOINT);
  });
});
