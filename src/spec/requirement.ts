/** The shape of one catalogue entry: one normative statement, traced to its source. */
export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';

export const AREAS = {
  token: 'Token endpoint',
  auth: 'Authentication of protected endpoints',
  'case-patch': 'Update Case (PATCH)',
  'case-delete': 'Delete Case',
  read: 'Case read representation',
  limits: 'Length and range limits',
  uniqueness: 'external_id uniqueness',
  'bulk-cases': 'Bulk update of cases',
  'bulk-customers': 'Bulk update of customers',
  'bulk-checks': 'Bulk deletion of checks',
  'content-types': 'Request content types',
  tenant: 'Tenant isolation',
  model: 'Stateful model',
  webhook: 'Completion webhook',
} as const;
export type Area = keyof typeof AREAS;

/**
 * The suite files (suites/<name>.test.ts) whose checks judge each area's requirements; the invariant
 * watcher judges the read area in every suite besides. test/e2e.test.ts holds it to the checks.
 */
export const AREA_SUITES: Record<Area, readonly string[]> = {
  token: ['token', 'inputs-token', 'inputs-body'],
  auth: ['auth', 'auth-guesses'],
  'case-patch': ['case-patch', 'case-properties', 'inputs-patch', 'inputs-body', 'inputs-keys'],
  'case-delete': ['case-delete'],
  read: ['case-patch', 'read-invariants', 'read-states'],
  limits: ['limits'],
  uniqueness: ['uniqueness'],
  'bulk-cases': ['bulk-cases', 'inputs-bulk', 'inputs-containers', 'inputs-body', 'inputs-keys'],
  'bulk-customers': ['bulk-customers', 'inputs-bulk', 'inputs-containers', 'inputs-body', 'inputs-keys'],
  'bulk-checks': ['bulk-checks', 'inputs-bulk', 'inputs-containers', 'inputs-body'],
  'content-types': ['content-types', 'inputs-body'],
  tenant: ['tenant'],
  model: ['model'],
  webhook: ['webhooks'],
};

export interface Requirement {
  /** Stable, readable id used in tests, reports, config and on the CLI. */
  readonly id: string;
  readonly level: Level;
  readonly area: Area;
  /** One line: what a conforming server does. */
  readonly statement: string;
  /** Section of the interface (`interface § …`) or an RFC section. */
  readonly source: string;
  /** Where the interface is ambiguous: the reading this catalogue takes, and why, in one line. */
  readonly decision?: string;
}

/** Identity function that keeps literal ids for the RequirementId type. */
export function requirements<const T extends readonly Requirement[]>(list: T): T {
  return list;
}
