/** The token endpoint answers 200 with an HTML page instead of a token. */
import { plain, type Hostile } from './support.ts';

export const tokenGarbage: Hostile = {
  behaviour: 'token endpoint answers 200 with garbage (HTML, no access_token)',
  exit: 3,
  code: 'SC_TARGET_BROKEN',
  why: 'without a token no protected endpoint can be judged; the run stops before the suites',
  suites: 'token,case-patch',
  start: () =>
    plain((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Welcome to nginx!</h1></body></html>');
    }),
};
