/** The Limits table of the interface, as named constants (interface § Limits). */
export const LIMITS = {
  /** items (bulk case and customer update), ids (bulk check delete). */
  bulkMaxItems: 100,
  webhookUrlMaxLength: 511,
  caseExternalIdMaxLength: 512,
  customerExternalIdMaxLength: 255,
  customerFullNameMaxLength: 255,
  deleteAfterMin: -2147483648,
  deleteAfterMax: 2147483647,
  /** delete_after value that means "never delete". */
  deleteAfterNever: -1,
  riskScoreMin: 0,
  riskScoreMax: 1,
} as const;

export const DOCUMENT_FILE_TYPES = ['PDF', 'PNG', 'JPG', 'CSV', 'XLSX', 'DOCX', 'MD'] as const;

/**
 * Length of a string as the interface's limits are enforced by this harness's reference
 * server: in Unicode code points. Servers may count UTF-16 units instead; the suites keep
 * generated values valid under both counts and record the server's choice as an observation.
 */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
