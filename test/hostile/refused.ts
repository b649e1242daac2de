/** Nothing listens on the port: every connection is refused. */
import { randomUUID } from 'node:crypto';
import { closedPort, type Hostile } from './support.ts';

export const refused: Hostile = {
  behaviour: 'connection refused (nothing listens)',
  exit: 3,
  code: 'SC_TARGET_UNREACHABLE',
  why: 'no HTTP answer at all: nothing can be judged',
  suites: 'token',
  async start() {
    const port = await closedPort();
    return {
      url: `http://127.0.0.1:${port}`,
      clientId: randomUUID(),
      clientSecret: 'cs_planted_refused',
      secrets: () => ['cs_planted_refused'],
      close: async () => {},
    };
  },
};
