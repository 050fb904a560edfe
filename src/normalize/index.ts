/**
 * Normalization of turn evidence (`premath.harness.typestate_normalized.v1`).
 *
 * @module
 */
export { normalizeEvidence, normalizeRefs } from './normalize.ts';
export * from './types.ts';
