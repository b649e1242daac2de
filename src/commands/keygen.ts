/**
 * `screenconf keygen`: an Ed25519 key pair for signed evidence. The private key (PEM, readable by
 * its owner only) signs a run folder (`run --sign-key`); the public key goes to whoever checks it
 * (`verify --public-key`). Existing files are never overwritten.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT } from '../exit.ts';
import { generateKeys } from '../report/signature.ts';
import type { CliIO } from './args.ts';
import { type Command, type CommandSpec, helpText, parseCommand } from './command.ts';

export const KEYGEN: CommandSpec = {
  name: 'keygen',
  summary: 'make an Ed25519 key pair to sign run folders (run --sign-key, verify --public-key)',
  usage: 'screenconf keygen [--out PREFIX]',
  description: `Makes an Ed25519 key pair for signed evidence: PREFIX.key, the private key (PEM, PKCS#8, mode
600: keep it to yourself, it signs with --sign-key) and PREFIX.pub, the public key (PEM, SPKI:
hand it to whoever checks a folder with "screenconf verify DIR --public-key PREFIX.pub").
Prints the key's fingerprint, which SHA256SUMS.sig names. Existing files are never overwritten
(SC_KEY_FILE, exit 2).`,
  groups: [
    {
      title: 'Options',
      options: {
        out: { type: 'string', value: 'PREFIX', help: 'where the two files go (default screenconf-signing)' },
      },
    },
  ],
};

export const KEYGEN_COMMAND: Command = { spec: KEYGEN, run: keygenCommand };

export function keygenCommand(args: string[], io: CliIO): number {
  const { values } = parseCommand(args, KEYGEN);
  if (values.help) {
    io.out(helpText(KEYGEN));
    return EXIT.ok;
  }
  const prefix = resolve(io.cwd, String(values.out ?? 'screenconf-signing'));
  const keys = generateKeys();
  const write = (file: string, text: string, mode: number) => {
    try {
      writeFileSync(file, text, { flag: 'wx', mode });
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new HarnessError(
        'SC_KEY_FILE',
        code === 'EEXIST'
          ? `${file} exists: keygen never overwrites a key (give --out)`
          : `cannot write ${file}: ${code}`,
      );
    }
  };
  write(`${prefix}.key`, keys.privatePem, 0o600);
  write(`${prefix}.pub`, keys.publicPem, 0o644);
  io.out(
    `private key ${prefix}.key (keep it secret: screenconf run --sign-key ${prefix}.key)`,
    `public key  ${prefix}.pub (for screenconf verify DIR --public-key ${prefix}.pub)`,
    `fingerprint ${keys.fingerprint}`,
  );
  return EXIT.ok;
}
