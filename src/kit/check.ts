/**
 * check(): one conformance test, tied to the requirement ids it verifies. The ids go into task
 * metadata (not the name); so do observations and, on failure, the failure's fields and the
 * redacted exchanges it judged, with curl reproductions, for the runner to collect.
 */
import { inject, test } from 'vitest';
import { suiteName } from '../base/suite-file.ts';
import { toCurl } from '../client/curl.ts';
import { HarnessError } from '../errors.ts';
import { type Evidence, type Observation, oldestFirst, type PropertyEvidence, setupOf } from '../results/evidence.ts';
import type { Exchange } from '../results/exchange.ts';
import { exchangeKey } from '../results/invariants.ts';
import { ConformanceFailure } from '../results/failure.ts';
import type { CheckFailure, CheckRecord, MatrixCellRecord } from '../results/outcome.ts';
import { NOT_IN_ONLY } from '../results/judge.ts';
import { type AnyRequirement, findRequirement, type RequirementId } from '../spec/index.ts';
import { type CheckScope, creationsElsewhere, sentBefore, getHarness, type Harness, runInCheck } from './context.ts';
import { checkTag } from './exchange-log.ts';
import { asJudged } from './no-answer.ts';
import './meta.ts';

/** A requirement id: screenconf's (typed), or one of the user's own catalogue (--suites-dir). */
export type CheckRequirementId = RequirementId | (string & {});

export interface CheckApi extends Harness {
  /** Records what the server did, for an OBSERVE requirement this check names. */
  observe(id: CheckRequirementId, text: string): void;
  /** Records input-matrix cells this check judged, for the report's matrix (each attempt records its own). */
  recordCells(cells: readonly MatrixCellRecord[]): void;
  /** Skips the check with a reason shown in the report (capability not configured, …). */
  skip(reason: string): never;
  /** On a re-run after a property failed: its counterexample, replayed instead of explored again. */
  replay?: PropertyEvidence | undefined;
}

export interface CheckOptions {
  timeout?: number;
}

/** The last exchanges of a check kept as evidence when a failure names none it judged. */
const EVIDENCE_TAIL = 4;

/**
 * The evidence of a failure: the exchanges it judged (marked) and their setup (what created or changed what they
 * name, and `rests`: what the verdict rests on beyond that, the deletion that freed an id a creation gave again),
 * oldest first; when it judged none, the last exchanges of the check.
 */
export function evidenceOf(
  all: readonly Exchange[],
  judged: readonly Exchange[],
  baseUrl: string,
  rests: readonly Exchange[] = [],
): Evidence {
  // What another check of the worker created (a shared case), and what it sent that this check
  // judges (a read made once for two checks) with what that check sent before it (a PATCH the read
  // shows), join the check's own exchanges in the order they were sent: the setup of a judged
  // exchange is what came before it.
  const elsewhere = judged.filter((e) => !all.includes(e)).flatMap(sentBefore);
  // What the verdict rests on comes as given (a copy, when this worker sent it too): in the pool once.
  const given = new Set(rests.map(exchangeKey));
  const sent = [...creationsElsewhere([...all, ...judged]), ...elsewhere, ...all].filter(
    (e) => !given.has(exchangeKey(e)),
  );
  const pool = judged.length ? oldestFirst(new Set([...sent, ...rests, ...judged])) : all;
  const setup = judged.length ? setupOf(pool, judged) : [];
  const kept = judged.length
    ? pool.filter((e) => judged.includes(e) || setup.includes(e) || rests.includes(e))
    : all.slice(-EVIDENCE_TAIL);
  const exchanges = kept.map((e) => (judged.includes(e) ? { ...e, judged: true } : e));
  return { exchanges, curl: exchanges.map((e) => toCurl(e, baseUrl)) };
}

/** Any error a check throws, as a failure record (a defect of the check itself keeps only its message). */
function failureRecord(err: unknown, redact: (s: string) => string): CheckFailure {
  const message = redact(String((err as Error)?.message ?? err));
  if (!(err instanceof ConformanceFailure)) return { what: message.split('\n')[0]!, message };
  const d = err.detail;
  return {
    what: redact(d.what),
    ...(d.expected !== undefined ? { expected: redact(d.expected) } : {}),
    ...(d.received !== undefined ? { received: redact(d.received) } : {}),
    ...(d.request ? { request: { ...d.request, path: redact(d.request.path) } } : {}),
    ...(d.expect ? { expect: JSON.parse(redact(JSON.stringify(d.expect))) } : {}),
    message,
  };
}

/** The catalogue entry of an id, screenconf's or the user's; an unknown id is a defect of the suite file. */
function requirementOf(id: string, title: string): AnyRequirement {
  const r = findRequirement(id) ?? inject('screenconf')?.userCatalogue?.find((u) => u.id === id);
  if (!r) {
    throw new HarnessError(
      'SC_UNKNOWN_REQUIREMENT',
      `check "${title}" names requirement id ${id}, in neither screenconf's catalogue nor the user's (--suites-dir)`,
    );
  }
  return r;
}

export function check(
  title: string,
  ids: readonly CheckRequirementId[],
  fn: (t: CheckApi) => Promise<void>,
  options: CheckOptions = {},
) {
  if (ids.length === 0) throw new HarnessError('SC_HARNESS', `check "${title}" names no requirement`);
  // An unknown id is a defect in the suite: fail at collection. A failing check fails every
  // MUST or SHOULD it names, so it names at most one; OBSERVE ids only record.
  const judged = ids.map((id) => requirementOf(id, title)).filter((r) => r.level !== 'OBSERVE');
  if (judged.length > 1) {
    const names = judged.map((r) => r.id).join(' and ');
    throw new HarnessError('SC_HARNESS', `check "${title}" judges ${names}; a check judges one requirement`);
  }

  // --only: a check that judges none of the requirements named is registered skipped, with why;
  // its record (given at registration) tells the runner which requirements it would have judged.
  const only = inject('screenconf')?.only;
  const selected = !only || ids.some((id) => only.includes(id));
  const registered: CheckRecord = {
    requirements: [...ids],
    attempts: [],
    ...(selected ? {} : { skipReason: NOT_IN_ONLY }),
  };
  const testOptions = { ...(options.timeout ? { timeout: options.timeout } : {}), skip: !selected };
  test(title, { ...testOptions, meta: { screenconf: registered } }, async (ctx) => {
    // A failed check is re-run once (vitest's retry): the attempts, and the failure of an earlier
    // attempt the re-run did not repeat, carry over.
    const previous = ctx.task.meta.screenconf;
    // An attempt still running when its re-run starts was timed out by vitest: a failed attempt. It
    // keeps its own record, so what it does after (a push of its outcome) reaches no report.
    const attempts = [...(previous?.attempts ?? []), ...(previous?.running ? (['failed'] as const) : [])];
    const record: CheckRecord = {
      requirements: [...ids],
      attempts,
      running: true,
      ...(previous?.failure ? { failure: previous.failure } : {}),
      ...(previous?.evidence ? { evidence: previous.evidence } : {}),
    };
    ctx.task.meta.screenconf = record;
    // The ids also go to junit.xml, as <property name="requirement" value="ID"> of the testcase
    // (vitest's JUnit reporter writes a test's annotations as properties); once, also on a re-run.
    for (const id of ids) {
      if (!ctx.task.annotations.some((a) => a.type === 'requirement' && a.message === id)) {
        await ctx.annotate(id, 'requirement');
      }
    }
    const h = getHarness();
    const suite = suiteName(ctx.task.file.filepath);
    const name = ctx.task.fullTestName;
    const tag = checkTag(suite, name, ids, attempts.length + 1);
    const scope: CheckScope = { exchanges: [], requests: 0, tag };
    const { exchanges } = scope;
    const baseUrl = h.run.target.baseUrl;
    // `screenconf replay` runs the check again on what its run failed on (a property's counterexample); a run's re-run
    // of a failed check, on what its first attempt failed on.
    const replayed = h.run.replay?.checks.find((c) => c.suite === suite && c.name === name);
    let skipping = false;
    const api: CheckApi = {
      ...h,
      exchanges,
      replay: h.run.replay ? replayed?.property : previous?.evidence?.property,
      observe(id, text) {
        if (!ids.includes(id))
          throw new HarnessError('SC_HARNESS', `check "${title}" observes ${id}, which it does not name`);
        const observation: Observation = { requirement: id, text: h.redactor.redact(text) };
        // The first observation of an id in a check keeps the exchange it was most likely read from.
        const last = exchanges.at(-1);
        if (last && !record.observations?.some((o) => o.requirement === id)) {
          observation.evidence = evidenceOf([last], [], baseUrl);
        }
        (record.observations ??= []).push(observation);
      },
      recordCells(cells) {
        const redacted = cells.map((c) => (c.why === undefined ? c : { ...c, why: h.redactor.redact(c.why) }));
        record.cells = [...(record.cells ?? []), ...redacted];
      },
      skip(reason) {
        record.skipReason = reason;
        skipping = true;
        ctx.skip(reason);
        throw new HarnessError('SC_HARNESS', 'unreachable: ctx.skip() returned');
      },
    };
    /** The attempt ends: its outcome is recorded, and it is no longer running. */
    const ended = (attempt: CheckRecord['attempts'][number]) => {
      record.attempts.push(attempt);
      record.running = false;
    };
    const counted = () => {
      record.requests = (previous?.requests ?? 0) + scope.requests;
    };
    try {
      await runInCheck(scope, () => fn(api));
      counted();
      ended('passed');
    } catch (caught) {
      // A request that got no answer from a target that still answers fails the check on that exchange (no-answer.ts).
      const err = asJudged(caught);
      counted();
      if (skipping) {
        ended('skipped');
        throw err;
      }
      const redact = (s: string) => h.redactor.redact(s);
      const judgedExchanges = err instanceof ConformanceFailure ? err.judged : [];
      record.evidence = evidenceOf(exchanges, judgedExchanges, baseUrl);
      const property = err instanceof ConformanceFailure ? err.property : undefined;
      if (property) record.evidence.property = { ...property, counterexample: redact(property.counterexample) };
      if (err instanceof HarnessError && err.inCheck === 'not-judged') {
        record.harnessFault = { code: err.code, message: redact(err.message) };
        ended('not-judged');
      } else {
        delete record.harnessFault;
        record.failure = failureRecord(err, redact);
        ended('failed');
      }
      if (err instanceof Error) err.message = redact(err.message);
      throw err;
    }
  });
}
