/**
 * The reference server's behaviour as named points: every place where a server could behave
 * otherwise is one point here, a function or a value, with the correct behaviour as its default
 * (each defined beside its handler). A switch (switches.ts) overrides points: a fault with a
 * defect, a variant with another legal choice. State (store, tokens, timers) is kept apart, in Env.
 */
import { type Id, idPlus } from '../spec/index.ts';
import type { ServerOptions } from './options.ts';
import type { TenantCredentials } from './organisations.ts';
import { answerDefaults, type AnswerPoints } from './handlers/answers.ts';
import { authDefaults, type AuthPoints } from './handlers/auth.ts';
import { bulkDefaults, type BulkPoints } from './handlers/bulk.ts';
import { bulkCheckDefaults, type BulkCheckPoints } from './handlers/bulk-checks.ts';
import { bulkCustomerDefaults, type BulkCustomerPoints } from './handlers/bulk-customers.ts';
import { caseWriteDefaults, type CaseWritePoints } from './handlers/case-write.ts';
import { caseDefaults, type CasePoints } from './handlers/cases.ts';
import { contentDefaults, type ContentPoints } from './handlers/content.ts';
import { lookupDefaults, type LookupPoints } from './handlers/lookup.ts';
import { processingDefaults, type ProcessingPoints } from './handlers/processing.ts';
import { tokenDefaults, type TokenPoints } from './handlers/token.ts';
import { viewDefaults, type ViewPoints } from './handlers/views.ts';
import { webhookDefaults, type WebhookPoints } from './handlers/webhook.ts';
import type { IdSequence, Store } from './store.ts';
import type { Timers } from './timers.ts';
import type { TokenStore } from './tokens.ts';
import { RULE_DEFAULTS, type RequestRules, type RulePoints } from './validation.ts';

/** What a request does, as the points that depend on it see it. */
export type Op =
  | 'token'
  | 'create'
  | 'read'
  | 'patch'
  | 'delete'
  | 'start'
  | 'bulk-cases'
  | 'bulk-customers'
  | 'bulk-checks';

/** The bulk operations. */
export type BulkOp = Extract<Op, `bulk-${string}`>;

/** Points of no single resource. */
export interface ServerPoints {
  /** The id after `last` (0 before the first): one sequence for cases, customers and checks. */
  idAfter: IdSequence;
  /** The id of a case being created, given the sequence's next (which it may leave unused). */
  caseIdFor(next: () => Id): Id;
}

/** Every point of behaviour. */
export type Behaviour = ServerPoints &
  AnswerPoints &
  AuthPoints &
  TokenPoints &
  LookupPoints &
  CaseWritePoints &
  CasePoints &
  ContentPoints &
  BulkPoints &
  BulkCustomerPoints &
  BulkCheckPoints &
  ViewPoints &
  ProcessingPoints &
  WebhookPoints &
  RulePoints;

/** The state of one server instance, and the behaviour in force. */
export interface Env {
  readonly organisations: readonly TenantCredentials[];
  readonly store: Store;
  readonly tokens: TokenStore;
  readonly timers: Timers;
  readonly options: ServerOptions;
  /**
   * The behaviour in force, every switch applied. Read it while serving, never while switches
   * are applied (it is set once they all are).
   */
  readonly b: Behaviour;
  /** The request rules built from `b`. */
  readonly rules: RequestRules;
}

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
