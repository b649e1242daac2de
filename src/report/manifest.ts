/**
 * The integrity digest of a run folder: SHA256SUMS, one line per file (`<sha256>  <path>`, the
 * format of coreutils' sha256sum, so `sha256sum -c SHA256SUMS` checks it too), paths relative
 * to the folder, sorted. `screenconf verify DIR` names every file that changed, went missing or
 * was added since.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST = 'SHA256SUMS';
/** The detached signature of the manifest (signature.ts), written after it: not listed in it. */
export const SIGNATURE = `${MANIFEST}.sig`;

const LINE = /^([0-9a-f]{64}) [ *](.+)$/;

/**
 * Files of a folder, recursively, as relative paths with '/', sorted; the manifest and its signature left out.
 * Symbolic links and other non-files are listed in `others`.
 */
export function folderFiles(dir: string): { files: string[]; others: string[] } {
  const files: string[] = [];
  const others: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        if (path !== MANIFEST && path !== SIGNATURE) files.push(path);
      } else others.push(path);
    }
  };
  walk('');
  return { files: files.sort(), others: others.sort() };
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The manifest text of a folder's files (`entries` replaces or adds some, for files about to be written). */
export function manifestText(entries: Map<string, string>): string {
  return [...entries.keys()]
    .sort()
    .map((path) => `${entries.get(path)}  ${path}\n`)
    .join('');
}

/** Hashes every file of the folder and writes SHA256SUMS; returns how many files it lists. */
export function writeManifest(dir: string): number {
  const { files } = folderFiles(dir);
  for (const f of files)
    if (/[\n\\]/.test(f)) throw new Error(`cannot list "${f}" in ${MANIFEST}: a newline or backslash in a file name`);
  writeFileSync(join(dir, MANIFEST), manifestText(new Map(files.map((f) => [f, sha256File(join(dir, f))]))));
  return files.length;
}

export type Problem =
  | { kind: 'changed'; file: string }
  | { kind: 'missing'; file: string }
  | { kind: 'extra'; file: string }
  | { kind: 'manifest'; file: string; detail: string };

/** The entries of a manifest: path → digest; a malformed line is a problem (the manifest itself was altered). */
export function readManifest(dir: string): { entries: Map<string, string>; problems: Problem[] } {
  const entries = new Map<string, string>();
  const problems: Problem[] = [];
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST), 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    problems.push({
      kind: code === 'ENOENT' ? 'missing' : 'manifest',
      file: MANIFEST,
      detail: code ?? 'cannot be read',
    });
    return { entries, problems };
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    const m = LINE.exec(line);
    if (!m) {
      problems.push({ kind: 'manifest', file: MANIFEST, detail: `line ${i + 1} is not "<sha256>  <file>"` });
      return;
    }
    if (entries.has(m[2]!))
      problems.push({ kind: 'manifest', file: MANIFEST, detail: `line ${i + 1} lists ${m[2]} a second time` });
    entries.set(m[2]!, m[1]!);
  });
  return { entries, problems };
}

/** Checks a folder against its SHA256SUMS. */
export function verifyFolder(dir: string): { problems: Problem[]; checked: number } {
  const { entries, problems } = readManifest(dir);
  if (problems.some((p) => p.file === MANIFEST && p.kind === 'missing')) return { problems, checked: 0 };
  const { files, others } = folderFiles(dir);
  const present = new Set(files);
  let checked = 0;
  for (const [file, digest] of entries) {
    if (!present.has(file)) {
      problems.push({ kind: 'missing', file });
      continue;
    }
    checked += 1;
    if (sha256File(join(dir, file)) !== digest) problems.push({ kind: 'changed', file });
  }
  for (const file of [...files, ...others]) if (!entries.has(file)) problems.push({ kind: 'extra', file });
  return { problems, checked };
}
