import { requirements } from '../requirement.ts';

export const CONTENT_TYPES_REQUIREMENTS = requirements([]);
