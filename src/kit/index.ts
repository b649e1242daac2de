export { check, type CheckApi } from './check.ts';
export { getHarness, type Harness, type RunContext, type Organisation } from './context.ts';
export * from './assert.ts';
export type { ScreenconfMeta, Observation, Evidence } from './meta.ts';
export { CASE_FIELDS, CUSTOMER_FIELDS, expectCaseBody, readCase, stableFields, type CaseBody } from './cases.ts';
export { property, propertySeed, type PropertyOptions } from './property.ts';
export { recogniseBulkReport, jsonPathValue, type BulkReport, type BulkReportOptions, type BulkRequestItem, type ItemReport } from './bulk-report.ts';
export { describeItems, describeReport, expectBulkAnswer, expectFailuresReported, keepingEvidence, mapLimit, readBulkReport, someOf, unknownId, type ExpectedItem } from './bulk.ts';
