/**
 * Switches: named overrides of points of behaviour (behaviour.ts). A fault is a defect that
 * breaks one requirement, for the self-tests; a variant is a legal choice the interface leaves
 * open, which the harness must judge conforming. Both are declared and applied alike.
 */
import type { Behaviour, Env } from './behaviour.ts';

export interface Switch<N extends string = string> {
  readonly name: N;
  readonly description: string;
  readonly kind: 'fault' | 'variant';
  /** Switches of one group are alternatives: at most one of them may be on. */
  readonly group?: string;
  /**
   * The points this switch overrides, given the behaviour before it (`base`, to delegate to) and
   * the server's state. State the switch itself needs is created here, once per server.
   */
  readonly apply: (base: Behaviour, env: Env) => Partial<Behaviour>;
}

/** Declares a fault switch. */
export function fault<N extends string>(name: N, description: string, apply: Switch['apply']): Switch<N> {
  return { name, description, kind: 'fault', apply };
}

/** Declares a variant switch; `group` names alternatives of which one at most may be on. */
export function variant<N extends string>(
  name: N,
  description: string,
  apply: Switch['apply'],
  group?: string,
): Switch<N> {
  return { name, description, kind: 'variant', apply, ...(group ? { group } : {}) };
}

/** The switches' names and descriptions, in their order. */
export function describe<N extends string>(switches: readonly Switch<N>[]): Readonly<Record<N, string>> {
  return Object.fromEntries(switches.map((s) => [s.name, s.description])) as Record<N, string>;
}

/** Why these switches cannot be on together (two of one group), or undefined when they can. */
export function conflict(switches: readonly Switch[]): string | undefined {
  const byGroup = new Map<string, string>();
  for (const s of switches) {
    if (!s.group) continue;
    const other = byGroup.get(s.group);
    if (other !== undefined && other !== s.name)
      return `${other} and ${s.name} are alternatives (${s.group}): switch on one of them`;
    byGroup.set(s.group, s.name);
  }
  return undefined;
}

/** The behaviour with each switch applied in turn, each over the result of those before it. */
export function compose(base: Behaviour, switches: readonly Switch[], env: Env): Behaviour {
  let b = base;
  // Each layer is a new object: the layer before stays intact for the overrides that delegate to it.
  for (const s of switches) b = { ...b, ...s.apply(b, env) };
  return b;
}
