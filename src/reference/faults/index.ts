/** Every fault switch, by area. */
import { AUTH_FAULTS } from './auth.ts';
import { BODY_FAULTS } from './body.ts';
import { BULK_FAULTS } from './bulk.ts';
import { CASE_ID_FAULTS } from './case-id.ts';
import { CONTAINER_FAULTS } from './containers.ts';
import { CONTENT_FAULTS } from './content.ts';
import { CREDENTIAL_PART_FAULTS } from './credential-parts.ts';
import { DELETE_FAULTS } from './delete.ts';
import { DROP_FAULTS } from './drop.ts';
import { INPUT_FAULTS } from './input.ts';
import { KEY_FAULTS } from './keys.ts';
import { ID_FAULTS } from './ids.ts';
import { LIMIT_FAULTS } from './limit.ts';
import { MODEL_FAULTS } from './model.ts';
import { PATCH_FAULTS } from './patch.ts';
import { READ_FAULTS } from './read.ts';
import { STATE_FAULTS } from './states.ts';
import { READ_BACK_FAULTS } from './read-back.ts';
import { TENANT_FAULTS } from './tenant.ts';
import { TOKEN_FAULTS } from './token.ts';
import { TOKEN_LIFETIME_FAULTS } from './token-lifetime.ts';
import { UNIQUE_FAULTS } from './unique.ts';
import { WEBHOOK_FAULTS } from './webhook.ts';

export const ALL_FAULTS = [
  ...TOKEN_FAULTS,
  ...TOKEN_LIFETIME_FAULTS,
  ...AUTH_FAULTS,
  ...CREDENTIAL_PART_FAULTS,
  ...PATCH_FAULTS,
  ...CASE_ID_FAULTS,
  ...READ_FAULTS,
  ...MODEL_FAULTS,
  ...DELETE_FAULTS,
  ...ID_FAULTS,
  ...BULK_FAULTS,
  ...CONTAINER_FAULTS,
  ...CONTENT_FAULTS,
  ...LIMIT_FAULTS,
  ...UNIQUE_FAULTS,
  ...TENANT_FAULTS,
  ...WEBHOOK_FAULTS,
  ...INPUT_FAULTS,
  ...DROP_FAULTS,
  ...STATE_FAULTS,
  ...BODY_FAULTS,
  ...READ_BACK_FAULTS,
  ...KEY_FAULTS,
];
