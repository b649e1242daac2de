/**
 * The reference server's points of behaviour, as types: every place where a server could behave otherwise is
 * one point, a function or a value (Behaviour); the correct behaviour is each point's default, defined beside
 * its handler and gathered in behaviour.ts; a switch (switches.ts) overrides points. The state of one server
 * (store, tokens, timers) is kept apart, in Env. Types only, below the handlers: the handlers take Env and the
 * types of their points from here, and behaviour.ts gathers their defaults, so imports only go down.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { Id } from '../spec/index.ts';
import type { Answer, HttpError } from './http.ts';
import type { ServerOptions } from './options.ts';
import type { TenantCredentials } from './organisations.ts';
import type { CaseRecord, CheckRecord, CustomerRecord, IdSequence, Store } from './store.ts';
import type { Timers } from './timers.ts';
import type { IssuedToken, TokenStore } from './tokens.ts';
import type { CasePatchInput, RequestRules, RulePoints } from './validation.ts';

export interface AnswerPoints {
  /** The status a refusal is answered with. */
  errorStatus(err: HttpError): number;
  /** The answer to a refusal. */
  errorAnswer(err: HttpError): Answer;
  /** The Content-Type header of a JSON body of this media type (answers and webhook deliveries). */
  contentType(mediaType: string): string;
  /** Whether every answer ends its connection (Connection: close): no persistent connections. */
  closeAfterAnswer: boolean;
}

export interface AuthPoints {
  /** The headers of a 401 answer: the challenge, with its error parameter when there is one. */
  challenge(error?: string): Record<string, string>;
  /** A request without an Authorization header: refused (or let through as an organisation). */
  missingCredentials(): string;
  /** The scheme and credential of an Authorization header; undefined when it is not "<scheme> <credential>". */
  parseAuthorization(header: string): { scheme: 'bearer' | 'token'; credential: string } | undefined;
  /** An Authorization header that is not "<scheme> <credential>". */
  malformedCredentials(): string;
  /** A credential no organisation holds, sent to `path`. */
  unknownCredential(path: string): string;
  /** The live access token a credential is, for this operation. */
  tokenOwner(credential: string, op: Op): IssuedToken | undefined;
  /** The organisation whose API key a credential is, for this operation. */
  apiKeyOwner(credential: string, op: Op): TenantCredentials | undefined;
  /** Whether an access token opens this operation. */
  tokenOpens(op: Op): boolean;
  /** Whether an organisation's API key sent in this scheme opens this operation. */
  apiKeyOpens(scheme: 'bearer' | 'token', op: Op): boolean;
  /** Called once a bulk operation has run for the organisation its credential opened: throws to refuse it after all. */
  afterBulk(req: IncomingMessage, op: Op): void;
  /** Counts a request of a caller (a credential or a client); throws to refuse it. */
  throttle(caller: string): void;
  /** Called for every request before it is routed, the token endpoint's too: throws to refuse it (a lockout). */
  admit(req: IncomingMessage): void;
  /** Called when a request is refused for its credential (missing, malformed, or one that opens nothing). */
  credentialRefused(req: IncomingMessage): void;
}

export interface BulkCheckPoints {
  /** Removes a check a bulk delete found. */
  removeCheck(check: CheckRecord): void;
}

export interface BulkCustomerPoints {
  /** The customers an operation of `org` finds by external_id (the first organisation in scope that has any). */
  customersByExternalId(org: string, externalId: string, op: Op): CustomerRecord[];
}

/** How one entry of a batch went. */
export interface ItemResult {
  index: number;
  /** The record the item reached, or what the item named when it failed. */
  key: { id: unknown; external_id?: unknown };
  status: 'updated' | 'deleted' | 'failed';
  /** Why it failed. */
  error?: HttpError;
}

/** The envelope of a bulk request: where its entries are, and their outer schema. */
export interface BatchSpec {
  op: BulkOp;
  key: 'items' | 'ids';
  schema: z.ZodType;
}

export interface BulkPoints {
  /** Takes the entries of a bulk body within the limit (400 otherwise) and runs them. */
  runBatch(spec: BatchSpec, body: unknown, run: (entries: unknown[]) => ItemResult[]): ItemResult[];
  /** The answer to a bulk request from its items' results. */
  bulkAnswer(op: BulkOp, results: ItemResult[]): Answer;
}

/** What a write acts on: a case (PATCH, bulk case item), or a customer (bulk customer item). */
export type KeyTarget = { case: CaseRecord } | { customer: CustomerRecord };

export interface CaseWritePoints {
  /** Whether this operation checks external_id uniqueness before it writes. */
  uniqueChecked(op: Op): boolean;
  /** Whether a case of the organisation other than `self` holds this external_id. */
  externalIdTaken(org: string, externalId: string, self?: Id): boolean;
  /** Writes the fields a patch gives into a case. */
  applyCaseFields(c: CaseRecord, patch: CasePatchInput): void;
  /** Records that a case changed. */
  saveCase(c: CaseRecord): void;
  /** Parses a PATCH body: the patch, or a 400 naming each field at fault. */
  parsePatch(org: string, c: CaseRecord, body: unknown): CasePatchInput;
  /**
   * What a PATCH or bulk item does with the read-only fields it sent beside its patch, before the
   * patch is written (`fields`: only those sent; a bulk item's id aside). May refuse the request.
   */
  readOnlySent(c: CaseRecord, fields: Record<string, unknown>, op: Op): void;
  /**
   * What a PATCH or bulk item does with the other keys it sent: neither a field it writes, nor its identifier,
   * nor a read-only field of the case (keys the representation does not show, keys no model has). `target`: the
   * case, or the customer a bulk customer item names. By default ignored; may refuse the request (or the item).
   */
  otherKeysSent(target: KeyTarget, keys: Record<string, unknown>, op: Op): void;
  /** Writes a parsed PATCH into its case. */
  patchWrite(org: string, c: CaseRecord, patch: CasePatchInput): void | Promise<void>;
  /** Called when a case has been created. */
  caseCreated(c: CaseRecord): void;
}

export interface CasePoints {
  /** The case id a request path names; refuses text that is not one. */
  caseId(idText: string): Id;
  /** The methods /api/cases/{id}/ serves; others answer 405 with Allow. */
  caseMethods: readonly string[];
  /** GET /api/cases/{id}/. */
  readCase(org: string, id: Id): Answer;
  /** Removes a case DELETE found. */
  deleteCase(c: CaseRecord): void;
  /** Called when a case of this customer was deleted. */
  customerOrphaned(org: string, customerId: Id): void;
  /** The answer to a DELETE that removed this case. */
  deletedAnswer(c: CaseRecord): Answer;
  /** The answer to a DELETE that found no case of the caller's (`refusal`: why not): by default, that refusal. */
  deleteAbsent(refusal: HttpError): Answer;
}

export interface ContentPoints {
  /** The value a JSON body's text stands for, for an operation (an empty text too); throws a 400 when it is none. */
  jsonBody(op: Op, text: string): unknown;
  /**
   * The value a decoded body of this media type stands for, for an operation; `header` is the
   * Content-Type as sent, parameters and all.
   */
  decodeBody(op: Op, mediaType: string, body: unknown, header: string): unknown;
  /** What a multipart part sent as a file (with a filename) is to a form field: refused (400), or its text. */
  fileParts: 'refuse' | 'text';
}

/** A record a request named and did not find. */
export interface Missing {
  kind: 'case' | 'customer' | 'check';
  /** The organisation that looked. */
  org: string;
  id?: Id;
  externalId?: string;
}

export interface LookupPoints {
  /** The organisations whose records an operation of `org` reaches, the caller's first. */
  scope(org: string, op: Op): readonly string[];
  /** The refusal when a named record is not found. */
  notFound(missing: Missing): HttpError;
  /** The case an operation names; throws the refusal when there is none. */
  findCase(org: string, id: Id, op: Op): CaseRecord;
}

export interface ProcessingPoints {
  /** Called when processing of a case (re)starts, before its first step. */
  processingStarted(c: CaseRecord): void;
  /** Called when a check starts deciding; `last` when it is the case's last check. */
  checkDeciding(c: CaseRecord, check: CheckRecord, last: boolean): void;
  /** Called when a case completes. */
  caseCompleted(c: CaseRecord): void;
  /**
   * Whether processing waits at this check for documents (the interface: required for KYB, KYC EDD and transaction
   * monitoring): it stays PENDING and the case is not completed (the reference takes no documents).
   */
  awaitsDocuments(check: CheckRecord): boolean;
  /** The risk score a check is decided with, in [0, 1]; null: the check is not decided but SKIPPED. */
  scoreCheck(caseId: Id, check: CheckRecord): number | null;
  /** The risk score as stored and shown. */
  storedRiskScore(score: number): number;
}

export interface TokenPoints {
  /** The refusal of a token request for its Authorization header, or undefined to go on (by default: ignored). */
  tokenAuthorization(header: string | undefined): Answer | undefined;
  /** The fields of a token request, before they are checked. */
  tokenFields(fields: Record<string, unknown>): Record<string, unknown>;
  /** Whether a grant_type is served. */
  grantAccepted(grantType: unknown): boolean;
  /** The answer to a token request whose fields are of the wrong form (`message` names them). */
  badTokenRequest(fields: Record<string, unknown>, message: string): Answer;
  /** The answer to a token request for a client_id no organisation has. */
  unknownClient(clientId: string): Answer;
  /** Whether a client_secret authenticates an organisation's client. */
  secretAccepted(org: TenantCredentials, secret: string): boolean;
  /** The lifetime of a new access token, in seconds. */
  tokenTtlSeconds: number;
  /** How long after its issue a token stops opening anything, in ms, for the lifetime its answer states. */
  tokenLifetimeMs(ttlSeconds: number): number;
  /** A new access token for an organisation's client. */
  newAccessToken(org: TenantCredentials, ttlSeconds: number): string;
  /** The body of a successful token response. */
  tokenBody(accessToken: string, ttlSeconds: number): Record<string, unknown>;
  /** The headers of a successful token response. */
  tokenHeaders: Record<string, string>;
  /** Called when a token has been issued to a client. */
  tokenIssued(clientId: string, accessToken: string): void;
  /** An OAuth error answer (RFC 6749 §5.2). */
  oauthError(status: number, error: string, description: string): Answer;
}

export interface ViewPoints {
  /** A case as every answer and webhook shows it. */
  caseView(c: CaseRecord): Record<string, unknown>;
  /** A check nested in a case. */
  checkView(k: CheckRecord): Record<string, unknown>;
  /** The customer nested in a case. */
  customerView(cu: CustomerRecord): Record<string, unknown>;
  /** A case's risk_score from its checks' scores (none when no check is scored). */
  caseRiskScore(scores: number[]): number | null;
  /** The order a case shows its checks in, from the store's (ascending id). */
  checkOrder(checks: CheckRecord[]): CheckRecord[];
}

/** One webhook request. */
export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookPoints {
  /** Where a case's completion webhook goes (none when null). */
  webhookTarget(c: CaseRecord): string | null;
  /** The body of a case's completion webhook. */
  webhookBody(c: CaseRecord): Record<string, unknown>;
  /** Delivers a webhook, retrying as needed; settles true when the receiver took it (2xx). */
  deliver(delivery: Delivery): Promise<boolean>;
  /** One attempt of a delivery: whether the receiver took it. */
  postDelivery(delivery: Delivery): Promise<boolean>;
}

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
