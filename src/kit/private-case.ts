/**
 * A case whose values each hold a random token, so that an answer showing a token shows that value: how
 * TENANT-REFUSAL-NO-DATA and AUTH-REFUSAL-NO-DATA judge that a refusal shows none of the case's data (whatever
 * the answer's status and shape; the id the request named may be echoed).
 */
import { randomBytes } from 'node:crypto';
import type { ReceivedResponse } from '../client/transport.ts';
import { excerpt, fail } from './assert.ts';
import type { CaseBody } from './cases.ts';
import type { Organisation } from './context.ts';

export interface PrivateCase {
  case: CaseBody;
  /** Each value given a token: [what it is, the token]. */
  tokens: [string, string][];
}

/**
 * Creates a case whose external_id, webhook_url, metadata and customer name each hold a random token;
 * `extra` adds fields of the creation (checks, say).
 */
export async function privateCase(org: Organisation, extra: Record<string, unknown> = {}): Promise<PrivateCase> {
  const token = () => randomBytes(6).toString('hex');
  const tokens: [string, string][] = [
    ['external_id', token()],
    ['webhook_url', token()],
    ['metadata', token()],
    ['customer full_name', token()],
  ];
  const [e, w, m, n] = tokens.map(([, v]) => v) as [string, string, string, string];
  const created = await org.provision.createCase({
    ...extra,
    external_id: org.provision.externalId(`private-${e}`),
    webhook_url: `https://example.com/screenconf/private-${w}`,
    metadata: { screenconf: `private-${m}` },
    customer: { full_name: `Screenconf Private ${n}` },
  });
  return { case: created, tokens };
}

/** Fails when an answer shows any of a private case's values; `ask` names the request. */
export function expectNoPrivateData(res: ReceivedResponse, tokens: readonly [string, string][], ask: string): void {
  const shown = tokens.filter(([, v]) => res.text.includes(v)).map(([field]) => field);
  if (shown.length)
    fail(
      ask,
      `an answer showing none of the case's values (${tokens.map(([f]) => f).join(', ')})`,
      `the case's ${shown.join(', ')} in ${excerpt(res)}`,
      { judged: [res] },
    );
}
