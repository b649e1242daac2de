/**
 * The plan of a reproduction script, from a failure's evidence: the requests to send in order (the judged ones and
 * their setup), each with the credential it needs, its path and body as templates in which the ids a setup request
 * created and the run's external_id prefix are variables, and what to capture from each creation.
 */
import { parseJson } from '../base/json.ts';
import { REDACTED } from '../base/redact.ts';
import { bodyIdSpans, idsNamed } from '../results/evidence.ts';
import { type Exchange, isMadeUpId } from '../results/exchange.ts';
import { type Id, idFromText, isId } from '../spec/index.ts';

/** Whose credential a request carries in the script. */
export type Who = 'ours' | 'peer' | 'ours-key' | 'peer-key' | 'none' | 'other';

/** A piece of a path or body: literal text, or a shell variable. */
export type Part = { text: string } | { variable: string };

export interface Step {
  n: number;
  method: string;
  path: Part[];
  who: Who;
  /** The Authorization header as recorded, for a hand-made one (`other`). */
  header?: string;
  contentType?: string;
  body?: Part[];
  judged: boolean;
  /** The status it got in the run. */
  status: number | undefined;
  /** A creation: the ids of its answer to capture, by their order among the answer's "id" keys. */
  captures: { variable: string; ordinal: number; kind: IdKind }[];
  /** The case it created, to delete at the end (a variable of `captures`). */
  creates?: string;
  /**
   * A read of a case an earlier step started processing, whose answer in the run showed it complete:
   * the script reads it again until it is, as the run waited (processing time is not shown).
   */
  untilComplete?: boolean;
  /**
   * Ids it names that no earlier step created and that are not made-up unknown ids: records the
   * run made outside this failure's evidence, which the script cannot set up (sent as they are,
   * they name a record the run deleted, and the answer would say nothing about the failure).
   */
  unresolved: Id[];
}

export type IdKind = 'case' | 'customer' | 'check' | 'other';

/** The "id" keys of a JSON value in the order they appear in its text, with what each identifies. */
export function idKeys(value: unknown, kind: IdKind = 'case', out: { id: Id; kind: IdKind }[] = []) {
  if (Array.isArray(value)) for (const v of value) idKeys(v, kind, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && isId(v)) out.push({ id: v, kind });
      else idKeys(v, k === 'customer' ? 'customer' : k === 'checks' ? 'check' : 'other', out);
    }
  }
  return out;
}

/** A recorded body as JSON (ids as Id), or undefined when it is none. */
export function parseBody(text: string | undefined): unknown {
  try {
    return text ? parseJson(text) : undefined;
  } catch {
    return undefined;
  }
}

function whoOf(e: Exchange): Who {
  const peer = e.request.organisation === 'peer';
  switch (e.request.credential) {
    case 'access-token':
      return peer ? 'peer' : 'ours';
    case 'api-key':
      return peer ? 'peer-key' : 'ours-key';
    case 'none':
      return 'none';
    default:
      return 'other';
  }
}

/** The kind of id a number in this place of a request names. */
export function kindAt(path: string, inBody: boolean): IdKind {
  if (!inBody) return path.startsWith('/api/cases/') ? 'case' : 'other';
  if (path.startsWith('/api/customers/')) return 'customer';
  if (path.startsWith('/api/checks/')) return 'check';
  return 'case';
}

/** The path (and query) of a recorded URL relative to the base URL. */
export function relativePath(url: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (url.startsWith(base)) return url.slice(base.length) || '/';
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Where the ids of a path are (its numeric segments): each one's offset and digits. */
function pathIdSpans(path: string): { start: number; text: string }[] {
  return [...path.matchAll(/\/(\d+)(?=\/|$|\?)/g)].map((m) => ({ start: m.index + 1, text: m[1]! }));
}

/**
 * Splits text into parts: the ids at `spans` that `ids` knows become their variables, the run's external_id prefix
 * becomes $TAG (a fresh one per script run) and a redacted secret $SECRET_JSON.
 */
function template(
  text: string,
  runId: string,
  ids: (n: Id) => string | undefined,
  spans: readonly { start: number; text: string }[],
  unresolved: Id[],
): Part[] {
  const parts: Part[] = [];
  const prefix = `screenconf-${runId}-`;
  // A redacted secret in a body is our client_secret (a token request), JSON-escaped.
  const secrets = (s: string) =>
    s.split(REDACTED).forEach((piece, i) => {
      if (i > 0) parts.push({ variable: 'SECRET_JSON' });
      if (piece) parts.push({ text: piece });
    });
  const literal = (s: string) =>
    s.split(prefix).forEach((piece, i) => {
      if (i > 0) parts.push({ text: 'screenconf-' }, { variable: 'TAG' }, { text: '-' });
      secrets(piece);
    });
  let at = 0;
  for (const n of spans) {
    const id = idFromText(n.text)!;
    const variable = ids(id);
    if (!variable) {
      if (!isMadeUpId(id)) unresolved.push(id);
      continue;
    }
    literal(text.slice(at, n.start));
    parts.push({ variable });
    at = n.start + n.text.length;
  }
  literal(text.slice(at));
  return parts;
}

/** Whether an exchange made records: a POST answered 2xx that names none (results/evidence.ts `idsCreated`). */
function madeRecords(e: Exchange): boolean {
  const status = e.response?.status;
  return e.request.method === 'POST' && status !== undefined && status >= 200 && status <= 299 && !idsNamed(e).length;
}

/** The steps that replay a failure's evidence: setup and judged requests, oldest first (cleanup left out). */
export function planSteps(exchanges: readonly Exchange[], baseUrl: string, runId: string): Step[] {
  const known = new Map<string, string>(); // `${kind}:${id}` → variable
  const steps: Step[] = [];
  for (const e of exchanges.filter((x) => !x.request.cleanup)) {
    const n = steps.length + 1;
    const path = relativePath(e.request.url, baseUrl);
    const pathOnly = path.split('?')[0]!;
    // The kind the place names first; then any kind (a case's nested customer or check in a body).
    const lookup = (inBody: boolean) => (id: Id) =>
      known.get(`${kindAt(pathOnly, inBody)}:${id}`) ??
      known.get(`case:${id}`) ??
      (inBody ? (known.get(`customer:${id}`) ?? known.get(`check:${id}`)) : undefined);
    const headers = Object.fromEntries(Object.entries(e.request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const unresolved: Id[] = [];
    const step: Step = {
      n,
      method: e.request.method,
      path: template(path, runId, lookup(false), pathIdSpans(path), unresolved),
      who: whoOf(e),
      judged: e.judged === true,
      status: e.response?.status,
      captures: [],
      unresolved,
    };
    if (step.who === 'other' && headers.authorization) step.header = headers.authorization;
    if (e.request.body !== undefined && e.request.body !== '') {
      step.contentType = headers['content-type'] ?? 'application/json';
      step.body = template(e.request.body, runId, lookup(true), bodyIdSpans(e.request.body), unresolved);
    }
    // A creation names no record (a batch's POST names its items'): the ids of its answer are the records it made,
    // each the one its id names from then on (a server that gives a deleted case's id again: the newest case).
    if (madeRecords(e)) {
      const mine = new Set<string>();
      idKeys(parseBody(e.response?.body)).forEach((k, ordinal) => {
        const variable = `ID_${n}_${ordinal + 1}`;
        step.captures.push({ variable, ordinal: ordinal + 1, kind: k.kind });
        const key = `${k.kind}:${k.id}`;
        if (!mine.has(key)) known.set(key, variable);
        mine.add(key);
        if (k.kind === 'case') step.creates ??= variable;
      });
    }
    const shown = (parts: Part[]) => parts.map((p) => ('variable' in p ? `{${p.variable}}` : p.text)).join('');
    if (
      step.method === 'GET' &&
      /"is_complete"\s*:\s*true/.test(e.response?.body ?? '') &&
      steps.some((s) => s.method === 'POST' && shown(s.path) === `${shown(step.path)}start/`)
    )
      step.untilComplete = true;
    steps.push(step);
  }
  return steps;
}
