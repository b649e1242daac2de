/** Faults of the case read representation (requirements CASE-ORIGIN-URL-ALIAS, READ-*). */
import type { Id } from '../../spec/index.ts';
import { fault } from '../switches.ts';

export const READ_FAULTS = [
  fault('read.origin-url-differs', 'origin_url holds a URL instead of the external_id', (base) => ({
    caseView: (c) => ({ ...base.caseView(c), origin_url: `https://origin.invalid/${c.external_id}` }),
  })),
  fault(
    'read.origin-url-stale',
    'GET of a case shows in origin_url the external_id it was created with (a column written at creation only); ' +
      'write answers, built from the record, show the current one',
    (base) => {
      const atCreation = new Map<string, unknown>();
      const key = (org: string, id: Id) => `${org} ${id}`;
      return {
        caseView(c) {
          const view = base.caseView(c);
          if (!atCreation.has(key(c.org, c.id))) atCreation.set(key(c.org, c.id), view.origin_url);
          return view;
        },
        readCase(org, id) {
          const answer = base.readCase(org, id);
          const body = answer.body as Record<string, unknown>;
          return answer.status === 200 && atCreation.has(key(org, id))
            ? { ...answer, body: { ...body, origin_url: atCreation.get(key(org, id)) } }
            : answer;
        },
      };
    },
  ),
  fault('read.missing-updated-at', 'case reads leave out updated_at', (base) => ({
    caseView(c) {
      const view = base.caseView(c);
      delete view.updated_at;
      return view;
    },
  })),
  fault('read.risk-average', "a case's risk_score is the average of its checks' scores, not the maximum", (base) => ({
    caseRiskScore: (scores) =>
      scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : base.caseRiskScore(scores),
  })),
  fault('read.risk-out-of-range', 'decided checks carry risk scores as percentages (0 to 100), not 0.0 to 1.0', () => ({
    storedRiskScore: (score) => Math.round(score * 1000) / 10,
  })),
  fault('read.undecided-pending', "checks not yet decided show outcome 'PENDING' instead of null", (base) => ({
    checkView: (k) => ({ ...base.checkView(k), outcome: k.outcome ?? 'PENDING' }),
  })),
  fault('read.no-input-details', "case reads show every check's input_details as null", (base) => ({
    checkView: (k) => ({ ...base.checkView(k), input_details: null }),
  })),
  fault('read.bad-enum', "decided checks show the status 'DONE', which the interface does not list", (base) => ({
    checkView: (k) => ({ ...base.checkView(k), ...(k.status === 'DECIDED' ? { status: 'DONE' } : {}) }),
  })),
];
