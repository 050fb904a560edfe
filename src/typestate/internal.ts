/**
 * The typestate layer's internals that other layers use, reached here rather than through the files
 * that hold them. Not part of the public API.
 *
 * @module
 */
export { expectMinted, mint, mintedState } from './brand.ts';
export { runToolIntent } from './perform.ts';
export { thrownEnvelope } from './intent-claim.ts';
export {
  plainEntry,
  readClaim,
  recordedAnswer,
  resumesClaim,
  storedRecord,
  unknownOutcome,
  type StoredEffect,
} from './ledger.ts';
export { checkOutput, mintResults, pendingError, type TypedRow } from './record-results.ts';
export { isPendingMutation, ownError } from './results.ts';
export type {
  CallerMissingMessage,
  CallerNotAllowedMessage,
  ConsumedWithoutEvidenceMessage,
  DiscardedWithoutReasonMessage,
  JsonParallelMessage,
  Listed,
  MethodMissingMessage,
  NamedEvidence,
  TextRequestMessage,
} from './messages.ts';
export type { MethodRule } from './message-checks.ts';
export { registryDefinitions, type AliasTargets } from './tools.ts';
export { checkMethods, unknownMethodDetail } from './methods.ts';
export { approvalOf } from './approval-records.ts';
export { approvalVerdict } from './approvals.ts';
