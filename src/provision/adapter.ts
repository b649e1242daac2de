/**
 * A provisioning adapter: how a target that does not follow screenconf's REST conventions for
 * creating cases and starting processing (which the interface does not show) gets them anyway.
 * The user names a module with --provisioner; its default export gives other paths, or
 * functions that do the work with the run's own HTTP client (so limits, redaction and the
 * transcript still apply). See fixtures/provisioner.example.mjs.
 */
import { pathToFileURL } from 'node:url';
import { isTypeScriptFile, typeScriptLoadable } from '../base/typescript-loader.ts';
import { HarnessError } from '../errors.ts';
import type { Id } from '../spec/index.ts';

/** What an adapter's functions get: requests to the target as this organisation. */
export interface AdapterContext {
  baseUrl: string;
  /** 'a' for the primary credentials, 'b' for the peer organisation. */
  org: string;
  /** Sends a request with the organisation's credentials; `path` is relative to the base URL. */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<AdapterResponse>;
}

export interface AdapterResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** The body screenconf would POST to create a case (DESIGN "Provisioning conventions"). */
export interface CreateCaseBody {
  external_id: string;
  customer: { full_name: string; customer_type?: string | null; external_id?: string | null };
  checks: { check_type?: string | null; input_details?: Record<string, unknown> | null }[];
  webhook_url?: string | null;
  metadata?: Record<string, unknown> | null;
  delete_after?: number;
  sync_platforms?: unknown;
}

export interface ProvisionAdapter {
  /** Paths with `{id}` for the case id; each replaces one convention. */
  paths?: { createCase?: string; readCase?: string; startCase?: string };
  /**
   * Creates a case and resolves to its read representation (an object with an integer id: a bigint when it is
   * beyond 2^53, as `ctx.request` reads one).
   */
  createCase?(ctx: AdapterContext, body: CreateCaseBody): Promise<Record<string, unknown>>;
  /** Starts processing of the case; resolves once the target accepted it. */
  startCase?(ctx: AdapterContext, id: Id): Promise<void>;
}

const PATH_KEYS = ['createCase', 'readCase', 'startCase'] as const;
const FUNCTION_KEYS = ['createCase', 'startCase'] as const;

function invalid(file: string, message: string): never {
  throw new HarnessError('SC_PROVISIONER', `provisioner ${file}: ${message}`);
}

/** Checks the shape of a module's default export; a bad one is a config error naming the part. */
export function checkAdapter(file: string, value: unknown): ProvisionAdapter {
  if (value === null || typeof value !== 'object')
    invalid(file, 'its default export must be an object ({ paths?, createCase?, startCase? })');
  const known = new Set<string>(['paths', ...FUNCTION_KEYS]);
  const extra = Object.keys(value).filter((k) => !known.has(k));
  if (extra.length) invalid(file, `unknown export member "${extra[0]}" (known: paths, createCase, startCase)`);
  const adapter = value as Record<string, unknown>;
  for (const k of FUNCTION_KEYS)
    if (adapter[k] !== undefined && typeof adapter[k] !== 'function') invalid(file, `${k} must be a function`);
  if (adapter.paths !== undefined) {
    const paths = adapter.paths;
    if (paths === null || typeof paths !== 'object') invalid(file, 'paths must be an object');
    for (const [k, v] of Object.entries(paths)) {
      if (!(PATH_KEYS as readonly string[]).includes(k))
        invalid(file, `unknown path "${k}" (known: ${PATH_KEYS.join(', ')})`);
      if (typeof v !== 'string' || !v.startsWith('/')) invalid(file, `paths.${k} must be a path starting with /`);
      if (k !== 'createCase' && !v.includes('{id}')) invalid(file, `paths.${k} must hold {id} where the case id goes`);
    }
  }
  return adapter as ProvisionAdapter;
}

/** Loads and checks the adapter module at an absolute path (.mjs, .js or .ts). */
export async function loadAdapter(file: string): Promise<ProvisionAdapter> {
  let mod: { default?: unknown };
  if (isTypeScriptFile(file) && !(await typeScriptLoadable()))
    invalid(file, 'is TypeScript: install tsx beside screenconf (npm install --save-dev tsx), or give a .mjs module');
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(file)) invalid(file, 'not found');
    invalid(file, `cannot be loaded: ${String((err as Error).message ?? err).split('\n')[0]}`);
  }
  return checkAdapter(file, mod.default);
}

/** Puts the case id into a path template. */
export function pathFor(template: string, id: Id): string {
  return template.replaceAll('{id}', String(id));
}
