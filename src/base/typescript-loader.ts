/**
 * Loading a user's TypeScript module (a --provisioner .ts file) in the compiled package, which
 * runs without TypeScript tooling: tsx's loader is registered when the user has tsx installed.
 * A checkout runs under tsx (bin/screenconf.js) or vitest already, and loads TypeScript as it is.
 */
import { COMPILED } from '../version.ts';

let registered: Promise<boolean> | undefined;

/** Whether a .ts module can be imported now: true in a checkout; in the package, once tsx is registered. */
export function typeScriptLoadable(): Promise<boolean> {
  if (!COMPILED) return Promise.resolve(true);
  registered ??= import('tsx/esm/api').then(
    (tsx) => {
      tsx.register();
      return true;
    },
    () => false,
  );
  return registered;
}

/** Whether a file is a TypeScript module by its name. */
export function isTypeScriptFile(file: string): boolean {
  return /\.[cm]?ts$/.test(file);
}
