/**
 * The words and fields a per-item report is read by: names of lists and maps that mean failure or
 * success, status words and HTTP statuses, and the fields that name a request item.
 */
import { isJsonObject, type JsonObject } from '../../base/json.ts';

export type Outcome = 'failed' | 'succeeded';

export const MAX_DEPTH = 3;

const FAILURE_NAMES = new Set([
  'failed',
  'failure',
  'failures',
  'fail',
  'fails',
  'error',
  'errors',
  'errored',
  'rejected',
  'rejections',
  'invalid',
  'notfound',
  'missing',
  'unknown',
  'skipped',
  'conflict',
  'conflicts',
  'denied',
  'forbidden',
  'notupdated',
  'notdeleted',
  'unprocessed',
]);

const SUCCESS_NAMES = new Set([
  'succeeded',
  'success',
  'successes',
  'successful',
  'ok',
  'updated',
  'deleted',
  'removed',
  'applied',
  'done',
  'accepted',
  'modified',
  'changed',
  'saved',
]);

/** Words of a name that say what the entries are, not what became of them. */
const NOISE_WORDS = new Set([
  'ids',
  'id',
  'items',
  'item',
  'indexes',
  'indices',
  'index',
  'external',
  'entries',
  'entry',
  'list',
  'records',
  'keys',
  'rows',
  'idx',
  'position',
  'positions',
  'pks',
]);

const FAILURE_WORDS = new Set([
  'failed',
  'failure',
  'fail',
  'error',
  'errored',
  'rejected',
  'invalid',
  'notfound',
  'missing',
  'conflict',
  'denied',
  'forbidden',
  'unauthorized',
  'unauthorised',
  'skipped',
  'ignored',
  'notupdated',
  'notdeleted',
  'unprocessable',
  'badrequest',
  'ko',
  'aborted',
  'unknown',
]);

const SUCCESS_WORDS = new Set([
  'ok',
  'success',
  'succeeded',
  'successful',
  'updated',
  'deleted',
  'removed',
  'applied',
  'done',
  'accepted',
  'modified',
  'changed',
  'saved',
  'completed',
  // Promise.allSettled: {"status": "fulfilled", "value": …} beside {"status": "rejected", "reason": …}.
  'fulfilled',
]);

export const INDEX_FIELDS = new Set(['index', 'idx', 'itemindex', 'position']);
export const ID_FIELDS = new Set(['id', 'pk', 'caseid', 'customerid', 'checkid']);
export const EXTERNAL_ID_FIELDS = new Set(['externalid']);
export const NESTED_FIELDS = ['item', 'request', 'input', 'data'];
/** `isFulfilled` / `isRejected`: a settled promise as p-settle and Bluebird's reflect() show it. */
const BOOLEAN_OK_FIELDS = new Set(['ok', 'success', 'succeeded', 'successful', 'isfulfilled']);
const BOOLEAN_FAILED_FIELDS = new Set(['failed', 'failure', 'error', 'errored', 'isrejected']);
const STATUS_FIELDS = new Set(['status', 'state', 'result']);
const HTTP_STATUS_FIELDS = new Set(['statuscode', 'httpstatus', 'code']);
const ERROR_FIELDS = new Set(['error', 'errors', 'errorcode', 'errormessage', 'exception', 'failurereason']);
/** Fields of a Case or Check: an object with one is a resource, and its status is its own. */
const RESOURCE_FIELDS = ['check_type', 'reasoning', 'risk_score', 'is_complete', 'checks', 'customer'];

export function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** What the words of a name say its bare numbers are: `failed_indexes` → indexes, `failed_ids` → ids. */
export function nameNumbers(key: string): 'ids' | 'indexes' | undefined {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((w) => INDEX_WORDS.has(w))) return 'indexes';
  if (words.some((w) => w === 'id' || w === 'ids' || w === 'pks')) return 'ids';
  return undefined;
}

const INDEX_WORDS = new Set(['index', 'indexes', 'indices', 'idx', 'position', 'positions']);

/** The outcome a key's name stands for (`failed_ids` → failed), if any. */
export function nameOutcome(key: string): Outcome | undefined {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !NOISE_WORDS.has(w));
  const name = words.join('');
  if (FAILURE_NAMES.has(name)) return 'failed';
  if (SUCCESS_NAMES.has(name)) return 'succeeded';
  return undefined;
}

function httpOutcome(v: unknown): Outcome | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 100 || v > 599) return undefined;
  if (v >= 200 && v <= 299) return 'succeeded';
  return v >= 400 ? 'failed' : undefined;
}

function wordOutcome(v: unknown): Outcome | undefined {
  if (typeof v === 'number') return httpOutcome(v);
  if (typeof v !== 'string') return undefined;
  const w = squash(v);
  if (FAILURE_WORDS.has(w)) return 'failed';
  if (SUCCESS_WORDS.has(w)) return 'succeeded';
  return undefined;
}

export function isEmpty(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (isJsonObject(v) && Object.keys(v).length === 0)
  );
}

/** The status an object carries about itself (rule 1), if any. */
export function entryOutcome(e: JsonObject): Outcome | 'contradictory' | undefined {
  const strong = new Set<Outcome>();
  let weakSuccess = false;
  const resource = RESOURCE_FIELDS.some((f) => f in e);
  for (const [key, v] of Object.entries(e)) {
    const f = squash(key);
    // A Case carries `failed` of its own (processing failed): a returned case says nothing of its item.
    if (resource && f === 'failed') continue;
    if (typeof v === 'boolean' && BOOLEAN_OK_FIELDS.has(f)) strong.add(v ? 'succeeded' : 'failed');
    else if (typeof v === 'boolean' && BOOLEAN_FAILED_FIELDS.has(f)) strong.add(v ? 'failed' : 'succeeded');
    else if (STATUS_FIELDS.has(f) && !resource) {
      const o = wordOutcome(v);
      if (o) strong.add(o);
    } else if (HTTP_STATUS_FIELDS.has(f)) {
      const o = httpOutcome(v);
      if (o) strong.add(o);
    } else if (ERROR_FIELDS.has(f)) {
      if (isEmpty(v)) weakSuccess = true;
      else strong.add('failed');
    }
  }
  if (strong.size === 2) return 'contradictory';
  if (strong.size === 1) return [...strong][0];
  return weakSuccess ? 'succeeded' : undefined;
}

/** The status a map value carries: a word, an HTTP status, a boolean, or an object's own. */
export function valueOutcome(v: unknown): Outcome | 'contradictory' | undefined {
  if (typeof v === 'boolean') return v ? 'succeeded' : 'failed';
  if (isJsonObject(v)) return entryOutcome(v);
  return wordOutcome(v);
}

export function keyOf(v: unknown): string | undefined {
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint') return String(v);
  if (typeof v === 'string' && v !== '') return v;
  return undefined;
}
