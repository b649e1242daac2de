import { requirements } from '../requirement.ts';

export const READ_REQUIREMENTS = requirements([]);
