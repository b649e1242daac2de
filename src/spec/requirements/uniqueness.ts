import { requirements } from '../requirement.ts';

const SOURCE =
  'interface § Endpoints › PATCH /api/cases/{id}/ (external_id: "must be unique per organisation among non-archived ' +
  'cases"); § Errors 2';

export const UNIQUENESS_REQUIREMENTS = requirements([
  {
    id: 'UNIQUE-EXTERNAL-ID-REJECTED',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'A PATCH giving a case the external_id another case of the organisation holds is rejected with a 4xx, and ' +
      'neither case changes.',
    source: SOURCE,
  },
  {
    id: 'UNIQUE-CONFLICT-STATUS',
    level: 'OBSERVE',
    area: 'uniqueness',
    statement: 'The status and body with which the server refuses an external_id another case holds.',
    source:
      'interface § Errors ("Error status codes and error body shape, including the response to a violated ' +
      'uniqueness rule: not shown")',
  },
  {
    id: 'UNIQUE-OWN-VALUE',
    level: 'MUST',
    area: 'uniqueness',
    statement: 'A PATCH re-sending the external_id the case already holds is accepted (2xx) and the case keeps it.',
    source: SOURCE,
    decision: 'A value is unique when no other case holds it: the case holding it is not a conflict with itself.',
  },
  {
    id: 'UNIQUE-FREED-VALUE',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'Once a case has been given a new external_id, its former value is free: a PATCH giving it to another case is ' +
      'accepted and that case shows it.',
    source: SOURCE,
    decision: 'Uniqueness is a rule on the values cases hold now; a value no case holds any more is not taken.',
  },
  {
    id: 'UNIQUE-DELETED-VALUE',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'Once a case has been deleted, its external_id is free: a PATCH giving it to another case is accepted and ' +
      'that case shows it.',
    source: `${SOURCE}; § Endpoints › DELETE /api/cases/{id}/ ("Deletes the specified case")`,
    decision:
      'The value must be unique "among non-archived cases", and DELETE "deletes the specified case": a deleted case ' +
      'is no case, so it holds no value. Were deletion an archiving, an archived case is outside the rule too. A ' +
      'soft delete that keeps the row in the unique index breaks it. Not judged when DELETE itself is refused ' +
      '(CASE-DELETE-REMOVES judges that).',
  },
  {
    id: 'UNIQUE-EXACT-MATCH',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'external_ids that differ only in letter case or only in accents are different values: while a case holds ' +
      'Abc-… (café-…), a PATCH giving another case abc-… (cafe-…) is accepted and both cases show their own value.',
    source: `${SOURCE}; § Resources › Case (external_id: string)`,
    decision:
      'external_id is a string identifier from the source system, and the interface names no case or accent ' +
      'folding: two strings that differ are two values. A unique index under a case- or accent-insensitive ' +
      'collation (MySQL utf8mb4_general_ci, SQL Server CI_AI) breaks this. Only letter case and accents are ' +
      'varied: surrounding whitespace and Unicode normalisation forms are never the difference, since storing ' +
      'values trimmed or NFC-normalised is a legal choice.',
  },
  {
    id: 'UNIQUE-PER-ORGANISATION',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'Another organisation may give one of its cases an external_id a case of ours holds: its PATCH is accepted ' +
      'and our case is unchanged.',
    source: SOURCE,
    decision:
      'The rule is scoped to the organisation, so a value held only in another organisation is free; refusing it ' +
      "refuses a valid PATCH (and discloses the other organisation's data). Needs peer credentials.",
  },
  {
    id: 'UNIQUE-BULK',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      "A bulk case update never leaves two cases with one external_id: an item giving a case another case's value, " +
      'or the value an earlier item of the batch gave, is not applied, and the cases it names keep their values; ' +
      'the conflict fails that item only: the valid items before and after it are applied.',
    source: `${SOURCE}; § Endpoints › POST /api/cases/bulk-update/ (failures are reported per item)`,
    decision:
      'Two items of one batch giving the same new value to two cases: at most one may hold it afterwards; which one ' +
      'is not judged. A conflict is a failing item like any other (§ Errors 1): a server whose batch transaction ' +
      'aborts at the conflict, losing the items after it, fails.',
  },
  {
    id: 'UNIQUE-BULK-REPORTED',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      "The answer to a bulk case update reports an item giving a case another case's external_id as failed, and a " +
      'valid item beside it not as failed.',
    source: `${SOURCE}; § Endpoints › POST /api/cases/bulk-update/ ("failures are reported per item"); § Errors 1`,
    decision:
      "The report's shape is not shown: it is read as for BULK-CASES-REPORTED (src/kit/bulk-report.ts, " +
      '--bulk-failures-path).',
  },
  {
    id: 'UNIQUE-RACE',
    level: 'MUST',
    area: 'uniqueness',
    statement:
      'Of several PATCHes released together giving one new external_id to different cases, at most one succeeds, ' +
      'each is answered 2xx or 4xx, and afterwards the value is held by the case whose PATCH succeeded, or by none.',
    source: SOURCE,
    decision:
      'The rule holds whatever the timing, so concurrent requests are no exception. Several rounds, each releasing ' +
      "its PATCHes at once past the run's load limiter (--concurrency would otherwise serialise them): a bounded " +
      'burst. No winner at all (every PATCH refused, e.g. by a lock timeout) leaves the value on no case, which ' +
      'breaks no uniqueness: at most one winner is required, not exactly one.',
  },
]);
