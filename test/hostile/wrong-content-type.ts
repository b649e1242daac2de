/** The token endpoint labels its JSON answer text/html. */
import { proxy, relay, type Hostile } from './support.ts';

export const wrongContentType: Hostile = {
  behaviour: 'token endpoint answers valid JSON labelled Content-Type: text/html',
  exit: 1,
  why:
    'the interface says the token answer is application/json: TOKEN-ISSUE fails (the harness itself is lenient ' +
    'and still authenticates)',
  suites: 'token',
  start: () =>
    proxy(async (req, forward, res) => {
      const up = await forward();
      if (req.path === '/api/oauth/token/')
        return relay(res, { ...up, headers: { ...up.headers, 'content-type': 'text/html; charset=utf-8' } });
      relay(res, up);
    }),
  verify(report) {
    if (report.results.find((r) => r.id === 'TOKEN-ISSUE')?.verdict !== 'fail')
      throw new Error('TOKEN-ISSUE should fail');
  },
};
