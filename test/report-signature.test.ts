/**
 * Signed evidence, as an auditor and an implementer would meet it: the auditor makes a key pair
 * (`screenconf keygen`) and runs with `--sign-key`; the folder then holds SHA256SUMS.sig. Whoever
 * edits a report and writes SHA256SUMS again is caught by `verify --public-key`, and so is an
 * altered, removed or foreign signature. Real runs, real files, node:crypto underneath.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.ts';
import { folderFiles, MANIFEST, manifestText, SIGNATURE, sha256File } from '../src/report/manifest.ts';
import { type CliResult, cleanEnv, reportFiles, runFolder, screenconf, tempDir } from './support/cli.ts';
import { screenconfInProcess } from './support/in-process.ts';

const keys = tempDir('screenconf-keys-');
const dir = tempDir('screenconf-signed-');
let folder: string;
let run: CliResult;

async function cli(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    out: (...lines) => (stdout += lines.map((l) => `${l}\n`).join('')),
    err: (l) => (stderr += `${l}\n`),
    env: cleanEnv(),
    cwd: keys,
  });
  return { status, stdout, stderr };
}

/** A copy of the signed run folder to tamper with. */
function copy(): string {
  const to = join(tempDir(), 'run');
  cpSync(folder, to, { recursive: true });
  return to;
}

/** What an implementer who edits a report does next: write SHA256SUMS again, in its own format. */
function regenerateManifest(to: string): void {
  const { files } = folderFiles(to);
  writeFileSync(join(to, MANIFEST), manifestText(new Map(files.map((f) => [f, sha256File(join(to, f))]))));
}

beforeAll(async () => {
  const made = await cli(['keygen', '--out', 'auditor']);
  expect(made.status, made.stderr).toBe(0);
  expect((await cli(['keygen', '--out', 'someone-else'])).status).toBe(0);
  run = await screenconfInProcess([
    'run',
    '--report-dir',
    dir,
    '--suites',
    'case-delete',
    '--reference-faults',
    'delete.noop',
    '--seed',
    '5',
    '--sign-key',
    join(keys, 'auditor.key'),
  ]);
  folder = runFolder(dir);
});

describe('screenconf keygen', () => {
  it('writes a private key only its owner reads, a public key, and prints the fingerprint', async () => {
    expect(readFileSync(join(keys, 'auditor.key'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(join(keys, 'auditor.pub'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(statSync(join(keys, 'auditor.key')).mode & 0o777).toBe(0o600);
    const again = await cli(['keygen', '--out', 'auditor']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/^screenconf: error SC_KEY_FILE: .*auditor\.key exists: keygen never overwrites/);
  });
});

describe('run --sign-key', () => {
  it('signs SHA256SUMS into SHA256SUMS.sig, naming the key, and keeps the private key out of every file', () => {
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(readdirSync(folder)).toContain(SIGNATURE);
    const sig = readFileSync(join(folder, SIGNATURE), 'utf8');
    expect(sig).toMatch(
      /^screenconf signature 1\nalgorithm: ed25519\nsigned: SHA256SUMS\nkey: SHA256:\S+\nsignature: \S+\n$/,
    );
    expect(run.stdout).toMatch(/^signed SHA256SUMS into SHA256SUMS\.sig with the key SHA256:\S+$/m);
    // The manifest does not list the signature (it is written after), and the private key is in no file.
    expect(readFileSync(join(folder, MANIFEST), 'utf8')).not.toContain(SIGNATURE);
    const secret = readFileSync(join(keys, 'auditor.key'), 'utf8').split('\n')[1]!;
    for (const [path, text] of reportFiles(dir)) expect(text.includes(secret), path).toBe(false);
    expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('refuses a key that is not an Ed25519 private key before anything is sent: SC_KEY_FILE, exit 2', async () => {
    const other = tempDir();
    for (const key of [join(keys, 'auditor.pub'), join(keys, 'missing.key')]) {
      const r = await screenconfInProcess(['run', '--report-dir', other, '--suites', 'case-delete', '--sign-key', key]);
      expect(r.status, key).toBe(2);
      expect(r.stderr).toMatch(/^screenconf: error SC_KEY_FILE: [^\n]+\n$/);
    }
    expect(existsSync(join(other, 'latest'))).toBe(false);
  });
});

describe('verify --public-key', () => {
  it('exit 0 on the folder as signed', async () => {
    const r = await cli(['verify', folder, '--public-key', 'auditor.pub']);
    expect(r.status, r.stdout).toBe(0);
    const listed = readFileSync(join(folder, 'SHA256SUMS'), 'utf8').trim().split('\n').length;
    expect(r.stdout).toMatch(
      new RegExp(`^signed: SHA256SUMS\\.sig holds for SHA256SUMS, by the key SHA256:\\S+\\nintact: ${listed} files`),
    );
  });

  it('catches the implementer who edits a report and writes SHA256SUMS again (which plain verify cannot)', async () => {
    const to = copy();
    const html = join(to, 'report.html');
    writeFileSync(html, readFileSync(html, 'utf8').replace('NOT CONFORMING', 'CONFORMING'));
    regenerateManifest(to);
    // SHA256SUMS alone proves nothing: it matches the edited folder.
    const plain = await cli(['verify', to]);
    expect(plain.status).toBe(0);
    const r = await cli(['verify', to, '--public-key', 'auditor.pub']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('SIGNATURE SHA256SUMS is not what was signed');
    expect(r.stdout).toMatch(/NOT INTACT: a signature that does not hold in /);
    // Through the binary too: the exit status a CI gate sees.
    expect((await screenconf(['verify', to, '--public-key', join(keys, 'auditor.pub')])).status).toBe(1);
  });

  it('names a file changed without touching SHA256SUMS; the signature itself still holds', async () => {
    const to = copy();
    writeFileSync(join(to, 'report.md'), 'edited\n');
    const r = await cli(['verify', to, '--public-key', 'auditor.pub']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('CHANGED  report.md\n');
    expect(r.stdout).toContain('signed: SHA256SUMS.sig holds');
  });

  it('an altered, removed or foreign signature fails, named', async () => {
    const altered = copy();
    const sig = readFileSync(join(altered, SIGNATURE), 'utf8');
    const flipped = sig.replace(/signature: (.)/, (_, c: string) => `signature: ${c === 'A' ? 'B' : 'A'}`);
    writeFileSync(join(altered, SIGNATURE), flipped);
    const a = await cli(['verify', altered, '--public-key', 'auditor.pub']);
    expect(a.status).toBe(1);
    expect(a.stdout).toContain('SIGNATURE SHA256SUMS is not what was signed');

    const removed = copy();
    rmSync(join(removed, SIGNATURE));
    const b = await cli(['verify', removed, '--public-key', 'auditor.pub']);
    expect(b.status).toBe(1);
    expect(b.stdout).toContain('SIGNATURE SHA256SUMS.sig is missing');

    const c = await cli(['verify', folder, '--public-key', 'someone-else.pub']);
    expect(c.status).toBe(1);
    expect(c.stdout).toMatch(/SIGNATURE SHA256SUMS\.sig names the key SHA256:\S+, not the one given \(SHA256:\S+\)/);

    const garbled = copy();
    writeFileSync(join(garbled, SIGNATURE), 'not a signature\n');
    const d = await cli(['verify', garbled, '--public-key', 'auditor.pub']);
    expect(d.status).toBe(1);
    expect(d.stdout).toContain('SIGNATURE SHA256SUMS.sig is not a screenconf signature');
  });

  it('refuses a private key or a file that is no key as --public-key: SC_KEY_FILE, exit 2', async () => {
    for (const key of ['auditor.key', join(folder, 'report.md')]) {
      const r = await cli(['verify', folder, '--public-key', key]);
      expect(r.status, key).toBe(2);
      expect(r.stderr).toMatch(/^screenconf: error SC_KEY_FILE: /);
    }
  });

  it('screenconf report keeps a signed folder signed: the same views, the same SHA256SUMS', async () => {
    const to = copy();
    const before = createHash('sha256')
      .update(readFileSync(join(to, MANIFEST)))
      .digest('hex');
    const r = await cli(['report', to]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('SHA256SUMS holds as it was');
    expect(
      createHash('sha256')
        .update(readFileSync(join(to, MANIFEST)))
        .digest('hex'),
    ).toBe(before);
    expect((await cli(['verify', to, '--public-key', 'auditor.pub'])).status).toBe(0);
  });
});
