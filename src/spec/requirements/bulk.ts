import { requirements } from '../requirement.ts';

export const BULK_REQUIREMENTS = requirements([]);
