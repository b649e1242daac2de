/**
 * Read-only fields of a case sent back to the server (interface § Resources › Case: read-only):
 * a plausible value for each that differs from what the case shows, so a server that writes it
 * shows a change.
 */
import { randomBytes } from 'node:crypto';
import { idPlus, type ReadOnlyCaseField } from '../spec/index.ts';
import type { CaseBody } from './cases.ts';

/** A value of the field's type, as a client might send it, that the case does not show. */
export function differentValue(c: CaseBody, field: ReadOnlyCaseField): unknown {
  const tag = randomBytes(4).toString('hex');
  switch (field) {
    case 'id':
      return idPlus(c.id, 1);
    case 'outcome':
      return c.outcome === 'REJECTED' ? 'ACCEPTED' : 'REJECTED';
    case 'risk_score':
      return c.risk_score === 0.73 ? 0.37 : 0.73;
    case 'is_complete':
    case 'is_started':
    case 'failed':
      return c[field] !== true;
    case 'note':
      return `screenconf read-only probe ${tag}`;
    case 'rfi':
      return { body: `screenconf read-only probe ${tag}`, title: 'Probe', details: { product: 'screenconf' } };
    case 'checks':
      return Array.isArray(c.checks) && c.checks.length > 0 ? [] : [{ check_type: 'PEP' }];
    case 'customer': {
      const k = (c.customer ?? {}) as Record<string, unknown>;
      return {
        id: k.id,
        full_name: `Screenconf Read-Only Probe ${tag}`,
        customer_type: k.customer_type === 'COMPANY' ? 'INDIVIDUAL' : 'COMPANY',
      };
    }
    case 'created_at':
      return '2001-02-03T04:05:06Z';
    case 'origin_url':
      return `https://origin.example.com/screenconf/${tag}`;
  }
}

/**
 * Whether a case shows processing under way or done (started, complete, or a check deciding or
 * decided): its read-only fields then move on their own, and a write cannot be told from processing.
 */
export function processingBegun(c: CaseBody): boolean {
  const checks = Array.isArray(c.checks) ? (c.checks as unknown[]) : [];
  return (
    c.is_started === true ||
    c.is_complete === true ||
    checks.some((k) => {
      const check = (k ?? {}) as { status?: unknown; outcome?: unknown };
      return check.status === 'DECIDING' || check.status === 'DECIDED' || (check.outcome ?? null) !== null;
    })
  );
}
