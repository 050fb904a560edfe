/**
 * The join check: the one runtime authority on `JoinClosed`.
 *
 * @module
 */
export { joinCheck, joinCheckText, checkDecoded, renderJoinCheckJson } from './check.ts';
export type { JoinCheckResult } from './check.ts';
export {
  JOIN_CHECK_WITNESS_KIND,
  EXTENDED_WITNESS_KIND,
  GOVERNANCE_PROFILE_CLAIM_ID,
  HANDLED_STOP_REASONS,
} from './types.ts';
export type {
  JoinCheckReport,
  JoinCheckWitness,
  JoinInput,
  MutationInput,
  ExtendedReport,
  ExtendedWitness,
} from './types.ts';
export {
  TRANSCRIPT_FORMATS,
  PROTOCOL_STOP_REASONS,
  STOP_REASON_TABLE,
  protocolStopReason,
  mutationStopVerdict,
} from './stop-reasons.ts';
export type {
  TranscriptFormat,
  ProtocolStopReason,
  StopReasonOf,
  ProtocolStopReasonOf,
  UnsafeStopKind,
} from './stop-reasons.ts';
