/**
 * Credentials given to `screenconf serve` (--credentials-in FILE, or SCREENCONF_SERVE_CREDENTIALS
 * holding the JSON itself, for a container): the shape --credentials-out writes,
 * {"organisations": [{"clientId", "clientSecret", "apiKey"}, …]} ("baseUrl" is allowed and
 * ignored). A run that starts the server chooses them and passes the same ones to screenconf.
 * A bad value is named by its place, never echoed: it is a secret.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { HarnessError } from '../errors.ts';
import type { TenantCredentials } from './server.ts';

/** The environment variable holding the credentials JSON. */
export const SERVE_CREDENTIALS_ENV = 'SCREENCONF_SERVE_CREDENTIALS';

/** The credentials file: `serve --credentials-out` writes it; `serve --credentials-in`, `run --credentials` read it. */
export const CredentialsFile = z
  .object({
    baseUrl: z.string().optional(),
    organisations: z
      .array(
        z
          .object({
            clientId: z.uuid({ message: 'must be a UUID' }),
            clientSecret: z.string().min(1, { message: 'must not be empty' }),
            apiKey: z.string().min(1, { message: 'must not be empty' }).optional(),
          })
          .strict(),
      )
      .min(1, { message: 'must list at least one organisation' })
      .max(10, { message: 'must list at most 10 organisations' }),
  })
  .strict();

/** A credentials JSON text as given, checked; `source` names where it came from in messages (SC_USAGE). */
export function readCredentialsJson(text: string, source: string): z.infer<typeof CredentialsFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, which holds secrets: say only that it is not JSON.
    throw new HarnessError(
      'SC_USAGE',
      `${source} is not valid JSON (expected {"organisations": [{"clientId", "clientSecret", "apiKey"}]})`,
    );
  }
  const result = CredentialsFile.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    const what =
      issue.code === 'unrecognized_keys'
        ? `has an unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : issue.message;
    throw new HarnessError('SC_USAGE', `${source}${where ? ` ${where}` : ''} ${what}`);
  }
  return result.data;
}

/**
 * The organisations of a credentials JSON text; `source` names where it came from in messages.
 * An organisation without an apiKey gets a generated one.
 */
export function parseServeCredentials(text: string, source: string): TenantCredentials[] {
  const organisations = readCredentialsJson(text, source).organisations.map((o, i) => ({
    name: `org-${i + 1}`,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    apiKey: o.apiKey ?? `sk_${randomBytes(24).toString('base64url')}`,
  }));
  for (const key of ['clientId', 'apiKey'] as const) {
    const seen = new Set<string>();
    organisations.forEach((o, i) => {
      if (seen.has(o[key]))
        throw new HarnessError(
          'SC_USAGE',
          `${source} organisations[${i}].${key} is the same as an earlier organisation's`,
        );
      seen.add(o[key]);
    });
  }
  return organisations;
}
