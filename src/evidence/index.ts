/**
 * Wire schemas of the join-check input (valibot), their inferred types, and the input error.
 *
 * @module
 */
export * from './schemas.ts';
export * from './extended-policies.ts';
export * from './extended.ts';
export { EvidenceInputError } from './errors.ts';
export { decodeJoinCheckInput, decodeExtendedInput, issuePath } from './decode.ts';
export type { DecodeResult, ExtendedDecodeResult } from './decode.ts';
export type { NumberInput } from './fields.ts';
