/**
 * The values the key cells send (src/spec/inputs/keys.ts), made from the records a run holds: ours and the peer's,
 * each read before the keys act. A value naming a record names it by the ids a read of it shows; the text each
 * value carries holds the request's tag, so a read of another record tells which request reached it.
 */
import { isJsonObject } from '../../base/json.ts';
import type { Id } from '../../spec/id.ts';
import type { KeyCellSpec, KeyOracle } from '../../spec/inputs/keys.ts';
import type { Exchange } from '../../results/exchange.ts';
import { type CaseBody, checkIds, customerOf } from '../cases.ts';
import type { Organisation } from '../context.ts';
import { unknownId } from '../bulk.ts';
import { differentValue } from '../read-only.ts';
import type { CellVerdict } from './cell.ts';
import type { ReadOnlyCaseField } from '../../spec/index.ts';

/** A record the keys act on or name: a case, its customer and first check, and its state as last read. */
export interface Known {
  org: Organisation;
  id: Id;
  customerId: Id;
  checkId?: Id;
  state: CaseBody;
}

/** The Known a case read makes. */
export function knownFrom(org: Organisation, state: CaseBody): Known {
  const checkId = checkIds(state)[0];
  return { org, id: state.id, customerId: customerOf(state).id, ...(checkId !== undefined ? { checkId } : {}), state };
}

/** A key cell as sent. */
export interface KeyCell {
  spec: KeyCellSpec;
  /** The value sent. */
  value?: unknown;
  exchange?: Exchange;
  status?: number;
  verdicts: Partial<Record<KeyOracle, CellVerdict>>;
}

/** What a group's values are made from. */
export interface ValueContext {
  /** The record the request writes (a case; its customer for a bulk customer item), as last read. */
  target: Known;
  /** The record the group's values name: our other case (`ours`), the peer's (`peer`). */
  named?: Known;
  /** The organisation value of an `org-*` group. */
  org?: unknown;
  /** This request's tag. */
  tag: string;
}

/** A timestamp no write of this run makes. */
export const PAST = '2001-02-03T04:05:06Z';

const otherType = (t: unknown) => (t === 'COMPANY' ? 'INDIVIDUAL' : 'COMPANY');

/** The customer_type a case read shows (undefined when it shows no customer: a value is still made). */
const typeOf = (c: CaseBody) => (isJsonObject(c.customer) ? c.customer.customer_type : undefined);

/** A cell's value in a group, or undefined when the group cannot be made (no record to name). */
export function keyValue(spec: KeyCellSpec, ctx: ValueContext): unknown {
  const { target, named, tag } = ctx;
  const customers = spec.way === 'bulk-customers-keys';
  switch (spec.value) {
    case 'plausible':
      return plausible(spec.field, target.state, tag);
    case 'case':
      if (!named) return undefined;
      return spec.field === 'case' ? { id: named.id } : named.id;
    case 'customer':
      return named?.customerId;
    case 'nested-customer': {
      if (!named) return undefined;
      const type = otherType(typeOf(named.state));
      return { id: named.customerId, full_name: `Screenconf Keys ${tag}`, customer_type: type };
    }
    case 'nested-checks':
      return named?.checkId === undefined ? undefined : [checkEntry(named.checkId, tag)];
    case 'org':
      return ctx.org;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'past':
      return PAST;
    case 'set':
      return customers
        ? {
            full_name: `Screenconf Set ${tag}`,
            customer_type: otherType(typeOf(target.state)),
          }
        : { note: `screenconf keys ${tag}`, outcome: 'REJECTED', is_complete: true };
    case 'unknown':
      return `screenconf ${tag}`;
  }
}

/** A check as a client echoing one back with changes sends it. */
function checkEntry(id: Id, tag: string): Record<string, unknown> {
  return { id, note: `screenconf keys ${tag}`, outcome: 'REJECTED', risk_score: 0.91, status: 'DECIDED' };
}

/** A plausible value of a read-only key the case does not hold: its own checks echoed back changed, among them. */
function plausible(field: string, state: CaseBody, tag: string): unknown {
  if (field === 'id') return unknownId();
  if (field === 'updated_at') return PAST;
  if (field === 'checks') {
    const checks = Array.isArray(state.checks) ? state.checks.filter(isJsonObject) : [];
    return checks.length ? checks.map((k) => ({ ...k, ...checkEntry(k.id as Id, tag) })) : [{ check_type: 'PEP' }];
  }
  return differentValue(state, field as ReadOnlyCaseField);
}
