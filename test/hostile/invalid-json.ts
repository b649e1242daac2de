/** Answers each successful case PATCH with truncated JSON. */
import { isCasePatch, proxy, relay, type Hostile } from './support.ts';

export const invalidJson: Hostile = {
  behaviour: 'answers successful case PATCHes with invalid (truncated) JSON',
  exit: 1,
  why: 'a 200 PATCH must carry the Case read representation: the response requirements fail',
  suites: 'case-patch',
  start: () =>
    proxy(async (req, forward, res) => {
      const up = await forward();
      if (!isCasePatch(req) || up.status !== 200) return relay(res, up);
      relay(res, { ...up, body: up.body.slice(0, Math.floor(up.body.length / 2)) });
    }),
};
