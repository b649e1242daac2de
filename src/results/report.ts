/**
 * conformance.json, as zod schemas: the contract of the machine-readable report, and the one
 * declaration of the report's types (inferred below). The JSON Schema in
 * docs/conformance.schema.json is generated from it (`npm run schema`) and a test keeps the two
 * equal. Field names are a contract: later versions add fields (and raise schemaVersion), never
 * rename or remove one; the JSON Schema lets objects carry fields it does not name, so a reader of
 * version N reads version N+1.
 */
import { z } from 'zod';
import { idAsInteger, IdSchema } from '../spec/id.ts';
import { AREAS } from '../spec/requirement.ts';
import { USER_AREA, USER_OWNER } from '../spec/user-catalogue.ts';
import { EvidenceSchema } from './evidence.ts';
import { FailureDetailSchema } from './failure.ts';

/** What a reproduction script's exit status says (report/repro.ts), as every report shows it. */
export const REPRO_EXITS = 'exit 1 reproduced, 0 conforms now, 3 undecided in sh, 2 could not run';
/** What `screenconf replay`'s exit status says (runner/replay.ts), as every report shows it. */
export const REPLAY_EXITS = 'exit 1 reproduced, 0 conforms now, 3 undecided, 2 could not run';
import { obj, text } from './schema-helpers.ts';
import { RENEWALS_LISTED, RenewalSchema } from './token-renewals.ts';

/**
 * Raised when a field is added; fields are never renamed or removed. 3: failures carry their fields;
 * 4: every check (`checks`), the host and the harness's commit; 5: summary.verdict (incomplete when a
 * MUST was not judged), summary.mustNotJudged, summary.requests and the gate's notJudged; 6: run.shard (a partial
 * report of one shard) and run.shards (a report merged from shards); 7: failures[].expect (what the judged answer
 * must show, as data), evidence of the judged exchanges and their setup, failures[].repro; 8: results[].owner (a
 * requirement of the user's own catalogue, run --suites-dir) and its area "user"; 9: failures[].expect.unlike (values
 * a field of the judged answer must not hold); 10: results[].replay (the `screenconf replay` command of a failure),
 * evidence.property.examples; 11: summary.renewals (the token renewals with their causes).
 */
export const REPORT_SCHEMA_VERSION = 11;

export const InterruptionSchema = z
  .enum(['SIGINT', 'SIGTERM', 'deadline'])
  .describe('why the run stopped before its end: a signal, or the run deadline (--deadline-ms)');
export const TargetKindSchema = z
  .enum(['embedded', 'url'])
  .describe('embedded: the run started its own reference ' + 'server');

export const VerdictSchema = z
  .enum(['pass', 'fail', 'warn', 'skip', 'observed'])
  .describe(
    'pass; fail (a MUST broken); warn (a SHOULD broken, or an observation that could not be made); skip (no check ' +
      'judged it: see reason); observed (OBSERVE: what the server did is recorded)',
  );
export const LevelSchema = z
  .enum(['MUST', 'SHOULD', 'OBSERVE'])
  .describe('MUST fails the run; SHOULD warns; ' + 'OBSERVE records');
export const AreaSchema = z
  .enum([...(Object.keys(AREAS) as (keyof typeof AREAS)[]), USER_AREA])
  .describe(`area of the interface (screenconf list names them); "${USER_AREA}": a requirement of the user's own`);
export const OwnerSchema = z
  .literal(USER_OWNER)
  .describe(`"${USER_OWNER}": a requirement of the user's own catalogue (run --suites-dir); absent: screenconf's`);

export const FailureSchema = FailureDetailSchema.partial({ what: true })
  .extend({
    test: text('the check (its full name)'),
    requirement: text('the requirement the check judged').optional(),
    message: text('what was checked, what was expected and what was received, for people'),
    flaky: z
      .boolean()
      .describe('re-run after failing: true when the re-run passed, false when it failed again')
      .optional(),
    evidence: EvidenceSchema.optional(),
    target: text('multi-target reports: the target it failed on').optional(),
  })
  .meta({ id: 'Failure' });

export const ObservationEvidenceSchema = obj({
  test: text('the check that recorded it'),
  text: text('what was seen'),
  evidence: EvidenceSchema.describe('the exchange just before the observation was recorded').optional(),
  target: text('multi-target reports: the target it was seen on').optional(),
}).meta({ id: 'ObservationEvidence' });

export const TestRefSchema = obj({
  suite: text('suite file name (suites/<suite>.test.ts)'),
  name: text('full name of the check'),
  state: z.enum(['passed', 'failed', 'skipped']),
  flaky: z.boolean().optional(),
  target: text('multi-target reports: the target it ran against').optional(),
}).meta({ id: 'TestRef' });

export const MatrixCellSchema = obj({
  cell: text('way/encoding/field/kind of the input matrix (screenconf list --matrix)'),
  oracle: text(
    'the rule it was judged by: answered, own-record, unchanged, stored, readable, limits; of the body as a whole ' +
      '(way body): whole, one-value',
  ),
  requirement: text('the requirement that owns the oracle on its way in'),
  verdict: text('what a conforming server does with it: accept, reject, open; act, exact, none (a named record)'),
  result: z.enum(['pass', 'fail', 'not-judged']),
  status: z.int().describe('the HTTP status its request was answered with').optional(),
  why: text('why it failed or was not judged').optional(),
}).meta({ id: 'MatrixCell' });

export const CheckSchema = obj({
  suite: text('suite file name (suites/<suite>.test.ts)'),
  name: text('full name of the check'),
  state: z
    .enum(['passed', 'failed', 'skipped'])
    .describe('failed: the server broke what it checks (results[] says whether that fails, warns or records)'),
  requirements: z.array(z.string()).describe('the requirement ids it names: at most one MUST or SHOULD, any OBSERVE'),
  durationMs: z.number().describe('every attempt of the check, in ms'),
  skipReason: text('why it did not judge').optional(),
  notRun: z.boolean().describe('never started: the run was stopping').optional(),
  flaky: z
    .boolean()
    .describe('re-run after failing: true when the re-run passed, false when it failed again')
    .optional(),
  harnessFault: obj({ code: text('SC_* error code'), message: z.string() })
    .describe('what kept it from judging (not a verdict on the server)')
    .optional(),
  target: text('multi-target reports: the target it ran against').optional(),
  cells: z.array(MatrixCellSchema).describe('the input-matrix cells it judged, one entry per cell').optional(),
})
  .describe('one check (a vitest test of suites/) and how it ended')
  .meta({ id: 'Check' });

export const ExpectedMarkSchema = obj({
  reason: text('why the failure is known (from the expectations file)'),
  expires: text('last day the expectation holds, YYYY-MM-DD'),
  outcome: z.enum(['expected-fail', 'unexpected-pass', 'expired', 'not-judged']),
})
  .describe('--expect: what an expectation made of this result')
  .meta({ id: 'ExpectedMark' });

export const ShardSchema = obj({
  index: z.int().min(1).describe('I of --shard I/N'),
  count: z.int().min(1).describe('N of --shard I/N'),
  suites: z.array(z.string()).describe("the suite files vitest's sharding gave this shard (every one by runs)"),
  by: z
    .enum(['files', 'runs'])
    .describe('--shard-by: files (vitest splits the suite files), runs (every shard its share of --runs)')
    .optional(),
  runs: z
    .int()
    .describe('--shard-by runs: generated cases per property in this shard, its share of run.runs')
    .optional(),
})
  .describe('--shard I/N: this is a partial report of one shard; screenconf merge judges the whole run')
  .meta({ id: 'Shard' });

export const MergedShardSchema = ShardSchema.extend({
  id: text("the shard's run id"),
  startedAt: z.string(),
  finishedAt: z.string(),
}).meta({ id: 'MergedShard' });

export const GateRefSchema = obj({ id: z.string(), target: z.string().optional() });

export const GateSummarySchema = obj({
  passed: z.boolean().describe('the release gate: no unexpected failure, no unexpected pass, no expired expectation'),
  strict: z.boolean().describe('--strict: SHOULD warnings gate too'),
  expectations: text('the expectations file (--expect)').optional(),
  expectedFailures: z.array(GateRefSchema),
  unexpectedPasses: z.array(GateRefSchema),
  expired: z.array(GateRefSchema.extend({ expires: z.string(), entry: z.int() })),
  gating: z.array(GateRefSchema).describe('results that fail the gate'),
  requireComplete: z.boolean().describe('--require-complete: a MUST requirement not judged fails the gate').optional(),
  notJudged: z.array(GateRefSchema).describe('MUST requirements no check judged').optional(),
});

/** One requirement on one target (multi-target reports, results[].byTarget). */
export const TargetResultSchema = obj({
  verdict: VerdictSchema,
  reason: z.string().optional(),
  observations: z.array(z.string()).optional(),
  observationEvidence: z.array(ObservationEvidenceSchema).optional(),
  failures: z.array(FailureSchema).optional(),
  tests: z.array(TestRefSchema).optional(),
  expected: ExpectedMarkSchema.optional(),
}).meta({ id: 'TargetResult' });

export const RequirementResultSchema = obj({
  id: text('stable requirement id (screenconf list)'),
  level: LevelSchema,
  area: AreaSchema,
  owner: OwnerSchema.optional(),
  statement: text('what a conforming server does, in one line'),
  source: text('the section of the interface (or RFC) it comes from'),
  decision: text('where the interface is ambiguous: the reading taken').optional(),
  verdict: VerdictSchema.describe('with several targets: the worst of them (fail > warn > skip > observed, pass)'),
  reason: text('why skipped, or the first line of the first failure').optional(),
  tests: z.array(TestRefSchema).describe('the checks behind it'),
  observations: z.array(z.string()).describe('OBSERVE: what was seen').optional(),
  observationEvidence: z
    .array(ObservationEvidenceSchema)
    .describe('each observation with the check and exchange it came from')
    .optional(),
  failures: z.array(FailureSchema).optional(),
  repro: obj({
    script: text('the script (POSIX sh + curl), relative to the report folder: repro/<id>.sh'),
    env: z.array(z.string()).describe('the environment variables holding the secrets it needs'),
    command: text('how to run it, from the report folder'),
  })
    .describe(`the script that reproduces its first failure: ${REPRO_EXITS}`)
    .optional(),
  replay: obj({
    command: text('how to run it, from the run folder: screenconf replay . <id>'),
    env: z.array(z.string()).describe('the environment variables holding the secrets the run was given'),
  })
    .describe(
      `screenconf replay: its failures run again against the target, judged by the run's own checks: ${REPLAY_EXITS}`,
    )
    .optional(),
  expected: ExpectedMarkSchema.optional(),
  byTarget: z
    .record(z.string(), TargetResultSchema)
    .describe('several targets: the verdict on each, by label')
    .optional(),
  differs: z.boolean().describe('several targets: the verdicts differ between them').optional(),
}).meta({ id: 'RequirementResult' });

export const CountsSchema = obj({ pass: z.int(), fail: z.int(), warn: z.int(), skip: z.int(), observed: z.int() });

export const CleanupSchema = obj({
  ledger: text('the run ledger (JSON lines), for screenconf cleanup'),
  kept: z.boolean().describe('--keep: nothing was removed on purpose'),
  removedAtEnd: z.int().describe('cases the end-of-run sweep removed'),
  left: z.array(IdSchema).describe('case ids still on the target'),
  unconfirmed: z.array(z.string()).describe('external ids of create requests that got no answer'),
  undeletable: obj({
    customers: z
      .int()
      .describe(
        'customers the run made with its cases: the interface has no customer deletion, so they may stay ' +
          '(a server may remove a customer with its case; the interface does not show it)',
      ),
  })
    .describe('what the run created that the interface gives no way to delete')
    .optional(),
});

export const RunVerdictSchema = z
  .enum(['conforming', 'not-conforming', 'incomplete'])
  .describe(
    'not-conforming: a MUST failed; incomplete: none failed, but a MUST was not judged (skipped: not selected, ' +
      'a capability missing, a check that could not judge) or the run was stopped; ' +
      'conforming: every MUST judged and passed',
  );

/** A MUST requirement no check judged, and why. */
export const NotJudgedSchema = obj({ id: z.string(), reason: z.string() });

export const SummarySchema = obj({
  verdict: RunVerdictSchema.optional(),
  conforming: z
    .boolean()
    .describe('the verdict is conforming: every MUST judged, none failed, every check could judge'),
  mustNotJudged: z.array(NotJudgedSchema).describe('MUST requirements no check judged, with the reason').optional(),
  counts: CountsSchema.describe('requirements per verdict'),
  mustFailures: z.int(),
  shouldWarnings: z.int(),
  harnessFaults: z.array(z.string()).describe('problems that kept checks from judging (not verdicts on the server)'),
  leftovers: z.array(IdSchema).describe('case ids that could not be removed'),
  suiteErrors: z.array(z.string()),
  throttled: z.int().describe('requests the target answered 429').optional(),
  flaky: z
    .array(z.string())
    .describe('requirements a check of which failed, then passed when re-run: flaky, not counted as failed')
    .optional(),
  tokenRenewals: z
    .int()
    .describe("requests the target refused 401 with the run's own access token, sent again once with a new one")
    .optional(),
  renewals: z
    .array(RenewalSchema)
    .describe(
      `the requests tokenRenewals counts, each with its cause (at most ${RENEWALS_LISTED}, those refused inside ` +
        'their stated lifetime first)',
    )
    .optional(),
  requests: obj({
    total: z.int().describe('every request the run sent to the target'),
    bySuite: z.record(z.string(), z.int()).describe('per suite file, its setup and cleanup included'),
    runner: z.int().describe('outside the suites: the preflight token, the end-of-run sweep'),
  })
    .describe('what the run cost the target')
    .optional(),
  cleanup: CleanupSchema.optional(),
  gate: GateSummarySchema.optional(),
}).meta({ id: 'Summary' });

export const ServerHeadersSchema = z
  .record(z.string(), z.array(z.string()))
  .describe(
    'server identification headers seen in responses (Server, X-Powered-By, Via, …): each distinct value, at most ' +
      '10, 200 characters each',
  );

export const TargetSummarySchema = obj({
  label: text('"default" for a single target; the --target label otherwise'),
  baseUrl: z.string(),
  kind: TargetKindSchema,
  referenceFaults: z.array(z.string()).optional(),
  referenceVariants: z.array(z.string()).optional(),
  serverHeaders: ServerHeadersSchema,
  summary: SummarySchema,
  report: text("that target's own conformance.json, relative to this one").optional(),
});

export const ConformanceReportSchema = obj({
  schemaVersion: z
    .int()
    .min(2, { message: 'reports before schemaVersion 2 cannot be rendered; run again' })
    .describe('raised when fields are added'),
  tool: obj({
    name: z.literal('screenconf'),
    version: z.string(),
    commit: text(
      'git commit of the screenconf checkout the run came from (absent when installed as a package)',
    ).optional(),
  }),
  catalogueVersion: text('version of the requirement catalogue judged against'),
  run: obj({
    id: text('run id (in the external ids of the cases the run created)'),
    startedAt: z.string(),
    finishedAt: z.string(),
    seed: z.int().describe('replay the generated inputs with --seed'),
    runs: z.int().describe('generated cases per property'),
    suites: z.array(z.string()),
    interrupted: InterruptionSchema.optional(),
    cutShort: text(
      'why the run stopped early of its own accord (--max-failures); what did not run is skipped',
    ).optional(),
    options: z.record(z.string(), z.unknown()).describe('the run settings; secrets are "[REDACTED]"').optional(),
    host: obj({
      os: text('operating system, release and architecture of the machine that ran screenconf'),
      node: text('Node.js version'),
    }).optional(),
    shard: ShardSchema.optional(),
    rounds: z
      .int()
      .describe('--duration: rounds of the suites run, each on generated cases of its own, until the budget was spent')
      .optional(),
    shards: z
      .array(MergedShardSchema)
      .describe('screenconf merge: the shards this report was judged from, in order')
      .optional(),
  }),
  target: obj({
    baseUrl: z.string(),
    kind: TargetKindSchema,
    referenceFaults: z.array(z.string()).optional(),
    referenceVariants: z.array(z.string()).optional(),
    label: z.string().optional(),
    serverHeaders: ServerHeadersSchema.optional(),
  }).describe('the (first) target; targets lists every one'),
  targets: z
    .array(TargetSummarySchema)
    .min(1)
    .describe('every target of the run, with its own summary; one entry labelled "default" for a single target'),
  summary: SummarySchema.describe('the run: with several targets, conforming only when every target conforms'),
  results: z.array(RequirementResultSchema).describe('one entry per requirement of the catalogue, in catalogue order'),
  checks: z
    .array(CheckSchema)
    .describe('every check of the run, in the order they ended (junit.xml has one testcase per entry)')
    .optional(),
}).describe('screenconf conformance report (conformance.json)');

export type ConformanceReport = z.infer<typeof ConformanceReportSchema>;
export type RequirementResult = z.infer<typeof RequirementResultSchema>;
export type TargetResult = z.infer<typeof TargetResultSchema>;
export type TargetSummary = z.infer<typeof TargetSummarySchema>;
export type Summary = z.infer<typeof SummarySchema>;
export type Counts = z.infer<typeof CountsSchema>;
export type RunVerdict = z.infer<typeof RunVerdictSchema>;
export type NotJudged = z.infer<typeof NotJudgedSchema>;
export type CleanupSummary = z.infer<typeof CleanupSchema>;
export type GateRef = z.infer<typeof GateRefSchema>;
export type GateSummary = z.infer<typeof GateSummarySchema>;
export type Interruption = z.infer<typeof InterruptionSchema>;
export type TargetKind = z.infer<typeof TargetKindSchema>;
export type Failure = z.infer<typeof FailureSchema>;
export type TestRef = z.infer<typeof TestRefSchema>;
export type Check = z.infer<typeof CheckSchema>;
export type MatrixCell = z.infer<typeof MatrixCellSchema>;
export type Shard = z.infer<typeof ShardSchema>;
export type MergedShard = z.infer<typeof MergedShardSchema>;
export type Verdict = z.infer<typeof VerdictSchema>;
export type ExpectedMark = z.infer<typeof ExpectedMarkSchema>;
export type ObservationEvidence = z.infer<typeof ObservationEvidenceSchema>;

/** The JSON Schema of conformance.json (committed as docs/conformance.schema.json). */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ConformanceReportSchema, {
      target: 'draft-2020-12',
      io: 'input',
      reused: 'inline',
      unrepresentable: 'any',
      override: idAsInteger,
    }),
    title: `screenconf conformance.json, schemaVersion ${REPORT_SCHEMA_VERSION}`,
  };
}
