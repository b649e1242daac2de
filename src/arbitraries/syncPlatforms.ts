import fc from 'fast-check';
import { checkInteger, checkKeys } from './constraints.ts';
import { seeded } from './faker.ts';
import { unicodeText } from './unicodeText.ts';

export interface SyncPlatformsConstraints {
  /** Most platform references. Default 5. */
  maxLength?: number;
}

/** A type alias, not an interface: it must fit the schema's loose object (an index signature). */
export type SyncPlatform = { domain: string; id: string };

// Only references: nothing calls these domains, so real-looking ones are harmless.
const domain = fc.oneof(
  seeded((f) => f.internet.domainName()),
  fc.constantFrom('salesforce.com', 'hubspot.com', 'zendesk.com', 'app.example.com'),
);

/** Ids as other platforms shape them: UUIDs, numbers, Salesforce-style 18 characters, free text. */
const id = fc.oneof(
  fc.uuid(),
  fc.nat().map(String),
  fc.stringMatching(/^[A-Za-z0-9]{18}$/),
  unicodeText({ minLength: 1, maxLength: 40 }),
);

/** sync_platforms lists: 0..maxLength objects with string fields domain and id. */
export function syncPlatforms(constraints: SyncPlatformsConstraints = {}): fc.Arbitrary<SyncPlatform[]> {
  const fn = 'syncPlatforms';
  checkKeys(fn, constraints, ['maxLength']);
  const maxLength = checkInteger(fn, 'maxLength', constraints.maxLength ?? 5, 0, 1000);
  return fc.array(fc.record({ domain, id }), { maxLength });
}
