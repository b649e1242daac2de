/**
 * The reference server's correct behaviour: every point of points.ts at its default, each defined beside its
 * handler. A switch (switches.ts) overrides points: a fault with a defect, a variant with another legal choice.
 */
import { idPlus } from '../spec/index.ts';
import { answerDefaults } from './handlers/answers.ts';
import { authDefaults } from './handlers/auth.ts';
import { bulkDefaults } from './handlers/bulk.ts';
import { bulkCheckDefaults } from './handlers/bulk-checks.ts';
import { bulkCustomerDefaults } from './handlers/bulk-customers.ts';
import { caseWriteDefaults } from './handlers/case-write.ts';
import { caseDefaults } from './handlers/cases.ts';
import { contentDefaults } from './handlers/content.ts';
import { lookupDefaults } from './handlers/lookup.ts';
import { processingDefaults } from './handlers/processing.ts';
import { tokenDefaults } from './handlers/token.ts';
import { viewDefaults } from './handlers/views.ts';
import { webhookDefaults } from './handlers/webhook.ts';
import type { Behaviour, Env } from './points.ts';
import { RULE_DEFAULTS } from './validation.ts';

export type { Behaviour, BulkOp, Env, Op } from './points.ts';

/** The correct behaviour: every point's default. */
export function correctBehaviour(env: Env): Behaviour {
  return {
    idAfter: (last) => idPlus(last, 1),
    caseIdFor: (next) => next(),
    ...answerDefaults(env),
    ...authDefaults(env),
    ...tokenDefaults(env),
    ...lookupDefaults(env),
    ...caseWriteDefaults(env),
    ...caseDefaults(env),
    ...contentDefaults(),
    ...bulkDefaults(),
    ...bulkCustomerDefaults(env),
    ...bulkCheckDefaults(env),
    ...viewDefaults(env),
    ...processingDefaults(env),
    ...webhookDefaults(env),
    ...RULE_DEFAULTS,
  };
}
