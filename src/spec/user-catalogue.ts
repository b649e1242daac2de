/**
 * A user's own requirements (`run --suites-dir DIR`, DIR/catalogue.json or --user-catalogue FILE): the
 * shape of their catalogue file, and the entries it gives, marked as theirs (owner "user", area "user").
 * They are judged beside screenconf's own catalogue, by the same rules.
 */
import { z } from 'zod';
import { findRequirement } from './catalogue.ts';
import type { Requirement } from './requirement.ts';

/** The area of every user requirement, and the owner that marks one as the user's. */
export const USER_AREA = 'user';
export const USER_OWNER = 'user';
export const USER_AREA_TITLE = 'Your own requirements';

/** A requirement of the user's catalogue, as judged and reported. */
export interface UserRequirement extends Omit<Requirement, 'area'> {
  readonly area: typeof USER_AREA;
  readonly owner: typeof USER_OWNER;
}

/** An entry of screenconf's catalogue or of the user's: what judging needs. */
export type AnyRequirement = Requirement | UserRequirement;

/** An id: letters, digits and hyphens, beginning with a letter (as screenconf's are). */
const ID_PATTERN = /^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*$/;

const UserEntrySchema = z.strictObject({
  id: z.string().regex(ID_PATTERN, { message: 'must be letters, digits and hyphens, beginning with a letter' }),
  level: z.enum(['MUST', 'SHOULD', 'OBSERVE']),
  statement: z.string().trim().min(1, { message: 'must say what a conforming server does' }),
  source: z.string().trim().min(1, { message: 'must name where the requirement comes from' }),
  decision: z.string().trim().min(1).optional(),
});

/** The file: a JSON array of entries, or `{ "requirements": [ … ] }`. */
export const UserCatalogueSchema = z.union([
  z.array(UserEntrySchema),
  z.strictObject({ requirements: z.array(UserEntrySchema) }),
]);

/** A zod issue as the rule an entry breaks, named by its place: "entry 2 field level: must be one of …". */
function issueText(issue: z.core.$ZodIssue): string {
  const [index, ...field] = issue.path;
  const where = index === undefined ? '' : `entry ${String(index)}${field.length ? ` field ${field.join('.')}` : ''}: `;
  const rule = /received undefined$/.test(issue.message)
    ? 'is missing'
    : issue.code === 'invalid_value'
      ? `must be one of ${issue.values.join(', ')}`
      : issue.code === 'unrecognized_keys'
        ? `has a field it does not know: ${issue.keys.join(', ')}`
        : issue.message;
  return `${where}${rule}`;
}

/**
 * The user's requirements from the parsed JSON of their catalogue file, or the problem with it in one line
 * (a broken rule, a duplicate id, an id screenconf's catalogue already has).
 */
export function parseUserCatalogue(json: unknown): { requirements: UserRequirement[] } | { problem: string } {
  const list = Array.isArray(json) ? json : (json as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(list)) return { problem: 'must be a JSON array of requirements (or {"requirements": [...]})' };
  const parsed = z.array(UserEntrySchema).safeParse(list);
  if (!parsed.success) return { problem: issueText(parsed.error.issues[0]!) };
  const entries = parsed.data;
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.id)) return { problem: `requirement id ${e.id} is given twice` };
    if (findRequirement(e.id)) return { problem: `requirement id ${e.id} is one of screenconf's (screenconf list)` };
    seen.add(e.id);
  }
  return { requirements: entries.map(userRequirement) };
}

/** An entry of the user's catalogue (or a report's result of one) as the user's requirement. */
export function userRequirement(
  e: Pick<Requirement, 'id' | 'level' | 'statement' | 'source' | 'decision'>,
): UserRequirement {
  return {
    id: e.id,
    level: e.level,
    area: USER_AREA,
    owner: USER_OWNER,
    statement: e.statement,
    source: e.source,
    ...(e.decision ? { decision: e.decision } : {}),
  };
}

/** Whether a requirement is the user's own. */
export function isUserRequirement(r: { owner?: string | undefined }): boolean {
  return r.owner === USER_OWNER;
}
