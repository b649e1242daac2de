/**
 * A campaign's results: the pieces a run writes (one per `npm run mutate`, per shard or per group of
 * files), merged into one; the score per file and in total (mutation-testing-metrics, the figures of
 * Stryker's own HTML report); every surviving mutant with its location and diff; and each mutant's
 * identity across commits (its key), which the regression check compares with bench/mutation.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { calculateMetrics, type Metrics } from 'mutation-testing-metrics';
import type { FileResult, MutantResult, MutationTestResult } from 'mutation-testing-report-schema';

/** What a piece says about itself (piece.json beside Stryker's mutation.json). */
export interface PieceMeta {
  /** The files whose mutants this piece ran, in full. */
  files: string[];
  shard?: { index: number; count: number } | undefined;
  /** sha256 of each file's source as mutated. */
  sources: Record<string, string>;
  settings: { seed: number; runs: number; concurrency: number };
  startedAt: string;
  wallMs: number;
  machine: { cpus: number; model: string; node: string };
  stryker: string;
  /** A merged result: the pieces it was made of (each a Stryker run with its own wall time). */
  parts?: { files: string[]; wallMs: number; shard?: { index: number; count: number } | undefined }[];
}

/** One line of a worker's record (runner.ts): a mutant's judgement, or the dry run. */
export interface RunRecord {
  at: string;
  dryRun?: boolean;
  id?: string;
  file?: string;
  status?: string;
  reason?: string;
  ms: number;
  runs?: number;
  static?: boolean;
}

export interface Piece {
  meta: PieceMeta;
  report: MutationTestResult;
  runs: RunRecord[];
}

export const REPORT_FILE = 'mutation.json';
export const META_FILE = 'piece.json';
export const RUNS_FILE = 'runs.jsonl';
export const HTML_FILE = 'mutation.html';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function loadPiece(dir: string): Piece {
  const need = (f: string) => {
    if (!existsSync(join(dir, f))) throw new Error(`${dir} is not a mutation result: ${f} is missing`);
    return readFileSync(join(dir, f), 'utf8');
  };
  const runs = existsSync(join(dir, RUNS_FILE))
    ? need(RUNS_FILE)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RunRecord)
    : [];
  return { meta: JSON.parse(need(META_FILE)), report: JSON.parse(need(REPORT_FILE)), runs };
}

export function writePiece(dir: string, piece: Piece): void {
  writeFileSync(join(dir, META_FILE), `${JSON.stringify(piece.meta, null, 2)}\n`);
  writeFileSync(join(dir, REPORT_FILE), JSON.stringify(piece.report));
  writeFileSync(join(dir, RUNS_FILE), piece.runs.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(join(dir, HTML_FILE), reportHtml(piece.report));
}

/** The piece of a shard that got no file. */
export function emptyPiece(shard: { index: number; count: number }, seed: number, runs: number): Piece {
  return {
    meta: {
      files: [],
      shard,
      sources: {},
      settings: { seed, runs, concurrency: 0 },
      startedAt: new Date().toISOString(),
      wallMs: 0,
      machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? 'unknown', node: process.version },
      stryker: '',
    },
    report: { schemaVersion: '1', thresholds: { high: 80, low: 60 }, files: {} },
    runs: [],
  };
}

/** The runs records the workers of a Stryker run wrote into `dir` (one file per worker process). */
export function readRunRecords(dir: string): RunRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^runs-\d+\.jsonl$/.test(f))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as RunRecord),
    )
    .sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * The pieces as one result. Refused when they do not fit together: a file in two pieces, sources or
 * settings that differ, or shards that are not one whole set (each I of N exactly once).
 */
export function mergePieces(pieces: Piece[]): Piece {
  if (pieces.length === 0) throw new Error('nothing to merge');
  const [first] = pieces as [Piece, ...Piece[]];
  const files: Record<string, FileResult> = {};
  const owner = new Map<string, number>();
  pieces.forEach((p, i) => {
    const s = p.meta.settings;
    const f = first.meta.settings;
    if (s.seed !== f.seed || s.runs !== f.runs) {
      throw new Error(
        `piece ${i + 1} ran --seed ${s.seed} --runs ${s.runs}, piece 1 --seed ${f.seed} --runs ${f.runs}`,
      );
    }
    for (const [name, file] of Object.entries(p.report.files)) {
      if (owner.has(name)) throw new Error(`${name} is in pieces ${owner.get(name)! + 1} and ${i + 1}`);
      owner.set(name, i);
      files[name] = file;
    }
  });
  const shards = pieces.map((p) => p.meta.shard);
  if (shards.some(Boolean)) {
    const count = shards[0]?.count;
    const seen = shards.map((s) => (s && s.count === count ? s.index : -1)).sort((a, b) => a - b);
    const whole = count !== undefined && seen.length === count && seen.every((index, k) => index === k + 1);
    if (!whole) {
      const got = shards.map((s) => (s ? `${s.index}/${s.count}` : 'unsharded')).join(', ');
      throw new Error(`the shards are not one whole set: ${got}`);
    }
  }
  const sources: Record<string, string> = {};
  for (const p of pieces) Object.assign(sources, p.meta.sources);
  const meta: PieceMeta = {
    files: pieces.flatMap((p) => p.meta.files).sort(),
    sources,
    settings: first.meta.settings,
    startedAt: pieces.map((p) => p.meta.startedAt).sort()[0]!,
    wallMs: pieces.reduce((n, p) => n + p.meta.wallMs, 0),
    machine: first.meta.machine,
    stryker: first.meta.stryker,
    parts: pieces.flatMap((p) => p.meta.parts ?? [{ files: p.meta.files, wallMs: p.meta.wallMs, shard: p.meta.shard }]),
  };
  return {
    meta,
    report: { ...first.report, files },
    runs: pieces.flatMap((p) => p.runs).sort((a, b) => a.at.localeCompare(b.at)),
  };
}

/** The figures of one file or the whole: counts by status and the score (detected / valid, in %). */
export interface Figures {
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  errors: number;
  ignored: number;
  /** Killed or timed out, of every mutant that is not ignored nor an error (Stryker's mutation score). */
  score: number;
  /** The same of the mutants the run executes (leaving out those no conforming run reaches). */
  scoreCovered: number;
}

function figures(m: Metrics): Figures {
  const round = (x: number) => (Number.isNaN(x) ? 0 : Math.round(x * 100) / 100);
  return {
    mutants: m.totalMutants,
    killed: m.killed,
    timeout: m.timeout,
    survived: m.survived,
    noCoverage: m.noCoverage,
    errors: m.totalInvalid,
    ignored: m.ignored,
    score: round(m.mutationScore),
    scoreCovered: round((m.totalDetected / (m.totalDetected + m.survived)) * 100),
  };
}

export function fileFigures(report: MutationTestResult): Record<string, Figures> {
  return Object.fromEntries(
    Object.keys(report.files)
      .sort()
      .map((name) => [name, figures(calculateMetrics({ [name]: report.files[name]! }).metrics)]),
  );
}

export function totalFigures(report: MutationTestResult): Figures {
  return figures(calculateMetrics(report.files).metrics);
}

/** The source a mutant replaces. */
export function originalText(source: string, m: MutantResult): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1]!.slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1]!.slice(0, end.column - 1),
  ].join('\n');
}

/** The lines a mutant changes, as a unified diff body (`- ` before, `+ ` after). */
export function mutantDiff(source: string, m: MutantResult): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  const before = lines.slice(start.line - 1, end.line);
  const head = before[0]!.slice(0, start.column - 1);
  const tail = before.at(-1)!.slice(end.column - 1);
  const after = `${head}${m.replacement ?? ''}${tail}`.split('\n');
  return [...before.map((l) => `- ${l}`), ...after.map((l) => `+ ${l}`)].join('\n');
}

/**
 * Each mutant's identity across commits: its file, mutator, the code it replaces and the replacement,
 * the (trimmed) line it starts on, and which occurrence of all that in the file it is. Lines added or
 * removed elsewhere in the file do not change it.
 */
export function mutantKeys(source: string, mutants: readonly MutantResult[]): Map<MutantResult, string> {
  const lines = source.split('\n');
  const seen = new Map<string, number>();
  const keys = new Map<MutantResult, string>();
  const ordered = [...mutants].sort(
    (a, b) =>
      a.location.start.line - b.location.start.line ||
      a.location.start.column - b.location.start.column ||
      a.mutatorName.localeCompare(b.mutatorName) ||
      (a.replacement ?? '').localeCompare(b.replacement ?? ''),
  );
  for (const m of ordered) {
    const base = sha256(
      [m.mutatorName, originalText(source, m), m.replacement ?? '', lines[m.location.start.line - 1]!.trim()].join(
        '\0',
      ),
    ).slice(0, 12);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    keys.set(m, n === 0 ? base : `${base}.${n}`);
  }
  return keys;
}

export const UNDETECTED = new Set(['Survived', 'NoCoverage']);
export const DETECTED = new Set(['Killed', 'Timeout']);

/** A surviving (or never executed) mutant, as the summary and the survivors list show it. */
export interface Survivor {
  file: string;
  line: number;
  column: number;
  mutator: string;
  replacement: string;
  status: string;
  /** What the run noted (a SHOULD that warned, a MUST not judged). */
  note?: string | undefined;
  diff: string;
}

/** The report's name of the file a run record names (Stryker gives the runner absolute paths). */
function reportName(piece: Piece, file: string): string {
  return Object.keys(piece.report.files).find((n) => file === n || file.endsWith(`/${n}`)) ?? file;
}

export function survivors(piece: Piece): Survivor[] {
  const notes = new Map(
    piece.runs
      .filter((r) => r.id && r.file && r.reason)
      .map((r) => [`${reportName(piece, r.file!)}#${r.id}`, r.reason]),
  );
  const out: Survivor[] = [];
  for (const [file, result] of Object.entries(piece.report.files).sort(([a], [b]) => a.localeCompare(b))) {
    for (const m of result.mutants) {
      if (!UNDETECTED.has(m.status)) continue;
      out.push({
        file,
        line: m.location.start.line,
        column: m.location.start.column,
        mutator: m.mutatorName,
        replacement: m.replacement ?? '',
        status: m.status,
        note: notes.get(`${file}#${m.id}`),
        diff: mutantDiff(result.source, m),
      });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

/** Mutants marked equivalent in the source (`// Stryker disable … : reason`), with their reasons. */
export function equivalents(piece: Piece) {
  return Object.entries(piece.report.files).flatMap(([file, result]) =>
    result.mutants
      .filter((m) => m.status === 'Ignored')
      .map((m) => ({
        file,
        line: m.location.start.line,
        mutator: m.mutatorName,
        replacement: m.replacement ?? '',
        reason: m.statusReason ?? '',
      })),
  );
}

/** Time spent running each file's mutants (the sum of their runs; runs of several files overlap). */
export function runTimeByFile(piece: Piece): Record<string, { runs: number; ms: number }> {
  const out: Record<string, { runs: number; ms: number }> = {};
  for (const r of piece.runs) {
    if (!r.file) continue;
    const t = (out[reportName(piece, r.file)] ??= { runs: 0, ms: 0 });
    t.runs += r.runs ?? 1;
    t.ms += r.ms * (r.runs ?? 1);
  }
  return out;
}

const pct = (x: number) => `${x.toFixed(2)}%`.padStart(8);

/** The score per file and in total, then every survivor with its diff: what `npm run mutate` prints. */
export function renderSummary(piece: Piece): string {
  const rows = fileFigures(piece.report);
  const total = totalFigures(piece.report);
  const width = Math.max(5, ...Object.keys(rows).map((f) => f.length));
  const head = `${'file'.padEnd(width)}    score  mutants  killed timeout survived no-cov errors ignored`;
  const row = (name: string, f: Figures) =>
    `${name.padEnd(width)} ${pct(f.score)} ${String(f.mutants).padStart(8)} ${String(f.killed).padStart(7)} ` +
    `${String(f.timeout).padStart(7)} ${String(f.survived).padStart(8)} ${String(f.noCoverage).padStart(6)} ` +
    `${String(f.errors).padStart(6)} ${String(f.ignored).padStart(7)}`;
  const lines = [head, ...Object.entries(rows).map(([n, f]) => row(n, f)), row('all files', total), ''];
  const list = survivors(piece);
  lines.push(`${list.length} mutant(s) not detected (survived, or never executed by a conforming run: no-cov):`);
  for (const s of list) {
    lines.push('', `${s.file}:${s.line}:${s.column} ${s.mutator} (${s.status})${s.note ? ` — ${s.note}` : ''}`);
    lines.push(...s.diff.split('\n').map((l) => `    ${l}`));
  }
  lines.push(
    '',
    `Score: ${total.score.toFixed(2)}% of ${total.mutants - total.errors - total.ignored} mutants detected ` +
      `(${total.scoreCovered.toFixed(2)}% of those a conforming run executes); ${total.ignored} marked equivalent, ` +
      `${total.errors} error(s); ${Math.round(piece.meta.wallMs / 1000)} s`,
  );
  return lines.join('\n');
}

/** Stryker's HTML report page for a result (the same page its html reporter writes, for a merged result too). */
export function reportHtml(report: MutationTestResult): string {
  const require = createRequire(import.meta.url);
  const script = readFileSync(require.resolve('mutation-testing-elements/dist/mutation-test-elements.js'), 'utf8');
  // "<" inside the JSON would let a string close the script element.
  const data = JSON.stringify(report).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>screenconf mutation report</title>
<script>${script}</script>
</head>
<body>
<mutation-test-report-app title-postfix="screenconf"></mutation-test-report-app>
<script>
const app = document.querySelector('mutation-test-report-app');
app.report = ${data};
</script>
</body>
</html>
`;
}
