import { requirements } from '../requirement.ts';

export const TENANT_REQUIREMENTS = requirements([]);
