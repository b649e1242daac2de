/** Accepts connections and never answers. */
import { tcp, type Hostile } from './support.ts';

export const silent: Hostile = {
  behaviour: 'accepts the connection, never answers',
  exit: 3,
  code: 'SC_TARGET_UNREACHABLE',
  why: 'the token request times out, and so does the liveness read after it: no HTTP answer, nothing can be judged',
  timeoutMs: 1000,
  suites: 'token',
  start: () => tcp(() => {}),
};
