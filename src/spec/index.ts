export * from './limits.ts';
export * from './enums.ts';
export * from './id.ts';
export * from './schemas.ts';
export * from './requirement.ts';
export * from './catalogue.ts';
export * from './user-catalogue.ts';
