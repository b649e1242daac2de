import { requirements } from '../requirement.ts';

export const MODEL_REQUIREMENTS = requirements([]);
