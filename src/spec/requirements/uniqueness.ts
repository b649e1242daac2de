import { requirements } from '../requirement.ts';

export const UNIQUENESS_REQUIREMENTS = requirements([]);
