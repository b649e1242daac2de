import fc from 'fast-check';
import { CASE_PATCH_FIELDS, LIMITS, type CasePatch, type CasePatchField } from '../spec/index.ts';
import { checkBoolean, checkKeys, checkPrefix, checkRate, checkSubset, pick } from './constraints.ts';
import { deleteAfter } from './deleteAfter.ts';
import { prefixedId } from './externalId.ts';
import { httpUrl } from './httpUrl.ts';
import { metadata } from './metadata.ts';
import { nullable } from './nullable.ts';
import { syncPlatforms } from './syncPlatforms.ts';

export interface ValidCasePatchConstraints {
  /** Fields a patch may carry; each patch carries a non-empty subset. Default all five. */
  fields?: readonly CasePatchField[];
  /** Chance that a nullable field (webhook_url, metadata, sync_platforms) is null. Default 0.1. */
  nullRate?: number;
  /** Let external_id be null too (then at nullRate). Default false: clearing an identifier is a test of its own. */
  allowNullExternalId?: boolean;
  /** Prepended to every external_id, so values stay unique across runs; the total stays within 512. Default ''. */
  externalIdPrefix?: string;
}

type Fields = { [F in CasePatchField]-?: fc.Arbitrary<NonNullable<CasePatch>[F]> };

/** One valid value per field; shared with invalidCasePatch for its valid extra fields. */
export function casePatchFieldArbitraries(fn: string, constraints: ValidCasePatchConstraints): Fields {
  const nullRate = checkRate(fn, 'nullRate', constraints.nullRate ?? 0.1);
  const allowNull = checkBoolean(fn, 'allowNullExternalId', constraints.allowNullExternalId ?? false);
  const prefix = checkPrefix(
    fn,
    'externalIdPrefix',
    constraints.externalIdPrefix ?? '',
    LIMITS.caseExternalIdMaxLength,
  );
  const externalId = prefixedId(prefix, LIMITS.caseExternalIdMaxLength);
  return {
    webhook_url: nullable(httpUrl({ maxLength: LIMITS.webhookUrlMaxLength }), nullRate),
    delete_after: deleteAfter(),
    metadata: nullable(metadata(), nullRate),
    sync_platforms: nullable(syncPlatforms(), nullRate),
    external_id: allowNull ? nullable(externalId, nullRate) : externalId,
  };
}

/** PATCH /api/cases/{id}/ bodies the interface allows: a non-empty subset of the updatable fields. */
export function validCasePatch(constraints: ValidCasePatchConstraints = {}): fc.Arbitrary<CasePatch> {
  const fn = 'validCasePatch';
  checkKeys(fn, constraints, ['fields', 'nullRate', 'allowNullExternalId', 'externalIdPrefix']);
  const fields = checkSubset(fn, 'fields', constraints.fields ?? CASE_PATCH_FIELDS, CASE_PATCH_FIELDS);
  const values = casePatchFieldArbitraries(fn, constraints);
  return fc
    .tuple(fc.subarray([...fields], { minLength: 1 }), fc.record(pick(values, fields) as Fields))
    .map(([chosen, record]) => pick(record, chosen) as CasePatch);
}
