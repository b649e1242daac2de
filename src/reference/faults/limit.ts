/** Faults of the interface's limits (requirements LIMIT-*). */
import { z } from 'zod';
import { LIMITS } from '../../spec/index.ts';
import { fault } from '../switches.ts';

export const LIMIT_FAULTS = [
  fault('limit.webhook-url-512', 'webhook_url accepts 512 characters (off by one above the limit)', (base) => ({
    limits: { ...base.limits, webhookUrl: base.limits.webhookUrl + 1 },
  })),
  fault('limit.webhook-url-510', 'webhook_url rejects 511 characters (off by one below the limit)', (base) => ({
    limits: { ...base.limits, webhookUrl: base.limits.webhookUrl - 1 },
  })),
  fault('limit.external-id-513', 'case external_id accepts 513 characters', (base) => ({
    limits: { ...base.limits, caseExternalId: base.limits.caseExternalId + 1 },
  })),
  fault('limit.customer-full-name-256', 'bulk customer update accepts a full_name of 256 characters', (base) => ({
    limits: { ...base.limits, customerFullName: base.limits.customerFullName + 1 },
  })),
  fault(
    'limit.customer-external-id-256',
    'bulk customer update accepts a customer external_id of 256 characters',
    (base) => ({ limits: { ...base.limits, customerExternalId: base.limits.customerExternalId + 1 } }),
  ),
  fault('limit.delete-after-int64', 'delete_after accepts any safe integer, beyond the int32 range', () => ({
    deleteAfter: z.int(),
  })),
  fault(
    'limit.delete-after-truncate',
    'delete_after accepts numbers with a fraction and stores them truncated (1.5 becomes 1)',
    () => ({ deleteAfter: z.number().min(LIMITS.deleteAfterMin).max(LIMITS.deleteAfterMax).transform(Math.trunc) }),
  ),
  fault('limit.delete-after-negative', 'delete_after refuses negative values other than -1 (never delete)', (base) => ({
    // "days until deletion" read as never negative, -1 aside.
    deleteAfter: base.deleteAfter.refine((n) => n >= 0 || n === -1, { message: 'must be -1 or at least 0' }),
  })),
];
