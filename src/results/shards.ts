/**
 * The partial reports of a sharded run (`run --shard I/N`) made one: first the set is checked (one
 * run's shards, each once, none missing), then every check record of every shard is read back from
 * its report and the whole catalogue is judged again from their union — never by combining verdict
 * words — so the verdicts are those of the same run unsharded. A requirement whose checks ran in
 * two shards is judged from the checks of both.
 */
import { RENEWALS_LISTED } from './token-renewals.ts';
import { stringifyJson } from '../base/json.ts';
import { HarnessError, isErrorCode } from '../errors.ts';
import { CATALOGUE, CATALOGUE_VERSION, USER_OWNER, type UserRequirement, userRequirement } from '../spec/index.ts';
import { buildReport, checkEntries } from './build.ts';
import type { Expectation } from './gate.ts';
import { judge, notJudged, runVerdict } from './judge.ts';
import type { Observation } from './evidence.ts';
import type { CheckOutcome, HarnessFault } from './outcome.ts';
import type { CleanupSummary, ConformanceReport, Failure, RequirementResult, Summary } from './report.ts';
import { ServerHeaders } from './server-headers.ts';

/** One shard's report and where it was read from (named in refusals). */
export interface ShardInput {
  where: string;
  report: ConformanceReport;
}

/** The target of a report as shards must share it: a base URL, or the embedded server with its switches. */
function targetIdentity(r: ConformanceReport): string {
  return r.targets
    .map((t) => {
      const switches = [...(t.referenceFaults ?? []), ...(t.referenceVariants ?? [])];
      const what =
        t.kind === 'embedded' ? `embedded reference server${switches.length ? ` (${switches})` : ''}` : t.baseUrl;
      return t.label === 'default' ? what : `${t.label}=${what}`;
    })
    .join(', ');
}

const text = (v: unknown): string => (v === undefined ? '(not set)' : stringifyJson(v));

/** What every shard of one run holds alike, by the name a refusal uses. */
function identity(r: ConformanceReport): Record<string, string> {
  const o = r.run.options ?? {};
  return {
    seed: String(r.run.seed),
    runs: String(r.run.runs),
    'catalogue version': r.catalogueVersion,
    'your requirements (--suites-dir)': text(r.results.filter((x) => x.owner === USER_OWNER).map((x) => x.id)),
    'screenconf version': r.tool.version,
    target: targetIdentity(r),
    suites: r.run.suites.join(','),
    'shard count': String(r.run.shard?.count),
    'shard by': r.run.shard?.by ?? 'files',
    only: text(o.only),
    strict: text(o.strict),
    'require-complete': text(o.requireComplete),
    expect: text(o.expect),
  };
}

/**
 * Refuses what is not the whole of one sharded run, naming what differs: a report without --shard, two seeds (or
 * runs, catalogues, targets, settings), a shard twice (SC_MERGE_MISMATCH); a shard missing (SC_MERGE_INCOMPLETE).
 * Returns the shards in order.
 */
export function checkShardSet(inputs: readonly ShardInput[]): ShardInput[] {
  if (inputs.length === 0) throw new HarnessError('SC_USAGE', 'merge needs the report folders of the shards');
  for (const s of inputs) {
    if (!s.report.run.shard)
      throw new HarnessError('SC_MERGE_MISMATCH', `${s.where} is not a shard's report (its run had no --shard)`);
  }
  const ids = inputs.map((s) => identity(s.report));
  const differ = Object.keys(ids[0]!).filter((key) => new Set(ids.map((id) => id[key])).size > 1);
  if (differ.length) {
    const each = (key: string) => `${key} ${inputs.map((s, i) => `${ids[i]![key]} (${s.where})`).join(', ')}`;
    throw new HarnessError('SC_MERGE_MISMATCH', `the shards are of different runs: ${differ.map(each).join('; ')}`);
  }
  if (inputs[0]!.report.catalogueVersion !== CATALOGUE_VERSION)
    throw new HarnessError(
      'SC_MERGE_MISMATCH',
      `the shards judged catalogue ${inputs[0]!.report.catalogueVersion}; this screenconf judges ` +
        `${CATALOGUE_VERSION}: merge with the version that ran them`,
    );
  const count = inputs[0]!.report.run.shard!.count;
  const byIndex = new Map<number, ShardInput>();
  for (const s of inputs) {
    const { index } = s.report.run.shard!;
    const twice = byIndex.get(index);
    if (twice)
      throw new HarnessError('SC_MERGE_MISMATCH', `shard ${index}/${count} is given twice: ${twice.where}, ${s.where}`);
    byIndex.set(index, s);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) {
    const given = [...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${count}`);
    throw new HarnessError(
      'SC_MERGE_INCOMPLETE',
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} ` +
        `missing (given: ${given.join(', ')}): a merged report must judge every shard's part`,
    );
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}

/**
 * The check records of a report, read back from `checks[]` and the failures and observations of `results[]` (which
 * name their check): what judge() made the results from. A requirement's failures and observations are in the order
 * of its checks, so each check takes the next ones that name it.
 */
export function outcomesOf(report: ConformanceReport): CheckOutcome[] {
  const byId = new Map(report.results.map((r) => [r.id, r]));
  const nextFailure = new Map<string, number>();
  const nextObservation = new Map<string, number>();
  return (report.checks ?? []).map((c): CheckOutcome => {
    let failure: Failure | undefined;
    const observations: Observation[] = [];
    for (const id of c.requirements) {
      const r: RequirementResult | undefined = byId.get(id);
      if (!r) continue;
      if (c.state === 'failed') {
        const at = nextFailure.get(id) ?? 0;
        const f = r.failures?.[at];
        if (f && f.test === c.name) {
          failure ??= f;
          nextFailure.set(id, at + 1);
        }
      }
      let at = nextObservation.get(id) ?? 0;
      for (let o = r.observationEvidence?.[at]; o && o.test === c.name; o = r.observationEvidence?.[++at])
        observations.push({ requirement: id, text: o.text, ...(o.evidence ? { evidence: o.evidence } : {}) });
      nextObservation.set(id, at);
    }
    const detail = failure && {
      what: failure.what ?? failure.message.split('\n')[0]!,
      ...(failure.expected !== undefined ? { expected: failure.expected } : {}),
      ...(failure.received !== undefined ? { received: failure.received } : {}),
      ...(failure.request ? { request: failure.request } : {}),
      message: failure.message,
    };
    return {
      suite: c.suite,
      name: c.name,
      state: c.state,
      requirements: c.requirements,
      ...(detail ? { failure: detail } : {}),
      observations,
      ...(failure?.evidence ? { evidence: failure.evidence } : {}),
      ...(c.skipReason ? { skipReason: c.skipReason } : {}),
      ...(c.harnessFault ? { harnessFault: faultOf(c.harnessFault) } : {}),
      ...(c.notRun ? { notRun: true } : {}),
      ...(c.flaky !== undefined ? { flaky: c.flaky } : {}),
      durationMs: c.durationMs,
      ...(c.cells?.length ? { cells: c.cells } : {}),
    };
  });
}

/** A check's harness fault as the report carries it (a code this version does not know reads as SC_HARNESS). */
function faultOf(f: { code: string; message: string }): HarnessFault {
  return { code: isErrorCode(f.code) ? f.code : 'SC_HARNESS', message: f.message };
}

function mergeCleanup(shards: readonly ConformanceReport[]): CleanupSummary | undefined {
  const all = shards.map((s) => s.summary.cleanup).filter((c): c is CleanupSummary => c !== undefined);
  if (all.length === 0) return undefined;
  return {
    ledger: [...new Set(all.map((c) => c.ledger))].join(', '),
    kept: all.some((c) => c.kept),
    removedAtEnd: all.reduce((n, c) => n + c.removedAtEnd, 0),
    left: all.flatMap((c) => c.left),
    unconfirmed: all.flatMap((c) => c.unconfirmed),
  };
}

/** A requirement the checks of a stopped shard never reached says so, as that shard's own report did. */
function notRunReason(r: RequirementResult, shards: readonly ConformanceReport[]): RequirementResult {
  if (r.verdict !== 'skip' || r.tests.length > 0) return r;
  const reason = shards
    .map((s) => s.results.find((x) => x.id === r.id)?.reason)
    .find((x) => x?.startsWith('not run: '));
  return reason ? { ...r, reason } : r;
}

/** The user's own requirements (run --suites-dir) a shard's report carries: every shard judges the same catalogues. */
function userRequirements(report: ConformanceReport): UserRequirement[] {
  return report.results.filter((r) => r.owner === USER_OWNER).map(userRequirement);
}

/** The earliest or latest of ISO times. */
const earliest = (xs: string[]) => [...xs].sort()[0]!;
const latest = (xs: string[]) => [...xs].sort().at(-1)!;

/**
 * One target's report from its shards' (in order, as checkShardSet returns them): judged from the union of their
 * check records; the run is the shards' together (run.shards lists them), before the gate.
 */
export function mergeShardReports(shards: readonly ConformanceReport[], id: string): ConformanceReport {
  const first = shards[0]!;
  const order = first.run.suites;
  const rank = (suite: string) => (order.includes(suite) ? order.indexOf(suite) : order.length);
  // In suite order, as an unsharded run sorts them; a suite file runs whole in one shard, so its order is kept.
  const outcomes = shards.flatMap(outcomesOf).sort((a, b) => rank(a.suite) - rank(b.suite));
  const judged = judge(outcomes, [...CATALOGUE, ...userRequirements(first)]);
  const results = judged.results.map((r) => notRunReason(r, shards));
  const summaries = shards.map((s) => s.summary);
  const interrupted = shards.map((s) => s.run.interrupted).find(Boolean);
  const cutShort = shards.map((s) => s.run.cutShort).find(Boolean);
  const cleanup = mergeCleanup(shards);
  const summary: Summary = {
    ...judged.summary,
    mustNotJudged: notJudged(results),
    leftovers: summaries.flatMap((s) => s.leftovers),
    suiteErrors: summaries.flatMap((s) => s.suiteErrors),
    throttled: summaries.reduce((n, s) => n + (s.throttled ?? 0), 0),
    ...renewalsOf(summaries),
    requests: {
      total: summaries.reduce((n, s) => n + (s.requests?.total ?? 0), 0),
      bySuite: Object.assign({}, ...summaries.map((s) => s.requests?.bySuite ?? {})),
      runner: summaries.reduce((n, s) => n + (s.requests?.runner ?? 0), 0),
    },
    ...(cleanup ? { cleanup } : {}),
  };
  summary.verdict = runVerdict({ ...summary, interrupted });
  summary.conforming = summary.verdict === 'conforming';
  const serverHeaders = new ServerHeaders();
  for (const s of shards) serverHeaders.merge(s.target.serverHeaders);
  const { shard: _shard, ...options } = first.run.options ?? {};
  const t = first.targets[0]!;
  const report = buildReport(
    {
      id,
      startedAt: new Date(earliest(shards.map((s) => s.run.startedAt))),
      finishedAt: new Date(latest(shards.map((s) => s.run.finishedAt))),
      seed: first.run.seed,
      runs: first.run.runs,
      suites: order,
      ...(interrupted ? { interrupted } : {}),
      ...(cutShort ? { cutShort } : {}),
      options,
      ...(first.run.host ? { host: first.run.host } : {}),
      commit: first.tool.commit,
    },
    {
      ...(t.label !== 'default' ? { label: t.label } : {}),
      baseUrl: t.baseUrl,
      kind: t.kind,
      ...(t.referenceFaults ? { referenceFaults: t.referenceFaults } : {}),
      ...(t.referenceVariants ? { referenceVariants: t.referenceVariants } : {}),
      serverHeaders: serverHeaders.toJSON(),
      summary,
      results,
      checks: checkEntries(outcomes),
    },
  );
  const merged = shards.map((s) => ({
    ...s.run.shard!,
    id: s.run.id,
    startedAt: s.run.startedAt,
    finishedAt: s.run.finishedAt,
  }));
  return {
    ...report,
    tool: first.tool,
    catalogueVersion: first.catalogueVersion,
    run: { ...report.run, shards: merged },
  };
}

/**
 * The expectations the shards were gated with (every shard was given the same file), read back from the marks the
 * gate left on each result: each entry's requirement, reason and expiry, and its place in the file when it expired.
 */
export function shardExpectations(shards: readonly ConformanceReport[]): Expectation[] {
  const found = new Map<string, Expectation>();
  for (const s of shards) {
    const expired = s.summary.gate?.expired ?? [];
    for (const r of s.results) {
      if (!r.expected || found.has(r.id)) continue;
      const entry = expired.find((e) => e.id === r.id)?.entry ?? found.size + 1;
      found.set(r.id, { id: r.id, reason: r.expected.reason, expires: r.expected.expires, entry });
    }
  }
  return [...found.values()];
}

/** The token renewals of the shards, counted and listed (each shard judged its own: runner/token-renewals.ts). */
function renewalsOf(summaries: readonly Summary[]): Pick<Summary, 'tokenRenewals' | 'renewals'> {
  const count = summaries.reduce((n, s) => n + (s.tokenRenewals ?? 0), 0);
  const listed = summaries.flatMap((s) => s.renewals ?? []).slice(0, RENEWALS_LISTED);
  return { ...(count ? { tokenRenewals: count } : {}), ...(listed.length ? { renewals: listed } : {}) };
}
