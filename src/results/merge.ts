/**
 * One report for a run against several targets (`--target us=URL --target eu=URL`): each
 * requirement once, with its verdict on every target (`byTarget`), whether they differ, and the
 * worst of them as its verdict. The run conforms when every target does.
 */
import { combineGates } from './gate.ts';
import { countVerdicts } from './judge.ts';
import type {
  ConformanceReport,
  Failure,
  GateSummary,
  ObservationEvidence,
  RequirementResult,
  TargetResult,
  TestRef,
  Verdict,
} from './report.ts';

/** Worst first: a failure anywhere decides, then a warning, then "not judged everywhere". */
const RANK: Record<Verdict, number> = { fail: 4, warn: 3, skip: 2, pass: 1, observed: 1 };

export function worstVerdict(verdicts: Verdict[]): Verdict {
  return verdicts.reduce((worst, v) => (RANK[v] > RANK[worst] ? v : worst), verdicts[0] ?? 'skip');
}

/** One target's own report (after its gate), to merge. */
export interface TargetReport {
  label: string;
  report: ConformanceReport;
  /** Path of its conformance.json relative to the merged report's folder. */
  path: string;
}

export function mergeReports(
  perTarget: TargetReport[],
  options: { strict: boolean; expectationsFile?: string; requireComplete?: boolean },
): ConformanceReport {
  if (perTarget.length === 0) throw new Error('mergeReports needs at least one target');
  const first = perTarget[0]!.report;
  const results = first.results.map((base): RequirementResult => {
    const byTarget: Record<string, TargetResult> = {};
    const tests: TestRef[] = [];
    const failures: Failure[] = [];
    const observationEvidence: ObservationEvidence[] = [];
    for (const { label, report } of perTarget) {
      const r = report.results.find((x) => x.id === base.id);
      if (!r) {
        byTarget[label] = { verdict: 'skip', reason: "not in this target's report", tests: [] };
        continue;
      }
      byTarget[label] = {
        verdict: r.verdict,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
        ...(r.observations ? { observations: r.observations } : {}),
        tests: r.tests,
        ...(r.failures ? { failures: r.failures } : {}),
        ...(r.expected ? { expected: r.expected } : {}),
      };
      tests.push(...r.tests.map((t) => ({ ...t, target: label })));
      failures.push(...(r.failures ?? []).map((f) => ({ ...f, target: label })));
      observationEvidence.push(...(r.observationEvidence ?? []).map((o) => ({ ...o, target: label })));
    }
    const verdicts = Object.values(byTarget).map((t) => t.verdict);
    const verdict = worstVerdict(verdicts);
    const decidedBy = Object.entries(byTarget).find(([, t]) => t.verdict === verdict && t.reason);
    return {
      id: base.id,
      level: base.level,
      area: base.area,
      statement: base.statement,
      source: base.source,
      verdict,
      ...(decidedBy ? { reason: `${decidedBy[0]}: ${decidedBy[1].reason}` } : {}),
      tests,
      ...(failures.length ? { failures } : {}),
      ...(observationEvidence.length ? { observationEvidence } : {}),
      byTarget,
      differs: new Set(verdicts).size > 1,
    };
  });

  const counts = countVerdicts(results);
  const summaries = perTarget.map((t) => t.report.summary);
  const tagged = (label: string, xs: string[]) => xs.map((x) => `[${label}] ${x}`);
  const gate = combineGates(
    summaries.map((s) => s.gate).filter((g): g is GateSummary => g !== undefined),
    options.strict,
    options.expectationsFile,
    options.requireComplete,
  );
  const verdicts = summaries.map((s) => s.verdict ?? (s.conforming ? 'conforming' : 'not-conforming'));
  const verdict = verdicts.includes('not-conforming')
    ? 'not-conforming'
    : verdicts.includes('incomplete')
      ? 'incomplete'
      : 'conforming';
  const summary: ConformanceReport['summary'] = {
    verdict,
    conforming: verdict === 'conforming',
    mustNotJudged: perTarget.flatMap((t) =>
      (t.report.summary.mustNotJudged ?? []).map((n) => ({ id: n.id, reason: `[${t.label}] ${n.reason}` })),
    ),
    counts,
    mustFailures: results.filter((r) => r.level === 'MUST' && r.verdict === 'fail').length,
    shouldWarnings: results.filter((r) => r.level === 'SHOULD' && r.verdict === 'warn').length,
    harnessFaults: perTarget.flatMap((t) => tagged(t.label, t.report.summary.harnessFaults)),
    leftovers: summaries.flatMap((s) => s.leftovers),
    suiteErrors: perTarget.flatMap((t) => tagged(t.label, t.report.summary.suiteErrors)),
    throttled: summaries.reduce((n, s) => n + (s.throttled ?? 0), 0),
    ...renewedAndFlaky(perTarget),
    requests: {
      total: summaries.reduce((n, s) => n + (s.requests?.total ?? 0), 0),
      bySuite: Object.fromEntries(
        perTarget.flatMap((t) =>
          Object.entries(t.report.summary.requests?.bySuite ?? {}).map(([suite, n]) => [`${t.label}/${suite}`, n]),
        ),
      ),
      runner: summaries.reduce((n, s) => n + (s.requests?.runner ?? 0), 0),
    },
    gate,
  };
  const startedAt = perTarget.map((t) => t.report.run.startedAt).sort()[0]!;
  const finishedAt = perTarget
    .map((t) => t.report.run.finishedAt)
    .sort()
    .at(-1)!;
  const interrupted = perTarget.map((t) => t.report.run.interrupted).find(Boolean);
  const { targets: _targets, results: _results, summary: _summary, checks: _checks, ...rest } = first;
  return {
    ...rest,
    run: { ...first.run, startedAt, finishedAt, ...(interrupted ? { interrupted } : {}) },
    targets: perTarget.map(({ label, report, path }) => ({
      ...(report.targets[0] ?? {
        baseUrl: report.target.baseUrl,
        kind: report.target.kind,
        serverHeaders: report.target.serverHeaders ?? {},
      }),
      label,
      summary: report.summary,
      report: path,
    })),
    summary,
    results,
    checks: perTarget.flatMap(({ label, report }) => (report.checks ?? []).map((c) => ({ ...c, target: label }))),
  };
}

/** Token renewals and flaky requirements over the targets, when there are any. */
function renewedAndFlaky(
  perTarget: readonly TargetReport[],
): Pick<ConformanceReport['summary'], 'tokenRenewals' | 'renewals' | 'flaky'> {
  const renewals = perTarget.reduce((n, t) => n + (t.report.summary.tokenRenewals ?? 0), 0);
  const listed = perTarget.flatMap((t) =>
    (t.report.summary.renewals ?? []).map((r) => ({ ...r, check: `[${t.label}] ${r.check ?? 'the runner'}` })),
  );
  const flaky = perTarget.flatMap((t) => (t.report.summary.flaky ?? []).map((id) => `[${t.label}] ${id}`));
  return {
    ...(renewals ? { tokenRenewals: renewals } : {}),
    ...(listed.length ? { renewals: listed } : {}),
    ...(flaky.length ? { flaky } : {}),
  };
}
