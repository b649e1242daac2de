/**
 * One folder per run inside --report-dir:
 *
 *   reports/
 *     ledger.jsonl                    every run's ledger (screenconf cleanup reads it)
 *     latest -> 20260131T120000Z-1a2b3c4d   symbolic link to the newest run folder
 *     20260131T120000Z-1a2b3c4d/      <UTC start>-<run id>: sorts by time, never reused
 *       conformance.json  report.html  report.md  junit.xml  [throttled.jsonl]
 *       repro/<REQ-ID>.sh             per failed requirement: a sh + curl script that reproduces it
 *       SHA256SUMS                    SHA-256 of every other file (screenconf verify)
 *       SHA256SUMS.sig                with --sign-key: its Ed25519 signature (verify --public-key)
 *
 * Every text written passes the redactor; the manifest is written last.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { basename, join } from 'node:path';
import type { Redactor } from '../base/redact.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { writeManifest } from './manifest.ts';
import { REPRO_DIR, replayCommand, replayEnv, reproCommand, reproPath, reproScript } from './repro.ts';
import { signFolder } from './signature.ts';
import { type MarkdownOptions, renderMarkdown } from './markdown.ts';
import { parseReport } from './load.ts';
import type { ConformanceReport } from '../results/report.ts';

export const REPORT_FILES = {
  json: 'conformance.json',
  html: 'report.html',
  markdown: 'report.md',
  junit: 'junit.xml',
} as const;
export const LATEST = 'latest';

/** `20260131T120000Z-1a2b3c4d`: the run's UTC start and its id. */
export function runFolderName(startedAt: Date, runId: string): string {
  return `${startedAt
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')}-${runId}`;
}

/** Creates the run's folder inside the report folder (both, when needed); returns its path. */
export function createRunFolder(reportDir: string, startedAt: Date, runId: string): string {
  const dir = join(reportDir, runFolderName(startedAt, runId));
  mkdirSync(reportDir, { recursive: true });
  mkdirSync(dir);
  return dir;
}

/**
 * Points reportDir/latest at the run folder (a relative symbolic link, replaced atomically).
 * Returns false when the file system has no symbolic links (the folder name is printed anyway).
 */
export function pointLatest(reportDir: string, runDir: string): boolean {
  const link = join(reportDir, LATEST);
  const temp = join(reportDir, `.${LATEST}-${process.pid}-${Date.now()}`);
  try {
    symlinkSync(basename(runDir), temp, 'dir');
    renameSync(temp, link);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}

/** The run folder `latest` points to, when it does. */
export function latestRunFolder(reportDir: string): string | undefined {
  const link = join(reportDir, LATEST);
  try {
    if (!lstatSync(link).isSymbolicLink()) return undefined;
    const target = join(reportDir, readlinkSync(link));
    return existsSync(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every string inside a value, redacted (before rendering: escaping would hide a secret from a pass over the output).
 */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redactor)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactor.redact(k)] = redactDeep(v, redactor);
  return out as T;
}

/** The files rendered from conformance.json, by name. */
export const VIEW_FILES = [REPORT_FILES.html, REPORT_FILES.markdown, REPORT_FILES.junit] as const;

/**
 * report.html, report.md and junit.xml of a report (pure: the same report gives the same bytes). report.md keeps to
 * `mdMaxChars`, by default the run's own --md-max-chars.
 */
export function renderViews(
  report: ConformanceReport,
  options: MarkdownOptions = {},
): { html: string; markdown: string; junit: string } {
  return { html: renderHtml(report), markdown: renderMarkdown(report, options), junit: renderJunit(report) };
}

/**
 * Writes repro/<ID>.sh (mode 0755) for each failed requirement with evidence to replay (one target only: the scripts
 * replay against its base URL) and returns the report with each result naming its script and its `screenconf replay`
 * command.
 */
function writeReproScripts(runDir: string, report: ConformanceReport, redactor: Redactor): ConformanceReport {
  if (report.targets.length > 1) return report;
  const options = report.run.options ?? {};
  const env = report.target.kind === 'embedded' ? [] : replayEnv(options);
  const ctx = {
    runId: report.run.id,
    baseUrl: report.target.baseUrl,
    clientId: typeof options.clientId === 'string' ? options.clientId : undefined,
    peerClientId: typeof options.peerClientId === 'string' ? options.peerClientId : undefined,
    timeoutMs: typeof options.timeoutMs === 'number' ? options.timeoutMs : undefined,
  };
  const results = report.results.map((r) => {
    if ((r.verdict !== 'fail' && r.verdict !== 'warn') || !r.failures?.length) return r;
    const replay = { command: replayCommand(r.id, env), env };
    const made = reproScript(r, { ...ctx, replayCommand: replay.command });
    if (!made) return { ...r, replay };
    mkdirSync(join(runDir, REPRO_DIR), { recursive: true });
    const file = join(runDir, reproPath(r.id));
    writeFileSync(file, redactor.redact(made.script));
    chmodSync(file, 0o755);
    const repro = { script: reproPath(r.id), env: made.env, command: reproCommand(r.id, made.env) };
    return { ...r, repro, replay };
  });
  return { ...report, results };
}

/**
 * Writes conformance.json, report.html, report.md and junit.xml into the run folder, then SHA256SUMS
 * over everything in it (so any log must be there first) and, given a key, its signature. Returns the paths and the
 * report as written (each failed result naming its reproduction script).
 */
export function writeRunReports(
  runDir: string,
  report: ConformanceReport,
  redactor: Redactor,
  signKey?: KeyObject,
): { json: string; html: string; markdown: string; junit: string; report: ConformanceReport } {
  const clean = redactDeep(writeReproScripts(runDir, report, redactor), redactor);
  const paths = {
    json: join(runDir, REPORT_FILES.json),
    html: join(runDir, REPORT_FILES.html),
    markdown: join(runDir, REPORT_FILES.markdown),
    junit: join(runDir, REPORT_FILES.junit),
  };
  const json = renderJson(clean, redactor);
  writeFileSync(paths.json, json);
  // Rendered from the file as written, exactly as `screenconf report` re-renders it.
  const views = renderViews(parseReport(json, paths.json));
  writeFileSync(paths.html, redactor.redact(views.html));
  writeFileSync(paths.markdown, redactor.redact(views.markdown));
  writeFileSync(paths.junit, redactor.redact(views.junit));
  writeManifest(runDir);
  if (signKey) signFolder(runDir, signKey);
  return { ...paths, report: clean };
}
