/** Redirects every request to another listener, which records whether anything arrived there. */
import { plain, type Hostile, type Started } from './support.ts';

let reached = 0;
let other: Started | undefined;

export const redirect: Hostile = {
  behaviour: 'answers 307 to another origin for every request',
  exit: 3,
  code: 'SC_TARGET_BROKEN',
  why:
    'redirects are never followed (so credentials never travel to the other origin): the token request gets a ' +
    '307, not a token',
  suites: 'token',
  async start() {
    reached = 0;
    other = await plain((_req, res) => {
      reached += 1;
      res.end('{"access_token":"stolen"}');
    });
    const main = await plain((req, res) => {
      res.writeHead(307, { location: `${other!.url}${req.url}` });
      res.end();
    });
    return {
      ...main,
      close: async () => {
        await main.close();
        await other?.close();
      },
    };
  },
  verify() {
    if (reached !== 0) throw new Error(`the redirect was followed: ${reached} request(s) reached the other origin`);
  },
};
