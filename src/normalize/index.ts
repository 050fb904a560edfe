/**
 * Normalization of turn evidence (`premath.harness.typestate_normalized.v1`).
 *
 * @module
 */
export { normalizeEvidence, normalizeRefs } from './normalize.ts';
export { normalizeExtended } from './extended.ts';
export * from './types.ts';
export * from './extended-types.ts';
