/** Variants of representations: fields beyond the interface's, order of checks, stored scores, blank enums. */
import { randomUUID } from 'node:crypto';
import { compareIds } from '../../spec/index.ts';
import { isObject } from '../handlers/bulk.ts';
import { variant } from '../switches.ts';

/** A self link, as HAL has it. */
const links = (path: string) => ({ self: { href: path } });

export const READ_VARIANTS = [
  variant(
    'read.extra-fields',
    'every representation carries fields the interface does not list: version, etag and _links on cases, ' +
      '_links on checks and customers, scope in token responses, request_id in bulk answers, event in webhooks',
    (base) => ({
      caseView(c) {
        const version = Date.parse(c.updated_at);
        return { ...base.caseView(c), version, etag: `W/"${c.id}-${version}"`, _links: links(`/api/cases/${c.id}/`) };
      },
      checkView: (k) => ({ ...base.checkView(k), _links: links(`/api/checks/${k.id}/`) }),
      customerView: (cu) => ({ ...base.customerView(cu), _links: links(`/api/customers/${cu.id}/`) }),
      tokenBody: (token, ttl) => ({ ...base.tokenBody(token, ttl), scope: 'cases customers checks' }),
      bulkAnswer(op, results) {
        const answer = base.bulkAnswer(op, results);
        return isObject(answer.body) ? { ...answer, body: { ...answer.body, request_id: randomUUID() } } : answer;
      },
      webhookBody: (c) => ({ ...base.webhookBody(c), event: 'case.completed' }),
    }),
  ),
  variant('read.checks-descending', 'a case lists its checks newest first (descending id)', (base) => ({
    checkOrder: (checks) => [...base.checkOrder(checks)].sort((a, b) => compareIds(b.id, a.id)),
  })),
  variant(
    'read.risk-2dp',
    'risk scores are stored with 2 decimal places (0.457 becomes 0.46); ' +
      "a case's risk_score is the maximum of the stored ones",
    (base) => ({ storedRiskScore: (score) => Math.round(base.storedRiskScore(score) * 100) / 100 }),
  ),
  variant('read.customer-type-blank', 'a customer without a type shows customer_type "", not null', (base) => ({
    customerView: (cu) => ({ ...base.customerView(cu), customer_type: cu.customer_type ?? '' }),
  })),
];
