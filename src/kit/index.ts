export { check, type CheckApi, type CheckRequirementId } from './check.ts';
export { RawJson } from '../client/encode.ts';
export { partOfBody } from '../client/transport.ts';
export { getHarness, type Harness, type RunContext, type Organisation } from './context.ts';
export * from './assert.ts';
export type { JsonObject } from '../base/json.ts';
export { isJsonObject } from '../base/json.ts';
export { looksLikeCase } from './case-shape.ts';
export { anotherCase, describeIdentity, identityOf, knownAs, type CaseIdentity } from '../provision/identity.ts';
export {
  CASE_FIELDS,
  CHECK_FIELDS,
  CUSTOMER_FIELDS,
  caseWithChecks,
  changedFields,
  changedNames,
  checkIds,
  confirmedByRead,
  createdState,
  customerOf,
  expectCaseBody,
  freshExternalIds,
  readCase,
  readUntil,
  readUntilComplete,
  show,
  stableFields,
  stateBefore,
  stableValue,
  type CaseBody,
  type CaseCustomer,
  type CaseWithChecks,
} from './cases.ts';
export {
  describeLimitFields,
  fromPool,
  limitBatches,
  limitPool,
  type LimitBatch,
  type LimitBatches,
  type LimitBatchesSpec,
  type LimitKind,
} from './limit-batches.ts';
export { describeRefused, type FieldProbe, type ItemFields, itemFields } from './item-fields.ts';
export { sharedPool, type MakeCases, type PoolLease, type SharedPool } from './shared-pool.ts';
export { expectMalformedHandled, malformedBulkBodies, type MalformedBody } from './malformed.ts';
export { differentValue, processingBegun } from './read-only.ts';
export { property, propertySeed, type PropertyOptions } from './property.ts';
export { expectNoPrivateData, privateCase, type PrivateCase } from './private-case.ts';
export {
  recogniseBulkReport,
  jsonPathValue,
  type BulkReport,
  type BulkReportOptions,
  type BulkRequestItem,
  type ItemReport,
  type Unplaced,
} from './bulk-report.ts';
export {
  describeItems,
  describeReport,
  expectFailuresReported,
  readBulkReport,
  type ExpectedItem,
} from './bulk-verdict.ts';
export {
  aloneRefused,
  appliedButReportedFailed,
  exchanged,
  expectBatchReport,
  expectBatchSuccess,
  expectBulkAnswer,
  expectOverLimitRefused,
  inOrder,
  itemLabels,
  keepingEvidence,
  learnBefore,
  mapLimit,
  failReadBack,
  readBackProblems,
  someOf,
  unknownId,
  validReportedFailed,
  type BulkSent,
  type MixedEntry,
  type MixedSetup,
  type ReadBack,
  type ReadBackProblem,
} from './bulk.ts';
