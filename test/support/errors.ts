import { HarnessError } from '../../src/errors.ts';

/** Runs `fn`, which must throw a HarnessError, and returns it for assertions on code and message. */
export function harnessError(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HarnessError) return err;
    throw err;
  }
  throw new Error('expected a HarnessError');
}
