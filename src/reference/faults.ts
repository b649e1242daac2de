/**
 * Fault switches: each one makes the reference server break one requirement on purpose, so
 * the self-tests can show that the suite catches it. A clean server has none switched on.
 * Each fault is declared in faults/<area>.ts as an override of points of behaviour.
 */
import { ALL_FAULTS } from './faults/index.ts';
import { describe, type Switch } from './switches.ts';

export type FaultName = (typeof ALL_FAULTS)[number]['name'];

/** Every fault: name → what it breaks. */
export const FAULTS: Readonly<Record<FaultName, string>> = describe(ALL_FAULTS);

/** Whether a string names a fault. */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** The switch of a fault. */
export function faultSwitch(name: FaultName): Switch {
  return ALL_FAULTS.find((f) => f.name === name)!;
}
