/**
 * What the switches of the body dimension prove (issue 33 §1; spec/inputs/body.ts), as proofs.ts holds for every
 * switch: for each fault, the suite that catches it and the requirements it must fail, the dimension's other owners
 * on its ways in passing; for each variant, the requirements whose reading it exercises.
 */
import type { RequirementId } from '../spec/index.ts';
import { BODY_ORACLE_NAMES, BODY_SUITE, type BodyWay, bodyOwner } from '../spec/inputs/body.ts';

/** A fault's proof (proofs.ts FaultProof). */
interface BodyFaultProof {
  readonly suites: readonly string[];
  readonly fails: readonly RequirementId[];
  readonly passes: readonly RequirementId[];
}

/**
 * A fault of the body dimension: it fails the requirements named; the body's other owners on its ways in pass (only
 * the dimension catches it, and only by the oracle that breaks).
 */
function bodyFault(ways: BodyWay[], ...fails: RequirementId[]): BodyFaultProof {
  const owners = ways.flatMap((w) => BODY_ORACLE_NAMES.map((o) => bodyOwner(w, o)));
  const passes = [...new Set(owners)].filter(
    (id): id is RequirementId => id !== undefined && !fails.includes(id as RequirementId),
  );
  return { suites: [BODY_SUITE], fails, passes };
}

const UPDATES: BodyWay[] = ['patch', 'bulk-cases', 'bulk-customers', 'bulk-checks'];

/** On the token endpoint, a bulk case update, a multipart PATCH and a JSON one; and each endpoint's body rule. */
export const BODY_FAULT_PROOFS = {
  'body.token-first-value': bodyFault(['token'], 'TOKEN-BODY'),
  'body.json-first-value': bodyFault(
    UPDATES,
    'CASE-PATCH-BODY',
    'BULK-CASES-BODY',
    'BULK-CUSTOMERS-BODY',
    'BULK-CHECKS-BODY',
  ),
  'body.bulk-lists-merged': bodyFault(
    ['bulk-cases', 'bulk-customers', 'bulk-checks'],
    'BULK-CASES-BODY',
    'BULK-CUSTOMERS-BODY',
    'BULK-CHECKS-BODY',
  ),
  'body.bulk-deep-500': bodyFault(['bulk-cases'], 'BULK-CASES-ANSWERED'),
  'body.multipart-parts-in-turn': bodyFault(['patch'], 'CASE-PATCH-BODY'),
  'body.duplicate-key-validated-first': bodyFault(['patch'], 'CASE-PATCH-BODY'),
} as const;

/** The body requirements of the endpoints that change records, which most body variants exercise. */
const BODY_READINGS: RequirementId[] = [
  'CASE-PATCH-BODY',
  'BULK-CASES-BODY',
  'BULK-CUSTOMERS-BODY',
  'BULK-CHECKS-BODY',
];

export const BODY_VARIANT_READINGS = {
  'body.bom-taken': [...BODY_READINGS, 'TOKEN-BODY', 'CONTENT-BODY-CHOICES'],
  'body.empty-refused': [...BODY_READINGS, 'TOKEN-BODY'],
  'body.duplicate-keys-first': [...BODY_READINGS, 'CASE-PATCH-STORED-AS-SENT', 'CONTENT-BODY-CHOICES'],
  'body.duplicate-keys-refused': [...BODY_READINGS, 'CASE-PATCH-STORED-AS-SENT', 'CONTENT-BODY-CHOICES'],
  'body.repeated-field-refused': ['CASE-PATCH-BODY', 'BULK-CASES-BODY', 'BULK-CUSTOMERS-BODY', 'CONTENT-BODY-CHOICES'],
  'body.depth-limit-100': [...BODY_READINGS, 'CASE-PATCH-STORED-AS-SENT', 'CASE-PATCH-READABLE'],
} as const satisfies Record<string, readonly RequirementId[]>;
