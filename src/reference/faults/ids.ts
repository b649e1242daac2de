/** Faults of case ids (requirement CASE-ID-NOT-REUSED): a deleted case's id given to a case created later. */
import { compareIds, type Id, idPlus } from '../../spec/index.ts';
import { fault } from '../switches.ts';

export const ID_FAULTS = [
  fault(
    'ids.reuse-freed',
    "a deleted case's id is given to the next case created, the lowest freed id first, as a store that recycles " +
      'freed ids does',
    (base) => {
      const freed: Id[] = [];
      return {
        deleteCase(c) {
          base.deleteCase(c);
          freed.push(c.id);
          freed.sort(compareIds);
        },
        caseIdFor: (next) => freed.shift() ?? base.caseIdFor(next),
      };
    },
  ),
  fault(
    'ids.reuse-highest',
    'a new case gets the id one past the highest case id in use, as SQLite gives rowids without AUTOINCREMENT: ' +
      'deleting the newest case gives its id to the next one',
    (base) => {
      // Every organisation's cases: SQLite's rowid is the table's, whoever the row belongs to.
      const live = new Set<Id>();
      return {
        caseCreated(c) {
          base.caseCreated(c);
          live.add(c.id);
        },
        deleteCase(c) {
          base.deleteCase(c);
          live.delete(c.id);
        },
        // One past the highest in use, 1 when there is none (the sequence's next is left unused).
        caseIdFor: () =>
          idPlus(
            [...live].reduce<Id>((a, b) => (compareIds(b, a) > 0 ? b : a), 0),
            1,
          ),
      };
    },
  ),
];
