/**
 * The interface as an OpenAPI 3.1 document, generated from the zod schemas and the limits (zod's
 * own JSON Schema export, z.toJSONSchema, in OpenAPI 3.1's dialect, JSON Schema 2020-12). The
 * provisioning conventions, which the interface does not show, are marked `x-screenconf-provisioning`;
 * each operation lists the requirements judged on it (`x-screenconf-requirements`).
 */
import { z } from 'zod';
import { TOKEN_PATH } from '../client/auth.ts';
import { PATHS } from '../client/api.ts';
import { PROVISION_PATHS } from '../provision/provisioner.ts';
import {
  type Area,
  BulkCaseUpdateItem,
  BulkCaseUpdateRequest,
  BulkCheckDeleteRequest,
  BulkCustomerUpdateItem,
  BulkCustomerUpdateRequest,
  CATALOGUE,
  CATALOGUE_VERSION,
  Case,
  CasePatch,
  Check,
  Customer,
  idAsInteger,
  LIMITS,
  TokenRequest,
  TokenResponse,
} from '../spec/index.ts';
import { VERSION } from '../version.ts';

type Json = Record<string, unknown>;

/** The operations of the document, by a name of ours. */
type Operation =
  | 'token'
  | 'patchCase'
  | 'deleteCase'
  | 'bulkUpdateCases'
  | 'bulkUpdateCustomers'
  | 'bulkDeleteChecks'
  | 'caseCompleted';

const PROTECTED: readonly Operation[] = [
  'patchCase',
  'deleteCase',
  'bulkUpdateCases',
  'bulkUpdateCustomers',
  'bulkDeleteChecks',
];

/** The operations each area's requirements are judged on. */
const AREA_OPERATIONS: Record<Area, readonly Operation[]> = {
  token: ['token'],
  auth: PROTECTED,
  'case-patch': ['patchCase'],
  'case-delete': ['deleteCase'],
  read: ['patchCase'],
  limits: ['patchCase', 'bulkUpdateCases', 'bulkUpdateCustomers', 'bulkDeleteChecks'],
  uniqueness: ['patchCase', 'bulkUpdateCases'],
  'bulk-cases': ['bulkUpdateCases'],
  'bulk-customers': ['bulkUpdateCustomers'],
  'bulk-checks': ['bulkDeleteChecks'],
  'content-types': ['patchCase', 'bulkUpdateCases', 'bulkUpdateCustomers', 'bulkDeleteChecks'],
  tenant: PROTECTED,
  model: ['patchCase', 'deleteCase', 'bulkUpdateCases', 'bulkDeleteChecks'],
  webhook: ['caseCompleted'],
};

/** The component schemas, each a zod schema of src/spec (bulk bodies with their item schema). */
function componentSchemas(): Json {
  const registry = z.registry<{ id: string }>();
  const add = (id: string, schema: z.ZodType) => registry.add(schema, { id });
  add('Customer', Customer);
  add('Check', Check);
  add('Case', Case);
  add('CasePatch', CasePatch);
  add('BulkCaseUpdateItem', BulkCaseUpdateItem);
  add(
    'BulkCaseUpdateRequest',
    BulkCaseUpdateRequest.extend({ items: z.array(BulkCaseUpdateItem).max(LIMITS.bulkMaxItems) }),
  );
  add('BulkCustomerUpdateItem', BulkCustomerUpdateItem);
  add(
    'BulkCustomerUpdateRequest',
    BulkCustomerUpdateRequest.extend({ items: z.array(BulkCustomerUpdateItem).max(LIMITS.bulkMaxItems) }),
  );
  add('BulkCheckDeleteRequest', BulkCheckDeleteRequest);
  add('TokenRequest', TokenRequest);
  add('TokenResponse', TokenResponse);
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    override: idAsInteger,
  }) as { schemas: Record<string, Json> };
  // Each is a component of this document, in its dialect: no $schema or $id of its own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ 'application/json': { schema: ref(id) } });
/** PATCH and bulk bodies may come as JSON, form-urlencoded or multipart (interface § Request content types). */
const anyBody = (id: string) => ({
  required: true,
  content: {
    ...json(id),
    'application/x-www-form-urlencoded': { schema: ref(id) },
    'multipart/form-data': { schema: ref(id) },
  },
});
const rejected = { description: 'rejected: any 4xx; the state is unchanged' };
const problem = {
  '400': rejected,
  '401': { description: 'missing, malformed or wrong credentials' },
  '404': { description: 'no such resource in this organisation' },
};
const caseId = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const bulkAnswer = {
  description: 'per-item results; items that failed are reported, valid items applied',
  content: { 'application/json': { schema: { type: 'object' } } },
};

/** The requirements judged on an operation. */
function requirementsOf(operation: Operation): string[] {
  return CATALOGUE.filter((r) => AREA_OPERATIONS[r.area].includes(operation)).map((r) => r.id);
}

/** An operation object with its id, summary and the requirement ids judged on it. */
function op(operation: Operation, summary: string, body: Json): Json {
  return { operationId: operation, summary, ...body, 'x-screenconf-requirements': requirementsOf(operation) };
}

/** A provisioning convention: not the interface; how screenconf (and the reference server) create and start cases. */
function convention(operationId: string, summary: string, body: Json): Json {
  return {
    operationId,
    summary,
    ...body,
    'x-screenconf-provisioning': true,
    description:
      'A provisioning convention of screenconf, not part of the interface: the reference server implements it; ' +
      'a --provisioner module replaces it for a target with other conventions.',
  };
}

/** The OpenAPI 3.1 document of the interface. */
export function openApiDocument(): Json {
  const casePath = PROVISION_PATHS.readCase;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance Screening Service',
      version: CATALOGUE_VERSION,
      description:
        `Generated by screenconf ${VERSION} from its zod schemas, limits and requirement catalogue ` +
        `${CATALOGUE_VERSION}. Operations marked x-screenconf-provisioning are screenconf's conventions, not ` +
        'the interface; x-screenconf-requirements lists the requirements (screenconf list) judged on each.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'https://api.example.com' } } }],
    security: [{ oauth2: [] }, { apiKey: [] }],
    paths: {
      [TOKEN_PATH]: {
        post: op('token', 'OAuth 2.0 client credentials token', {
          security: [],
          requestBody: {
            required: true,
            content: { ...json('TokenRequest'), 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } },
          },
          responses: {
            '200': { description: 'an access token', content: json('TokenResponse') },
            '400': rejected,
            '401': { description: 'unknown client or wrong secret' },
          },
        }),
      },
      [PROVISION_PATHS.createCase]: {
        post: convention('createCase', 'Create a case (provisioning convention)', {
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '201': { description: 'the case', content: json('Case') } },
        }),
      },
      [casePath]: {
        parameters: [caseId],
        get: convention('readCase', 'Read a case (provisioning convention, optional)', {
          responses: { '200': { description: 'the case', content: json('Case') } },
        }),
        patch: op('patchCase', 'Update Case: only the fields given change', {
          requestBody: anyBody('CasePatch'),
          responses: { '200': { description: 'the updated case', content: json('Case') }, ...problem },
        }),
        delete: op('deleteCase', 'Delete Case', {
          responses: { '204': { description: 'deleted (any 2xx conforms)' }, ...problem },
        }),
      },
      [PROVISION_PATHS.startCase]: {
        parameters: [caseId],
        post: convention('startCase', 'Start processing (provisioning convention)', {
          responses: { '202': { description: 'processing started; a webhook follows on completion' } },
        }),
      },
      [PATHS.bulkUpdateCases]: {
        post: op('bulkUpdateCases', 'Bulk Update Cases', {
          requestBody: anyBody('BulkCaseUpdateRequest'),
          responses: { '200': bulkAnswer, ...problem },
        }),
      },
      [PATHS.bulkUpdateCustomers]: {
        post: op('bulkUpdateCustomers', 'Bulk Update Customers', {
          requestBody: anyBody('BulkCustomerUpdateRequest'),
          responses: { '200': bulkAnswer, ...problem },
        }),
      },
      [PATHS.bulkDeleteChecks]: {
        post: op('bulkDeleteChecks', 'Bulk Delete Checks', {
          requestBody: anyBody('BulkCheckDeleteRequest'),
          responses: { '200': bulkAnswer, ...problem },
        }),
      },
    },
    webhooks: {
      caseCompleted: {
        post: op('caseCompleted', "Case completion: a POST of the case's read representation to its webhook_url", {
          requestBody: { required: true, content: json('Case') },
          responses: { '200': { description: 'received (any 2xx)' } },
        }),
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
        apiKey: { type: 'http', scheme: 'bearer', description: 'the API key as a bearer token' },
      },
    },
  };
}
