/**
 * Wire schemas of the join-check input (valibot), their inferred types, and the input error.
 *
 * @module
 */
export * from './schemas.ts';
export { EvidenceInputError } from './errors.ts';
export { decodeJoinCheckInput, issuePath } from './decode.ts';
export type { DecodeResult } from './decode.ts';
