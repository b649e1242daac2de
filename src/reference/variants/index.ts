/** Every variant switch, by area. */
import { AUTH_VARIANTS } from './auth.ts';
import { BODY_VARIANTS } from './body.ts';
import { BULK_VARIANTS } from './bulk.ts';
import { CASE_VARIANTS } from './cases.ts';
import { CONTAINER_VARIANTS } from './containers.ts';
import { ERROR_VARIANTS } from './errors.ts';
import { HTTP_VARIANTS } from './http.ts';
import { INPUT_VARIANTS } from './input.ts';
import { KEY_VARIANTS } from './keys.ts';
import { READ_VARIANTS } from './read.ts';
import { STATE_VARIANTS } from './states.ts';
import { READ_BACK_VARIANTS } from './read-back.ts';
import { TENANT_VARIANTS } from './tenant.ts';
import { TEXT_VARIANTS } from './text.ts';
import { TOKEN_VARIANTS } from './token.ts';
import { WEBHOOK_VARIANTS } from './webhook.ts';

export const ALL_VARIANTS = [
  ...ERROR_VARIANTS,
  ...TENANT_VARIANTS,
  ...CASE_VARIANTS,
  ...BULK_VARIANTS,
  ...CONTAINER_VARIANTS,
  ...TOKEN_VARIANTS,
  ...AUTH_VARIANTS,
  ...TEXT_VARIANTS,
  ...READ_VARIANTS,
  ...WEBHOOK_VARIANTS,
  ...HTTP_VARIANTS,
  ...INPUT_VARIANTS,
  ...STATE_VARIANTS,
  ...BODY_VARIANTS,
  ...READ_BACK_VARIANTS,
  ...KEY_VARIANTS,
];
