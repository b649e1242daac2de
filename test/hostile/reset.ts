/** Resets every connection as soon as the request arrives. */
import { tcp, type Hostile } from './support.ts';

export const reset: Hostile = {
  behaviour: 'resets the connection on every request',
  exit: 3,
  code: 'SC_TARGET_UNREACHABLE',
  why: 'no HTTP answer at all, not even to the liveness read after the first request: nothing can be judged',
  suites: 'token',
  start: () => tcp((socket) => socket.once('data', () => socket.resetAndDestroy())),
};
