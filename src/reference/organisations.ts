/** The organisations (tenants) a reference server serves: each an OAuth client and an API key. */
import { randomBytes, randomUUID } from 'node:crypto';

export interface TenantCredentials {
  name: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

/** An organisation with freshly generated credentials. */
export function newOrganisation(name: string): TenantCredentials {
  return {
    name,
    clientId: randomUUID(),
    clientSecret: `cs_${randomBytes(24).toString('base64url')}`,
    apiKey: `sk_${randomBytes(24).toString('base64url')}`,
  };
}
