/**
 * turngate: tool-calling agent turns that are safe by construction.
 *
 * @module
 */
export * from './canonical/index.ts';
export * from './evidence/index.ts';
export * from './failures/index.ts';
export * from './normalize/index.ts';
export * from './check/index.ts';
export * from './typestate/index.ts';
export * from './builder/index.ts';
