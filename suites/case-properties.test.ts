/**
 * PATCH /api/cases/{id}/ as properties over generated patches (interface § Endpoints › Update
 * Case: "Partial update: only the fields provided are changed"; body field types and limits).
 *
 * Every generated patch starts from a known state: one PATCH sets all five updatable fields to
 * fresh values, and its answer is the state the generated patch is judged against. A valid
 * patch must give that state with the patch applied and nothing else changed; an invalid one
 * must be rejected and change nothing. A deterministic corpus (one value per kind of defect, each
 * with valid fields beside it) runs before the generated patches, so every kind is tried in
 * every run whatever the seed.
 */
import { parseJson, stringifyJson } from '../src/base/json.ts';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  deleteAfter,
  httpUrl,
  httpUrlOfLength,
  invalidCasePatch,
  metadata,
  syncPlatforms,
  validCasePatch,
  type InvalidCasePatch,
} from '../src/arbitraries/index.ts';
import {
  CASE_FIELDS,
  check,
  deepEqual,
  excerpt,
  expectCaseBody,
  expectRejected,
  expectStatus,
  fail,
  property,
  readCase,
  stableValue,
  type CaseBody,
  type CheckApi,
} from '../src/kit/index.ts';
import type { ReceivedResponse } from '../src/client/transport.ts';
import { HarnessError } from '../src/errors.ts';
import { type Id, LIMITS } from '../src/spec/index.ts';

type Patch = Record<string, unknown>;

/** Fields the interface marks optional in the read representation: absent means "not shown". */
const OPTIONAL_IN_READ = new Set<string>(['webhook_url', 'delete_after', 'metadata', 'sync_platforms']);
const NULLABLE = ['webhook_url', 'metadata', 'sync_platforms'] as const;
const MISSING = '(missing)';
const SHOWN = 700;

function show(v: unknown): string {
  const s = v === undefined ? MISSING : (stringifyJson(v) ?? String(v));
  return s.length > SHOWN ? `${s.slice(0, SHOWN)}… (${s.length} chars)` : s;
}

/** A patch named by its fields, values shortened: the full counterexample is printed by property(). */
function describePatch(patch: Patch): string {
  return `{${Object.entries(patch)
    .map(([k, v]) => `${k}: ${show(v).slice(0, 60)}`)
    .join(', ')}}`;
}

/** Values for every updatable field but external_id (given per use, as it must stay unique). */
const baseValues = fc.record({
  webhook_url: httpUrl(),
  delete_after: deleteAfter(),
  metadata: metadata({ maxDepth: 2 }),
  sync_platforms: syncPlatforms({ maxLength: 3 }),
});

/** Fixed base values for the corpus: far from every companion value the corpus sends. */
const FIXED_BASE: Patch = {
  webhook_url: 'https://example.com/screenconf/base',
  delete_after: 30,
  metadata: { screenconf: 'base' },
  sync_platforms: [{ domain: 'crm.example.com', id: 'base' }],
};

async function patchOk(t: CheckApi, id: Id, patch: Patch, what: string): Promise<CaseBody> {
  const res = await t.primary.api.patchCase(id, patch);
  expectStatus(res, 200, what);
  return expectCaseBody(res.json, id, `${what}: response body`);
}

/** Brings the case to a known state: every updatable field set; returns the answer, which is that state. */
function knownState(t: CheckApi, id: Id, base: Patch): Promise<CaseBody> {
  const patch = { ...base, external_id: t.primary.provision.externalId('base') };
  return patchOk(t, id, patch, `PATCH ${describePatch(patch)} on case ${id} (bringing it to a known state)`);
}

/** The fields knownState sets: the base's, and external_id with its alias. */
const BASE_FIELDS: ReadonlySet<string> = new Set([...Object.keys(FIXED_BASE), 'external_id', 'origin_url']);

/** The differences in fields knownState sets (`set`), or in the others. */
function inBase(diffs: Difference[], set: boolean): Difference[] {
  return diffs.filter((d) => BASE_FIELDS.has(d.field) === set);
}

/**
 * Before a patch is blamed for a field it does not name that a read after it shows otherwise than
 * the known state (a PATCH's answer): the case is brought to the base again and read. When that read
 * does not show the base as the PATCH's answer did, the target does not keep what it answers
 * (CASE-PATCH-ROUNDTRIP judges that): the check cannot judge its own rule (SC_SETUP_NOT_KEPT, not
 * judged). Else each difference is judged like with like: a field the base sets as read after the
 * patch (reads show the base as answers do: just seen), any other against the answer bringing the
 * case back to the base, which leaves those as they were (a write's answer may show a case otherwise
 * than a read: a timestamp's precision, a field it leaves out). Returns the differences that stand,
 * and the case as read after it was brought to the base again. Costs requests only when a check is
 * failing.
 */
async function confirmedDiffs(
  t: CheckApi,
  id: Id,
  base: Patch,
  state: CaseBody,
  read: CaseBody,
  patch: Patch = {},
): Promise<{ diffs: Difference[]; again: CaseBody }> {
  const answered = await knownState(t, id, base);
  const again = await readCase(t.primary, id, `reading case ${id} after bringing it to a known state again`);
  const notKept = inBase(untouchedDiffs(answered, {}, again), true);
  if (notKept.length)
    throw new HarnessError(
      'SC_SETUP_NOT_KEPT',
      `case ${id} read after a PATCH answered 200 does not show what the answer did ` +
        `(${notKept.map((d) => d.field).join(', ')}): the known state this check judges against is not what ` +
        'the case holds',
    );
  const diffs = [
    ...inBase(untouchedDiffs(state, patch, read), true),
    ...inBase(untouchedDiffs(state, patch, answered), false),
  ];
  return { diffs, again };
}

interface Difference {
  field: string;
  expected: unknown;
  received: unknown;
}

/** Fails on differences found in `body` (the answer or read they were found in). */
function report(diffs: Difference[], what: string, body: CaseBody): void {
  if (diffs.length === 0) return;
  const expected = Object.fromEntries(diffs.map((d) => [d.field, d.expected === undefined ? MISSING : d.expected]));
  const received = Object.fromEntries(diffs.map((d) => [d.field, d.received === undefined ? MISSING : d.received]));
  const json = (v: unknown) => (v === undefined ? 'absent' : stringifyJson(v));
  const fields = diffs.map((d) => ({ name: d.field, expected: json(d.expected), received: json(d.received) }));
  fail(`${what}: ${diffs.map((d) => d.field).join(', ')}`, show(expected), show(received), {
    judged: [body],
    expect: { fields },
  });
}

/** The fields the patch names show its values (an optional field set to null may be left out). */
function patchedDiffs(before: CaseBody, patch: Patch, after: CaseBody): Difference[] {
  const diffs: Difference[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (field in after) {
      if (!deepEqual(after[field], value)) diffs.push({ field, expected: value, received: after[field] });
    } else if (!(OPTIONAL_IN_READ.has(field) && (value === null || !(field in before)))) {
      diffs.push({ field, expected: value, received: undefined });
    }
  }
  return diffs;
}

/**
 * Every field the patch does not name keeps its value (updated_at aside; origin_url, the alias
 * of external_id, follows it and is judged by CASE-ORIGIN-URL-ALIAS).
 */
function untouchedDiffs(before: CaseBody, patch: Patch, after: CaseBody): Difference[] {
  const skip = new Set<string>([
    ...Object.keys(patch),
    'updated_at',
    ...('external_id' in patch ? ['origin_url'] : []),
  ]);
  const diffs: Difference[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    // Fields the interface does not define (a version, an etag) may change on any write.
    if (skip.has(field) || !CASE_FIELDS.has(field)) continue;
    if (deepEqual(stableValue(field, before[field]), stableValue(field, after[field]))) continue;
    diffs.push({ field, expected: before[field], received: after[field] });
  }
  return diffs;
}

/**
 * Values of the wrong JSON type that a lenient server may coerce (decision of
 * CASE-PATCH-INVALID-REJECTED): a numeric string or a boolean for the integer delete_after
 * (DRF and pydantic coerce them; form bodies carry integers as text), a number for a string
 * field (DRF's CharField takes it), a string of JSON object text for metadata, a scalar for
 * sync_platforms (typed both as an object and as a list: too loose to require a rejection).
 * Returns what it is, or undefined when a rejection is required.
 */
function coercible(b: InvalidCasePatch): string | undefined {
  const v = b.patch[b.field];
  if (b.field === 'delete_after' && (typeof v === 'string' || typeof v === 'boolean'))
    return `a ${typeof v === 'string' ? 'numeric string' : 'boolean'} for delete_after`;
  if ((b.field === 'webhook_url' || b.field === 'external_id') && typeof v === 'number')
    return `a number for ${b.field}`;
  if (b.field === 'sync_platforms' && typeof v !== 'object') return 'a scalar for sync_platforms';
  if (b.field === 'metadata' && typeof v === 'string') {
    try {
      const parsed: unknown = parseJson(v);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
        return 'a string of JSON object text for metadata';
    } catch {
      // not JSON text: a plain string, which no reading makes an object
    }
  }
  return undefined;
}

/** One example of each kind of defect, each with valid fields beside it (the atomicity probe). */
function corpus(prefix: string): InvalidCasePatch[] {
  const { deleteAfterMin: MIN, deleteAfterMax: MAX } = LIMITS;
  const beside: Patch = { webhook_url: 'https://example.com/screenconf/beside', metadata: { screenconf: 'beside' } };
  const besideUrl: Patch = {
    delete_after: 7,
    sync_platforms: [{ domain: 'crm.example.com', id: 'beside' }],
    external_id: `${prefix}beside`,
  };
  const item = (
    field: InvalidCasePatch['field'],
    reason: InvalidCasePatch['reason'],
    value: unknown,
    valid: Patch = beside,
  ): InvalidCasePatch => {
    const { [field]: _dropped, ...others } = valid;
    return { field, reason, patch: { ...others, [field]: value } };
  };
  const pad = (n: number) => prefix + 'x'.repeat(n - prefix.length);
  return [
    item('webhook_url', 'too-long-by-one', httpUrlOfLength(LIMITS.webhookUrlMaxLength + 1), besideUrl),
    item('webhook_url', 'too-long', httpUrlOfLength(2048), besideUrl),
    item('webhook_url', 'wrong-type', false, besideUrl),
    item('webhook_url', 'wrong-type', ['https://example.com/hook'], besideUrl),
    item('webhook_url', 'wrong-type', 42, besideUrl),
    item('delete_after', 'out-of-range', MAX + 1),
    item('delete_after', 'out-of-range', MIN - 1),
    item('delete_after', 'non-integer', 1.5),
    item('delete_after', 'null-not-allowed', null),
    item('delete_after', 'wrong-type', {}),
    item('delete_after', 'numeric-string', '5'),
    item('metadata', 'metadata-array', [{ a: 1 }], besideUrl),
    item('metadata', 'metadata-scalar', 5, besideUrl),
    item('metadata', 'metadata-scalar', 'x', besideUrl),
    item('metadata', 'metadata-scalar', '{}', besideUrl),
    item('sync_platforms', 'wrong-type', 'salesforce.com'),
    item('external_id', 'too-long-by-one', pad(LIMITS.caseExternalIdMaxLength + 1)),
    item('external_id', 'wrong-type', { id: 'x' }),
    item('external_id', 'wrong-type', 123),
  ];
}

function describeInvalid(b: InvalidCasePatch, id: Id): string {
  return `PATCH with ${b.field} ${b.reason} (${show(b.patch[b.field]).slice(0, 80)}) beside ${
    Object.keys(b.patch)
      .filter((k) => k !== b.field)
      .join(', ') || 'no other field'
  }, on case ${id}`;
}

function isSuccess(res: ReceivedResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

/**
 * The case every check of the file PATCHes: each brings it to the state it judges against (or, for
 * the rejection check, judges the answer only), so what a check before it left cannot decide it.
 */
let shared: Promise<CaseBody> | undefined;
function propertyCase(t: CheckApi): Promise<CaseBody> {
  shared ??= t.primary.provision.createCase().catch((err: unknown) => {
    shared = undefined; // a re-run makes it again
    throw err;
  });
  return shared;
}

/** The corpus both invalid-patch checks send (one prefix for the file, so the same bodies). */
let corpusPrefix: string | undefined;
function sharedCorpus(t: CheckApi): InvalidCasePatch[] {
  corpusPrefix ??= `${t.primary.provision.externalId('corpus')}-`;
  return corpus(corpusPrefix);
}

/**
 * The answers to the corpus's PATCHes as the atomicity check sent them, by body: the rejection
 * check judges the same answer (its status, what it shows) rather than send the same PATCH again.
 * Each is judged once: a re-run of that check (a replay after a failure, or after any error) sends afresh.
 */
const corpusAnswers = new Map<string, ReceivedResponse>();

describe('PATCH /api/cases/{id}/ over generated patches', () => {
  check(
    'any valid patch gives the known state with the patch applied and every other field unchanged',
    ['CASE-PATCH-PARTIAL'],
    async (t) => {
      const c = await propertyCase(t);
      const prefix = `${t.primary.provision.externalId('partial')}-`;
      const input = fc.record({ base: baseValues, patch: validCasePatch({ externalIdPrefix: prefix }) });
      await property(
        t,
        'case-properties: valid patch applied, nothing else changed',
        input,
        async ({ base, patch }) => {
          const state = await knownState(t, c.id, base);
          const what = `PATCH ${describePatch(patch)} on case ${c.id}`;
          const answered = await patchOk(t, c.id, patch, what);
          report(
            [...patchedDiffs(state, patch, answered), ...untouchedDiffs(state, patch, answered)],
            `the answer to ${what}, against the state before it with the patch applied`,
            answered,
          );
          const read = await readCase(t.primary, c.id);
          // A read and an answer: a difference is confirmed like with like before it is blamed.
          let untouched = untouchedDiffs(state, patch, read);
          if (untouched.length) ({ diffs: untouched } = await confirmedDiffs(t, c.id, base, state, read, patch));
          report([...patchedDiffs(state, patch, read), ...untouched], `case ${c.id} read after ${what}`, read);
        },
      );
    },
  );

  check('any subset of webhook_url, metadata and sync_platforms accepts null', ['CASE-PATCH-NULLABLE'], async (t) => {
    const c = await propertyCase(t);
    const input = fc.record({ base: baseValues, patch: validCasePatch({ fields: NULLABLE, nullRate: 1 }) });
    await property(
      t,
      'case-properties: nullable fields accept null',
      input,
      async ({ base, patch }) => {
        const state = await knownState(t, c.id, base);
        const what = `PATCH ${describePatch(patch)} on case ${c.id}`;
        const answered = await patchOk(t, c.id, patch, what);
        report(patchedDiffs(state, patch, answered), `the answer to ${what}`, answered);
        const read = await readCase(t.primary, c.id);
        report(patchedDiffs(state, patch, read), `case ${c.id} read after ${what}`, read);
      },
      { scale: 0.4 },
    );
  });

  check(
    'a rejected patch changes nothing, not even the valid fields beside the invalid one',
    ['CASE-PATCH-INVALID-ATOMIC'],
    async (t) => {
      const c = await propertyCase(t);
      const prefix = `${t.primary.provision.externalId('atomic')}-`;
      // The base the case was last brought to and the case as read back after a rejected patch
      // left it unchanged: the next patch on the same base (the corpus's) starts from that read.
      // Taken away while a patch is judged, so an accepted or failing one leaves the next a PATCH.
      let unchanged: { base: Patch; state: CaseBody } | undefined;
      const judge = async (base: Patch, b: InvalidCasePatch) => {
        // A read (the read after a rejected patch on the same base), or a PATCH's answer.
        const read0 = unchanged && deepEqual(unchanged.base, base) ? unchanged.state : undefined;
        const state = read0 ?? (await knownState(t, c.id, base));
        unchanged = undefined;
        const res = await t.primary.api.patchCase(c.id, b.patch);
        if (corpusKeys.has(stringifyJson(b.patch))) corpusAnswers.set(stringifyJson(b.patch), res);
        // An accepted patch is judged by CASE-PATCH-INVALID-REJECTED (or recorded as a coercion).
        if (isSuccess(res)) return;
        const read = await readCase(t.primary, c.id);
        let [diffs, now] = [untouchedDiffs(state, {}, read), read];
        // Two reads differ only where the patch changed the case; a read and an answer are confirmed.
        if (diffs.length && !read0) ({ diffs, again: now } = await confirmedDiffs(t, c.id, base, state, read));
        report(
          diffs,
          `case ${c.id} read after the rejected ${describeInvalid(b, c.id)} (HTTP ${res.status}); fields changed`,
          read,
        );
        unchanged = { base, state: now };
      };
      const input = fc.record({ base: baseValues, invalid: invalidCasePatch({ externalIdPrefix: prefix }) });
      const shared = sharedCorpus(t);
      const corpusKeys = new Set(shared.map((b) => stringifyJson(b.patch)));
      const examples = shared.map((invalid) => ({ base: FIXED_BASE, invalid }));
      await property(
        t,
        'case-properties: rejected patch changes nothing',
        input,
        ({ base, invalid }) => judge(base, invalid),
        { examples },
      );
    },
  );

  check(
    'an invalid patch is rejected with a 4xx',
    ['CASE-PATCH-INVALID-REJECTED', 'CASE-PATCH-COERCION'],
    async (t) => {
      const c = await propertyCase(t);
      const prefix = `${t.primary.provision.externalId('invalid')}-`;
      const coercions = new Map<string, Set<string>>();
      const judge = async (b: InvalidCasePatch) => {
        // The atomicity check (before this one) sent the corpus to the same case: its answers are judged.
        // Each answer once: a re-run of this check (after any error) sends afresh.
        const key = stringifyJson(b.patch);
        const sent = t.replay ? undefined : corpusAnswers.get(key);
        corpusAnswers.delete(key);
        const res = sent ?? (await t.primary.api.patchCase(c.id, b.patch));
        const what = describeInvalid(b, c.id);
        const lenient = coercible(b);
        if (lenient === undefined) return expectRejected(res, what);
        if (res.status >= 500)
          fail(what, 'a 2xx (coerced) or a 4xx (rejected); never a 5xx', excerpt(res), {
            judged: [res],
            expect: { status: ['2xx', '4xx'] },
          });
        const shown =
          isSuccess(res) && res.json !== null && typeof res.json === 'object'
            ? (res.json as Patch)[b.field]
            : undefined;
        const outcome = isSuccess(res)
          ? `accepted (HTTP ${res.status}, shown as ${show(shown).slice(0, 60)})`
          : `rejected (HTTP ${res.status})`;
        const seen = coercions.get(lenient) ?? new Set<string>();
        seen.add(`${show(b.patch[b.field]).slice(0, 40)} ${outcome}`);
        coercions.set(lenient, seen);
      };
      try {
        // Coercible values first: they are recorded even when a later value breaks the requirement.
        const ordered = sharedCorpus(t).sort(
          (a, b) => Number(coercible(b) !== undefined) - Number(coercible(a) !== undefined),
        );
        // The corpus runs first, as examples: a value of it that breaks the rule is shrunk and
        // reported with a seed like a generated one.
        await property(
          t,
          'case-properties: invalid patch rejected',
          invalidCasePatch({ externalIdPrefix: prefix }),
          judge,
          { examples: ordered },
        );
      } finally {
        for (const [kind, seen] of coercions)
          t.observe('CASE-PATCH-COERCION', `${kind}: ${[...seen].slice(0, 4).join('; ')}`);
      }
    },
  );
});
