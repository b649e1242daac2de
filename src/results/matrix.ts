/**
 * The input matrix as a run saw it (issue 25 §5): every cell the matrix enumerates, with whether it was sent,
 * by which check, each oracle's result, or why it was not sent; so an auditor sees what was tried, not only
 * what failed. Built from the spec's enumeration and a report's checks[] alone: the same view for a run,
 * a merged run of shards, or no run at all (every cell not sent).
 */
import { credentialCells, ORACLE_VERDICTS, type Oracle as CredentialOracle } from '../spec/credential-matrix.ts';
import { BODY_ORACLES, BODY_SUITE, bodyCells } from '../spec/inputs/body.ts';
import { containerCellSpecs } from '../spec/inputs/containers.ts';
import { KEY_ORACLES, KEY_SUITE, KEY_WAYS, type KeyOracle, keyCells } from '../spec/inputs/keys.ts';
import { enumerateCells, ORACLES, type OracleName, WAY_SUITES } from '../spec/inputs/matrix.ts';
import type { ConformanceReport } from './report.ts';

/** An oracle of the input matrix or of its credential, key and body dimensions. */
export type MatrixOracle = OracleName | CredentialOracle | KeyOracle | keyof typeof BODY_ORACLES;

/**
 * The suite file that sends each way in's cells; `credential`: Authorization on every protected endpoint; the key
 * ways (`patch-keys`…): the keys beside a write's fields; `body`: the body as a whole on every endpoint.
 */
export const MATRIX_WAYS: Readonly<Record<string, string>> = {
  ...WAY_SUITES,
  ...Object.fromEntries(KEY_WAYS.map((w) => [w, KEY_SUITE])),
  credential: 'auth',
  body: BODY_SUITE,
};

interface MatrixCell {
  id: string;
  way: string;
  encoding: string;
  field: string;
  kind: string;
  verdict: string;
  oracles: readonly MatrixOracle[];
  /** The suite file that sends it, where it is not its way's (MATRIX_WAYS). */
  suite?: string;
}

/**
 * Every cell: the input matrix's, the bulk endpoints' containers (spec/inputs/containers.ts), then the credential
 * variations' (way in `credential`, the endpoint its field), then the body dimension's (way in `body`, the endpoint
 * its field).
 */
function matrixCells(): MatrixCell[] {
  const credentials = credentialCells().map(
    (c): MatrixCell => ({
      id: c.id,
      way: 'credential',
      encoding: 'header',
      field: `Authorization on ${c.endpoint}`,
      kind: c.variation.name,
      verdict: ORACLE_VERDICTS[c.judgedBy[0]!.oracle],
      oracles: c.judgedBy.map((j) => j.oracle),
    }),
  );
  const keys = keyCells().map(
    ({ id, way, encoding, field, kind, verdict, oracles }): MatrixCell => ({
      id,
      way,
      encoding,
      field,
      kind,
      verdict,
      oracles,
    }),
  );
  return [...enumerateCells(), ...containerCellSpecs(), ...keys, ...credentials, ...bodyCells()];
}

/** One oracle's verdict on a cell: pass, fail, not judged, or '-' where it does not apply. */
export type OracleResult = 'pass' | 'fail' | 'not-judged' | '-';

export interface MatrixRow {
  cell: string;
  way: string;
  encoding: string;
  field: string;
  kind: string;
  verdict: string;
  sent: boolean;
  /** Why it was not sent (its suite not run, the run stopped). */
  notSent?: string;
  /** The checks that judged it. */
  checks: string[];
  status?: number;
  results: Partial<Record<MatrixOracle, OracleResult>>;
  /** Why an oracle failed it or could not judge it, first of them. */
  why?: string;
}

/** Counts of cells per way in and oracle. */
export interface MatrixCounts {
  way: string;
  cells: number;
  sent: number;
  byOracle: Partial<Record<MatrixOracle, { pass: number; fail: number; notJudged: number }>>;
}

/** Every cell of the matrix, joined with what `report` (when given) says of it. */
export function matrixRows(report?: ConformanceReport): MatrixRow[] {
  const judged = new Map<string, { check: string; status?: number; oracle: string; result: string; why?: string }[]>();
  for (const c of report?.checks ?? []) {
    for (const cell of c.cells ?? []) {
      const list = judged.get(cell.cell) ?? [];
      list.push({ check: `${c.suite} › ${c.name}`, oracle: cell.oracle, result: cell.result, ...pick(cell) });
      judged.set(cell.cell, list);
    }
  }
  const suites = new Set(report?.run.suites ?? []);
  return matrixCells().map((spec): MatrixRow => {
    const seen = judged.get(spec.id) ?? [];
    const results: MatrixRow['results'] = Object.fromEntries(spec.oracles.map((o) => [o, '-']));
    for (const s of seen) results[s.oracle as MatrixOracle] = s.result as OracleResult;
    const sent = seen.some((s) => s.status !== undefined || s.result !== 'not-judged');
    const why = seen.find((s) => s.result === 'fail')?.why ?? seen.find((s) => s.result === 'not-judged')?.why;
    const suite = spec.suite ?? MATRIX_WAYS[spec.way]!;
    const notSent = sent
      ? undefined
      : !report
        ? 'no run given'
        : !suites.has(suite)
          ? `suite ${suite} not run`
          : (why?.replace(/^not sent: /, '') ?? 'not sent by this run');
    const status = seen.find((s) => s.status !== undefined)?.status;
    return {
      cell: spec.id,
      way: spec.way,
      encoding: spec.encoding,
      field: spec.field,
      kind: spec.kind,
      verdict: spec.verdict,
      sent,
      ...(notSent ? { notSent } : {}),
      checks: [...new Set(seen.map((s) => s.check))],
      ...(status !== undefined ? { status } : {}),
      results,
      ...(why ? { why } : {}),
    };
  });
}

function pick(cell: { status?: number | undefined; why?: string | undefined }) {
  return { ...(cell.status !== undefined ? { status: cell.status } : {}), ...(cell.why ? { why: cell.why } : {}) };
}

/** Per way in: cells, cells sent, and each oracle's pass / fail / not judged. */
export function matrixCounts(rows: readonly MatrixRow[]): MatrixCounts[] {
  const byWay = new Map<string, MatrixCounts>();
  for (const r of rows) {
    const c = byWay.get(r.way) ?? { way: r.way, cells: 0, sent: 0, byOracle: {} };
    byWay.set(r.way, c);
    c.cells += 1;
    if (r.sent) c.sent += 1;
    for (const [o, result] of Object.entries(r.results) as [MatrixOracle, OracleResult][]) {
      if (result === '-') continue;
      const n = (c.byOracle[o] ??= { pass: 0, fail: 0, notJudged: 0 });
      if (result === 'pass') n.pass += 1;
      else if (result === 'fail') n.fail += 1;
      else n.notJudged += 1;
    }
  }
  return [...byWay.values()];
}

/** The oracles in their order, with what each says. */
export const ORACLE_ORDER: readonly MatrixOracle[] = [
  ...(Object.keys(ORACLES) as OracleName[]),
  ...(Object.keys(KEY_ORACLES) as KeyOracle[]),
  ...(Object.keys(ORACLE_VERDICTS) as CredentialOracle[]),
  ...(Object.keys(BODY_ORACLES) as (keyof typeof BODY_ORACLES)[]),
];
