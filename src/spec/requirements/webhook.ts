import { requirements } from '../requirement.ts';

export const WEBHOOK_REQUIREMENTS = requirements([]);
