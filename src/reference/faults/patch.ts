/** Faults of PATCH /api/cases/{id}/ (requirements CASE-PATCH-*, CASE-EXTERNAL-ID-STRING). */
import { z } from 'zod';
import { isId, JsonObject } from '../../spec/index.ts';
import { AnswerNow, HttpError } from '../http.ts';
import { applyPatch } from '../handlers/case-write.ts';
import { fault } from '../switches.ts';
import type { CaseRecord } from '../store.ts';
import type { CasePatchInput } from '../validation.ts';

/** The patch without the fields named, as if they had not been sent. */
function without(patch: CasePatchInput, keys: (keyof CasePatchInput)[]): CasePatchInput {
  const out = { ...patch };
  for (const k of keys) delete out[k];
  return out;
}

/** The case fields a careless serializer writes from read-only fields sent (origin_url as external_id's alias). */
const WRITABLE_BY_MISTAKE = ['note', 'outcome', 'rfi', 'is_started', 'is_complete', 'failed', 'created_at'] as const;

/** Writes read-only fields sent into the case, as a server that forgot to mark them read-only does. */
export function writeReadOnly(c: CaseRecord, fields: Record<string, unknown>): void {
  const target = c as unknown as Record<string, unknown>;
  for (const f of WRITABLE_BY_MISTAKE) if (Object.hasOwn(fields, f)) target[f] = fields[f];
  if (typeof fields.origin_url === 'string') c.external_id = fields.origin_url;
}

export const PATCH_FAULTS = [
  fault(
    'patch.read-only-writable',
    'PATCH writes the read-only fields it is sent: note, outcome, rfi, is_started, is_complete, failed, ' +
      'created_at, and origin_url (into external_id)',
    (base) => ({
      readOnlySent: (c, fields, op) => (op === 'patch' ? writeReadOnly(c, fields) : base.readOnlySent(c, fields, op)),
    }),
  ),
  fault(
    'patch.body-id-overwrites',
    "PATCH copies the case onto the record its body's id names (body copied onto the entity, then saved): that " +
      "case of the organisation gets the PATCHed case's webhook_url, metadata, sync_platforms and delete_after",
    (base, env) => ({
      readOnlySent(c, fields, op) {
        const other = op === 'patch' && isId(fields.id) ? env.store.getCase(c.org, fields.id) : undefined;
        if (other && other !== c) {
          const { webhook_url, metadata, sync_platforms, delete_after } = c;
          Object.assign(other, { webhook_url, metadata, sync_platforms, delete_after, note: 'overwritten' });
        }
        base.readOnlySent(c, fields, op);
      },
    }),
  ),
  fault(
    'patch.replace-not-merge',
    'PATCH resets every updatable field it was not given to its default (replace instead of merge)',
    (base) => ({
      applyCaseFields(c, patch) {
        Object.assign(c, { webhook_url: null, metadata: null, sync_platforms: null, delete_after: -1 });
        base.applyCaseFields(c, patch);
      },
    }),
  ),
  fault(
    'patch.answer-not-kept',
    'PATCH answers 200 with the case as patched but keeps none of it (the answer built before a transaction ' +
      'that then rolled back)',
    (base) => {
      const kept = new WeakMap<CaseRecord, Partial<CaseRecord>>();
      return {
        async patchWrite(org, c, patch) {
          const { webhook_url, delete_after, metadata, sync_platforms, external_id } = c;
          await base.patchWrite(org, c, patch);
          kept.set(c, { webhook_url, delete_after, metadata, sync_platforms, external_id });
        },
        caseView(c) {
          const view = base.caseView(c);
          const before = kept.get(c);
          if (before) {
            Object.assign(c, before);
            kept.delete(c);
          }
          return view;
        },
      };
    },
  ),
  fault('patch.ignore-webhook-url', 'PATCH answers 200 but keeps the old webhook_url', (base) => ({
    applyCaseFields: (c, patch) => base.applyCaseFields(c, without(patch, ['webhook_url'])),
  })),
  fault('patch.unknown-id-500', 'PATCH of an unknown case id answers 500', (base) => ({
    findCase(org, id, op) {
      try {
        return base.findCase(org, id, op);
      } catch (err) {
        if (op === 'patch' && err instanceof HttpError)
          throw new AnswerNow({ status: 500, body: { error: 'server_error' } });
        throw err;
      }
    },
  })),
  fault(
    'patch.null-ignored',
    'PATCH treats null as not provided: webhook_url, metadata and sync_platforms set to null keep their value',
    (base) => ({
      applyCaseFields(c, patch) {
        const nulls = (['webhook_url', 'metadata', 'sync_platforms'] as const).filter((k) => patch[k] === null);
        base.applyCaseFields(c, without(patch, nulls));
      },
    }),
  ),
  fault(
    'patch.external-id-null-stored',
    'PATCH {external_id: null} stores null: the case then shows external_id null, not a string',
    (base) => ({
      applyCaseFields(c, patch) {
        base.applyCaseFields(c, patch);
        if (patch.external_id === null) c.external_id = null as unknown as string;
      },
    }),
  ),
  fault('patch.non-atomic', 'an invalid PATCH applies its valid fields before it is rejected', (base, env) => ({
    parsePatch(org, c, body) {
      const rule = env.rules.casePatch;
      if (body !== null && typeof body === 'object' && !Array.isArray(body) && !rule.safeParse(body).success) {
        const shape: Record<string, z.ZodType> = rule.shape;
        const valid = Object.fromEntries(
          Object.entries(body).filter(([k, v]) => Object.hasOwn(shape, k) && shape[k]!.safeParse(v).success),
        );
        applyPatch(env, org, c, rule.parse(valid), env.b.uniqueChecked('patch'));
      }
      return base.parsePatch(org, c, body);
    },
  })),
  fault('patch.accept-invalid-metadata', 'PATCH accepts a JSON array as metadata', () => ({
    metadata: z.union([JsonObject, z.array(z.unknown())]) as unknown as typeof JsonObject,
  })),
];
