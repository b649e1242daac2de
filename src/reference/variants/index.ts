/** Every variant switch, by area. */
import type { Switch } from '../switches.ts';

export const ALL_VARIANTS: Switch<never>[] = [];
