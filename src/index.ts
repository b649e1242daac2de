/**
 * screenconf as a library, for users' own checks: `import { check, expectStatus } from 'screenconf'`.
 * The check API and its assertions (src/kit), the organisation clients (src/client), the
 * provisioner (src/provision), the webhook receiver (src/webhooks), the interface as data
 * (src/spec) and the results model's failure. Generators are `screenconf/arbitraries`.
 * Nothing here starts a run: `screenconf run` does, and gives these their run context.
 */
export * from './kit/index.ts';
export {
  ApiClient,
  type ApiClientOptions,
  type AuthMode,
  type Credentials,
  organisationClient,
  PATHS,
  type RequestOptions,
} from './client/api.ts';
export { type NewCase, PROVISION_PATHS, Provisioner, type ProvisionerOptions } from './provision/provisioner.ts';
export type { AdapterContext, ProvisionAdapter } from './provision/adapter.ts';
export * from './webhooks/index.ts';
export * as spec from './spec/index.ts';
export { ConformanceFailure } from './results/failure.ts';
export { HarnessError, type ErrorCode } from './errors.ts';
export { openApiDocument } from './report/openapi.ts';
export { VERSION } from './version.ts';
