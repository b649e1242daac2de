/**
 * `screenconf run`: open the target, check it answers, run the suites with vitest, judge
 * every requirement, write the reports, and return the exit status.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { TokenSource } from '../client/auth.ts';
import { Redactor } from '../client/redact.ts';
import { DEFAULT_TRANSPORT, Transport } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import type { RunContext } from '../kit/context.ts';
import { renderSummary } from '../report/console.ts';
import { renderJson, REPORT_SCHEMA_VERSION, type ConformanceReport } from '../report/json.ts';
import { ConformanceReporter } from '../report/reporter.ts';
import { judge } from '../report/verdicts.ts';
import { CATALOGUE_VERSION } from '../spec/index.ts';
import { PACKAGE_ROOT, VERSION } from '../version.ts';
import { configSecrets, SUITES, type Config } from './config.ts';
import { openTarget, type Target } from './target.ts';

export interface RunIO {
  out: (line: string) => void;
  cwd: string;
}

export const EXIT = { conforming: 0, notConforming: 1, usage: 2, harness: 3 } as const;

/** Fails fast, before any suite, when the target cannot be reached or refuses the credentials. */
async function preflight(target: Target, transport: Transport): Promise<void> {
  const { clientId, clientSecret } = target.primary;
  if (clientId && clientSecret) {
    await new TokenSource(target.baseUrl, { clientId, clientSecret }, transport).get();
    return;
  }
  try {
    await transport.send({ method: 'GET', url: target.baseUrl, headers: {} });
  } catch (err) {
    throw new HarnessError('SC_TARGET_UNREACHABLE', `target unreachable: ${(err as Error).message}`);
  }
}

export async function runConformance(config: Config, io: RunIO): Promise<number> {
  const startedAt = new Date();
  const seed = config.seed ?? randomInt(0, 2 ** 31 - 1);
  const runId = randomBytes(4).toString('hex');
  const suites = config.suites ?? [...SUITES];
  const reportDir = resolve(io.cwd, config.reportDir);
  const redactor = new Redactor(configSecrets(config));

  const target = await openTarget(config);
  try {
    for (const c of [target.primary, target.peer]) redactor.add(c?.clientSecret).add(c?.apiKey);
    const transportOptions = { ...DEFAULT_TRANSPORT, timeoutMs: config.timeoutMs };
    io.out(`screenconf ${VERSION} — run ${runId}`);
    io.out(`target ${target.baseUrl}${target.kind === 'embedded' ? ' (embedded reference server)' : ''}${config.referenceFaults.length ? ` with faults: ${config.referenceFaults.join(', ')}` : ''}`);
    io.out(`seed ${seed} (replay with --seed ${seed}), ${config.runs} runs per property`);
    await preflight(target, new Transport(transportOptions, redactor));

    const context: RunContext = {
      runId,
      seed,
      runs: config.runs,
      target: { baseUrl: target.baseUrl, kind: target.kind, primary: target.primary, ...(target.peer ? { peer: target.peer } : {}) },
      transport: transportOptions,
      ...(config.bulkFailuresPath ? { bulkFailuresPath: config.bulkFailuresPath } : {}),
      webhooks: {
        host: config.webhookHost,
        port: config.webhookPort,
        timeoutMs: config.webhookTimeoutMs,
        ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
      },
    };
    mkdirSync(reportDir, { recursive: true });
    const reporter = new ConformanceReporter(io.out);
    io.out(`suites: ${suites.join(', ')}`);
    const vitest = await startVitest(
      'test',
      suites.map((s) => `suites/${s}.test.ts`),
      {
        root: PACKAGE_ROOT,
        config: false,
        include: ['suites/**/*.test.ts'],
        setupFiles: [resolve(PACKAGE_ROOT, 'src/kit/setup.ts')],
        reporters: [reporter, ['junit', {}]],
        outputFile: { junit: resolve(reportDir, 'junit.xml') },
        provide: { screenconf: context },
        watch: false,
        testTimeout: 120_000,
        hookTimeout: 120_000,
        maxWorkers: 2,
        passWithNoTests: false,
      },
      { logLevel: 'error' },
    );
    await vitest?.close();
    process.exitCode = 0; // vitest sets it from test failures; the verdict below decides

    const { results, summary } = judge(reporter.outcomes);
    const fullSummary = { ...summary, leftovers: reporter.leftovers, suiteErrors: reporter.errors.map((e) => redactor.redact(e)) };
    if (fullSummary.suiteErrors.length) fullSummary.conforming = false;
    const report: ConformanceReport = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: 'screenconf', version: VERSION },
      catalogueVersion: CATALOGUE_VERSION,
      run: { id: runId, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), seed, runs: config.runs, suites },
      target: { baseUrl: target.baseUrl, kind: target.kind, ...(config.referenceFaults.length ? { referenceFaults: config.referenceFaults } : {}) },
      summary: fullSummary,
      results,
    };
    const reportPath = resolve(reportDir, 'conformance.json');
    writeFileSync(reportPath, renderJson(report, redactor));
    io.out(redactor.redact(renderSummary(results, fullSummary, reportPath)));
    if (fullSummary.harnessFaults.length || fullSummary.suiteErrors.length) return EXIT.harness;
    return summary.mustFailures > 0 ? EXIT.notConforming : EXIT.conforming;
  } finally {
    await target.close();
  }
}
