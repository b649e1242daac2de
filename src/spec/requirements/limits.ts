import { requirements } from '../requirement.ts';

export const LIMITS_REQUIREMENTS = requirements([]);
