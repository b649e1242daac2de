/**
 * `screenconf report DIR` (re-render report.html, report.md and junit.xml from conformance.json) and
 * `screenconf verify DIR` (check a run folder against its SHA256SUMS). DIR is a run folder, or
 * a report folder whose `latest` link names one.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { EXIT, exitForVerify } from '../exit.ts';
import { latestRunFolder, renderViews, REPORT_FILES, VIEW_FILES } from './folder.ts';
import { loadReport } from './load.ts';
import type { MarkdownOptions } from './markdown.ts';
import { MANIFEST, manifestText, readManifest, SIGNATURE, sha256File, verifyFolder, type Problem } from './manifest.ts';
import { checkSignature, loadPublicKey } from './signature.ts';

export interface CommandIO {
  out: (...lines: string[]) => void;
  cwd: string;
}

/** The run folder a DIR argument means: DIR itself, or DIR/latest when DIR is a report folder. */
export function runFolderOf(dirArg: string, cwd: string, wants: string): string {
  const dir = resolve(cwd, dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new HarnessError('SC_USAGE', `${dir} is not a folder`);
  if (existsSync(join(dir, wants))) return dir;
  return latestRunFolder(dir) ?? dir;
}

/** Re-renders the views; keeps SHA256SUMS true when it vouched for the folder before. */
export function reportCommand(dirArg: string, io: CommandIO, options: MarkdownOptions = {}): number {
  const dir = runFolderOf(dirArg, io.cwd, REPORT_FILES.json);
  const jsonPath = join(dir, REPORT_FILES.json);
  const report = loadReport(jsonPath);
  // Only a manifest that still vouches for everything but the views is brought up to date:
  // re-rendering must not make a tampered folder look intact.
  const views: readonly string[] = VIEW_FILES;
  const hasManifest = existsSync(join(dir, MANIFEST));
  const before = hasManifest
    ? verifyFolder(dir).problems.filter((p) => !(views.includes(p.file) && p.kind !== 'manifest'))
    : [];
  const { html, markdown, junit } = renderViews(report, options);
  writeFileSync(join(dir, REPORT_FILES.html), html);
  writeFileSync(join(dir, REPORT_FILES.markdown), markdown);
  writeFileSync(join(dir, REPORT_FILES.junit), junit);
  io.out(
    `rendered ${join(dir, REPORT_FILES.html)}, ${REPORT_FILES.markdown} and ${REPORT_FILES.junit} from ` +
      `${REPORT_FILES.json} (run ${report.run.id})`,
  );
  if (!hasManifest) return EXIT.ok;
  if (before.length) {
    io.out(
      `${MANIFEST} left as it was: the folder does not match it ` +
        `(${describe(before[0]!)}${before.length > 1 ? `, and ${before.length - 1} more` : ''}); "screenconf ` +
        `verify ${dir}" lists every difference`,
    );
    return EXIT.ok;
  }
  const { entries } = readManifest(dir);
  const changed = views.filter((v) => entries.get(v) !== sha256File(join(dir, v)));
  if (!changed.length) {
    io.out(`${MANIFEST} holds as it was: the views came out the same`);
    return EXIT.ok;
  }
  // A signed manifest is the signer's: changing it would break the signature, so the difference is shown instead.
  if (existsSync(join(dir, SIGNATURE))) {
    io.out(
      `${MANIFEST} left as it was: it is signed (${SIGNATURE}); the re-rendered ${changed.join(', ')} now differ ` +
        `from it, as "screenconf verify" will say`,
    );
    return EXIT.ok;
  }
  for (const v of views) entries.set(v, sha256File(join(dir, v)));
  writeFileSync(join(dir, MANIFEST), manifestText(entries));
  io.out(`${MANIFEST} updated for the re-rendered ${views.join(', ')}`);
  return EXIT.ok;
}

function describe(p: Problem): string {
  return p.kind === 'manifest' ? `${p.file}: ${p.detail}` : `${p.kind}: ${p.file}`;
}

/**
 * 0 intact, 1 a file changed, went missing or was added (each named); with a public key, also 1 when SHA256SUMS.sig
 * is missing, altered, made with another key, or does not sign SHA256SUMS as it is.
 */
export function verifyCommand(dirArg: string, io: CommandIO, options: { publicKey?: string } = {}): number {
  const publicKey = options.publicKey ? loadPublicKey(resolve(io.cwd, options.publicKey)) : undefined;
  const dir = runFolderOf(dirArg, io.cwd, MANIFEST);
  const { problems, checked } = verifyFolder(dir);
  const signature = checkSignature(dir, publicKey);
  for (const p of problems)
    io.out(
      p.kind === 'manifest'
        ? `${p.kind.toUpperCase().padEnd(8)} ${p.file}: ${p.detail}`
        : `${p.kind.toUpperCase().padEnd(8)} ${p.file}`,
    );
  let signed = true;
  if (signature.status === 'valid') io.out(`signed: ${SIGNATURE} holds for ${MANIFEST}, by the key ${signature.key}`);
  else if (signature.status === 'invalid') {
    io.out(`SIGNATURE ${signature.problem}`);
    signed = false;
  } else if (signature.status === 'absent' && publicKey) {
    io.out(`SIGNATURE ${SIGNATURE} is missing: the folder was not signed, or the signature was removed`);
    signed = false;
  } else if (signature.status === 'unchecked')
    io.out(`${SIGNATURE} (key ${signature.key ?? '?'}) not checked: give --public-key to check it`);
  if (!problems.length && signed) {
    io.out(`intact: ${checked} file${checked === 1 ? '' : 's'} match ${MANIFEST} in ${dir}`);
    return exitForVerify(0);
  }
  const what = [
    ...(problems.length ? [`${problems.length} difference${problems.length === 1 ? '' : 's'} from ${MANIFEST}`] : []),
    ...(signed ? [] : ['a signature that does not hold']),
  ];
  io.out(`NOT INTACT: ${what.join(' and ')} in ${dir}`);
  return exitForVerify(problems.length, signed);
}
