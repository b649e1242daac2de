/**
 * Variant switches: each one makes the reference server take another legal choice where the
 * interface leaves one open, so the self-tests can show the harness judges it conforming.
 * Each variant is declared in variants/<area>.ts as an override of points of behaviour.
 */
import { describe, conflict, type Switch } from './switches.ts';
import { ALL_VARIANTS } from './variants/index.ts';

export type VariantName = (typeof ALL_VARIANTS)[number]['name'];

/** Every variant: name → what the server does instead of its default. */
export const VARIANTS: Readonly<Record<VariantName, string>> = describe(ALL_VARIANTS);

/** Whether a string names a variant. */
export function isVariantName(name: string): name is VariantName {
  return Object.hasOwn(VARIANTS, name);
}

/** The switch of a variant. */
export function variantSwitch(name: VariantName): Switch {
  return ALL_VARIANTS.find((v) => v.name === name)!;
}

/** Why these variants cannot be on together, or undefined when they can (names that are not variants are ignored). */
export function variantConflict(names: readonly string[]): string | undefined {
  return conflict(names.filter(isVariantName).map(variantSwitch));
}
