/** Every answer is a JSON body that never ends, sent as fast as the client reads. */
import { plain, type Hostile } from './support.ts';

export const endlessBody: Hostile = {
  behaviour: 'answers with an endless body',
  exit: 3,
  code: 'SC_TARGET_BROKEN',
  why: 'the token answer goes over the response-size cap: no usable answer',
  suites: 'token',
  args: ['--max-response-bytes', '65536'],
  start: () =>
    plain((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"access_token": "');
      const chunk = 'x'.repeat(16_384);
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on('drain', pump);
      pump();
    }),
};
