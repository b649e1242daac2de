/**
 * Proof the suites have teeth: each fault switch of the reference server makes the
 * requirement it breaks fail, through the real CLI, and the run exits 1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../src/reference/faults.ts';
import type { SuiteName } from '../src/runner/config.ts';
import type { RequirementId } from '../src/spec/index.ts';
import { readReport, screenconf, tempDir } from './support/cli.ts';

/** For each fault: the suites that catch it and the requirements that must then fail. */
export const CAUGHT_BY: Record<FaultName, { suites: SuiteName[]; fails: RequirementId[] }> = {
  'token.accept-wrong-secret': { suites: ['token'], fails: ['TOKEN-REJECT-WRONG-SECRET'] },
  'token.expires-in-string': { suites: ['token'], fails: ['TOKEN-ISSUE'] },
  'token.any-grant-type': { suites: ['token'], fails: ['TOKEN-REJECT-GRANT-TYPE'] },
  'auth.accept-missing': { suites: ['auth'], fails: ['AUTH-REQUIRED-MISSING'] },
  'auth.accept-any-bearer': { suites: ['auth'], fails: ['AUTH-REQUIRED-WRONG'] },
  'auth.api-key-rejected': { suites: ['auth'], fails: ['AUTH-API-KEY-BEARER'] },
  'patch.replace-not-merge': { suites: ['case-patch'], fails: ['CASE-PATCH-PARTIAL'] },
  'patch.ignore-webhook-url': { suites: ['case-patch'], fails: ['CASE-PATCH-ROUNDTRIP'] },
  'patch.unknown-id-500': { suites: ['case-patch'], fails: ['CASE-PATCH-UNKNOWN-ID'] },
  'read.origin-url-differs': { suites: ['case-patch'], fails: ['CASE-ORIGIN-URL-ALIAS'] },
  'read.missing-updated-at': { suites: ['case-patch'], fails: ['CASE-PATCH-RESPONSE-SCHEMA'] },
  'delete.noop': { suites: ['case-delete'], fails: ['CASE-DELETE-REMOVES'] },
};

const table: string[] = [];

describe('each fault is caught by its requirement', () => {
  it('every fault switch has an expectation here', () => {
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  describe.concurrent.each(Object.entries(CAUGHT_BY) as [FaultName, (typeof CAUGHT_BY)[FaultName]][])('%s', (fault, expected) => {
    it(`fails ${expected.fails.join(', ')}`, async () => {
      const dir = tempDir();
      const result = await screenconf(['run', '--report-dir', dir, '--seed', '11', '--suites', expected.suites.join(','), '--reference-faults', fault]);
      const report = readReport(dir);
      const failing = report.results.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
      table.push(`${fault.padEnd(28)} → ${failing.join(', ')}`);
      expect(failing).toEqual(expect.arrayContaining(expected.fails));
      expect(report.summary.conforming).toBe(false);
      expect(result.status).toBe(1);
    });
  });

  afterAll(() => {
    console.log(`fault → requirements that failed\n${table.sort().join('\n')}`);
  });
});
