/**
 * Property-based generators for request bodies: valid ones the interface allows, invalid ones with one named defect.
 */
export { unicodeText, type UnicodeTextConstraints } from './unicodeText.ts';
export { httpUrl, httpUrlOfLength, type HttpUrlConstraints } from './httpUrl.ts';
export { deleteAfter, type DeleteAfterConstraints } from './deleteAfter.ts';
export { metadata, type MetadataConstraints, type JsonRecord, type JsonValue } from './metadata.ts';
export { syncPlatforms, type SyncPlatform, type SyncPlatformsConstraints } from './syncPlatforms.ts';
export { validCasePatch, type ValidCasePatchConstraints } from './validCasePatch.ts';
export {
  invalidCasePatch,
  CASE_PATCH_INVALID_REASONS,
  type CasePatchInvalidReason,
  type InvalidCasePatch,
  type InvalidCasePatchConstraints,
} from './invalidCasePatch.ts';
export { validCustomerItem, type CustomerItem, type ValidCustomerItemConstraints } from './validCustomerItem.ts';
export {
  invalidCustomerItem,
  CUSTOMER_ITEM_INVALID_REASONS,
  type CustomerItemField,
  type CustomerItemInvalidReason,
  type InvalidCustomerItem,
  type InvalidCustomerItemConstraints,
} from './invalidCustomerItem.ts';
