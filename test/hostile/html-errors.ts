/** Every 4xx answer to a case PATCH becomes a 500 HTML error page (a framework's debug page). */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const htmlErrors: Hostile = {
  behaviour: 'answers rejected case PATCHes with a 500 HTML error page',
  exit: 1,
  why: 'a rejection must be a 4xx; a 5xx never conforms',
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      const up = await forward();
      if (!isCasePatch(req) || up.status < 400 || up.status >= 500) return relay(res, up);
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(
        '<!DOCTYPE html><html><head><title>Server Error (500)</title></head><body><h1>Server Error ' +
          '(500)</h1><pre>Traceback (most recent call last):\n  File "views.py", line 42</pre></body></html>',
      );
    }),
};
