import fc from 'fast-check';
import { CASE_PATCH_FIELDS, LIMITS, type CasePatchField } from '../spec/index.ts';
import { checkKeys, checkPrefix, checkSubset, pick } from './constraints.ts';
import { httpUrlOfLength } from './httpUrl.ts';
import { oneOf } from './oneOf.ts';
import { overLong } from './overLong.ts';
import { casePatchFieldArbitraries } from './validCasePatch.ts';

export const CASE_PATCH_INVALID_REASONS = [
  'too-long-by-one',
  'too-long',
  'out-of-range',
  'non-integer',
  'numeric-string',
  'wrong-type',
  'null-not-allowed',
  'metadata-array',
  'metadata-scalar',
] as const;
export type CasePatchInvalidReason = (typeof CASE_PATCH_INVALID_REASONS)[number];

export interface InvalidCasePatch {
  /** The body to send: `field` broken, 0..2 other fields valid. */
  patch: Record<string, unknown>;
  field: CasePatchField;
  reason: CasePatchInvalidReason;
}

export interface InvalidCasePatchConstraints {
  /** Fields that may be the broken one. Default all five. */
  fields?: readonly CasePatchField[];
  /** Prepended to every external_id, broken or valid. Default ''. */
  externalIdPrefix?: string;
}

type Broken = { value: unknown; reason: CasePatchInvalidReason };
const broken = (reason: CasePatchInvalidReason, value: fc.Arbitrary<unknown>): fc.Arbitrary<Broken> =>
  value.map((v) => ({ value: v, reason }));

const { deleteAfterMin: MIN, deleteAfterMax: MAX } = LIMITS;
const url = 'https://example.com/hook';

function brokenValues(prefix: string): Record<CasePatchField, fc.Arbitrary<Broken>> {
  return {
    webhook_url: fc.oneof(
      broken('too-long-by-one', fc.constant(httpUrlOfLength(LIMITS.webhookUrlMaxLength + 1))),
      broken('too-long', fc.oneof(fc.constant(600), fc.integer({ min: 600, max: 4096 })).map(httpUrlOfLength)),
      broken('wrong-type', oneOf<unknown>(42, true, false, { url }, [url])),
    ),
    delete_after: fc.oneof(
      broken(
        'out-of-range',
        fc.oneof(
          fc.constantFrom(MAX + 1, MIN - 1),
          fc.integer({ min: MAX + 1, max: Number.MAX_SAFE_INTEGER }),
          fc.integer({ min: Number.MIN_SAFE_INTEGER, max: MIN - 1 }),
        ),
      ),
      broken(
        'non-integer',
        fc.oneof(
          fc.constantFrom(1.5, -0.5, 0.1, MAX - 0.5),
          fc.double({ min: MIN, max: MAX, noNaN: true }).filter((n) => !Number.isInteger(n)),
        ),
      ),
      broken('numeric-string', fc.oneof(fc.constantFrom('5', '-1', '0'), fc.integer().map(String))),
      broken('wrong-type', oneOf<unknown>(true, false, {}, [], [1])),
      broken('null-not-allowed', fc.constant(null)),
    ),
    metadata: fc.oneof(
      broken('metadata-array', oneOf<unknown>([], [1, 2], [{ a: 1 }], ['x'])),
      broken('metadata-scalar', oneOf<unknown>('x', '{}', 5, 0, true, false)),
    ),
    sync_platforms: broken('wrong-type', oneOf<unknown>('salesforce.com', 5, true)),
    external_id: fc.oneof(
      broken('too-long-by-one', overLong(prefix, fc.constant(LIMITS.caseExternalIdMaxLength + 1))),
      broken('too-long', overLong(prefix, fc.oneof(fc.constant(1000), fc.integer({ min: 600, max: 4096 })))),
      broken('wrong-type', oneOf<unknown>(123, true, { id: 'x' }, ['x'])),
    ),
  };
}

/** PATCH bodies with exactly one field broken (named, with the reason) and up to two valid others. */
export function invalidCasePatch(constraints: InvalidCasePatchConstraints = {}): fc.Arbitrary<InvalidCasePatch> {
  const fn = 'invalidCasePatch';
  checkKeys(fn, constraints, ['fields', 'externalIdPrefix']);
  const fields = checkSubset(fn, 'fields', constraints.fields ?? CASE_PATCH_FIELDS, CASE_PATCH_FIELDS);
  const prefix = checkPrefix(
    fn,
    'externalIdPrefix',
    constraints.externalIdPrefix ?? '',
    LIMITS.caseExternalIdMaxLength,
  );
  const valid = casePatchFieldArbitraries(fn, { externalIdPrefix: prefix });
  const bad = brokenValues(prefix);
  const oneBroken = fc.oneof(...fields.map((field) => bad[field].map((b) => ({ field, ...b }))));
  return fc
    .tuple(oneBroken, fc.subarray([...CASE_PATCH_FIELDS], { maxLength: 2 }), fc.record(valid))
    .map(([b, extras, record]) => ({
      patch: {
        ...pick(
          record,
          extras.filter((f) => f !== b.field),
        ),
        [b.field]: b.value,
      },
      field: b.field,
      reason: b.reason,
    }));
}
