/**
 * check(): one conformance test, tied to the requirement ids it verifies. The ids go into task
 * metadata (not the name); observations and, on failure, the redacted transcript with curl
 * reproductions go there too, for the reporter.
 */
import { test } from 'vitest';
import { toCurl } from '../client/curl.ts';
import { TransportError } from '../client/transport.ts';
import { HarnessError } from '../errors.ts';
import { requirement, type RequirementId } from '../spec/index.ts';
import { getHarness, type Harness } from './context.ts';
import type { Evidence, Observation, PropertyEvidence, ScreenconfMeta } from './meta.ts';

export interface CheckApi extends Harness {
  /** Records what the server did, for an OBSERVE requirement this check names. */
  observe(id: RequirementId, text: string): void;
  /** Skips the check with a reason shown in the report (capability not configured, …). */
  skip(reason: string): never;
}

export interface CheckOptions {
  timeout?: number;
}

const EVIDENCE_EXCHANGES = 4;

export function check(
  title: string,
  ids: readonly RequirementId[],
  fn: (t: CheckApi) => Promise<void>,
  options: CheckOptions = {},
) {
  if (ids.length === 0) throw new Error(`check "${title}" names no requirement`);
  // An unknown id is a defect in the suite: fail at collection. A failing check fails every
  // MUST or SHOULD it names, so it names at most one; OBSERVE ids only record.
  const judged = ids.map(requirement).filter((r) => r.level !== 'OBSERVE');
  if (judged.length > 1)
    throw new Error(`check "${title}" judges ${judged.map((r) => r.id).join(' and ')}; a check judges one requirement`);

  test(title, options.timeout ? { timeout: options.timeout } : {}, async (ctx) => {
    const meta: ScreenconfMeta = { requirements: [...ids] };
    ctx.task.meta.screenconf = meta;
    // The ids also go to junit.xml, as <property name="requirement" value="ID"> of the testcase
    // (vitest's JUnit reporter writes a test's annotations as properties); once, also on a re-run.
    for (const id of ids) {
      if (!ctx.task.annotations.some((a) => a.type === 'requirement' && a.message === id))
        await ctx.annotate(id, 'requirement');
    }
    const h = getHarness();
    h.exchanges.length = 0;
    const evidenceOf = (exchanges: typeof h.exchanges): Evidence => ({
      exchanges,
      curl: exchanges.map((e) => toCurl(e, h.run.target.baseUrl)),
    });
    let skipping = false;
    const api: CheckApi = {
      ...h,
      observe(id, text) {
        if (!ids.includes(id)) throw new Error(`check "${title}" observes ${id}, which it does not name`);
        const observation: Observation = { requirement: id, text: h.redactor.redact(text) };
        // The first observation of an id in a check keeps the exchange it was most likely read from.
        const last = h.exchanges.at(-1);
        if (last && !meta.observations?.some((o) => o.requirement === id)) observation.evidence = evidenceOf([last]);
        (meta.observations ??= []).push(observation);
      },
      skip(reason) {
        meta.skipReason = reason;
        skipping = true;
        ctx.skip(reason);
        throw new Error('unreachable');
      },
    };
    try {
      await fn(api);
    } catch (err) {
      if (skipping) throw err;
      meta.evidence = evidenceOf(h.exchanges.slice(-EVIDENCE_EXCHANGES));
      const property = (err as { property?: PropertyEvidence } | null)?.property;
      if (property)
        meta.evidence.property = { ...property, counterexample: h.redactor.redact(property.counterexample) };
      if (err instanceof HarnessError || (err instanceof TransportError && err.kind === 'unreachable')) {
        meta.harnessFault = h.redactor.redact(err.message);
      }
      if (err instanceof Error) err.message = h.redactor.redact(err.message);
      throw err;
    }
  });
}
