/**
 * The join check (`turngate/join-check`), one of the spec implementers' entry points with
 * `turngate/canonical`, `turngate/evidence` and `turngate/normalize`: turn evidence (premath's
 * wire) to a report, its failure classes and its witness; the stop-reason table that decides
 * whether a reply's mutating calls may run.
 *
 * Source: HARNESS-TYPESTATE §4–§5, §8 (the join check); each provider's documented stop reasons
 * (`STOP_REASON_TABLE`).
 *
 * @module
 */
export {
  EXTENDED_WITNESS_KIND,
  GOVERNANCE_PROFILE_CLAIM_ID,
  HANDLED_STOP_REASONS,
  JOIN_CHECK_WITNESS_KIND,
  PROTOCOL_STOP_REASONS,
  STOP_REASON_TABLE,
  checkDecoded,
  joinCheck,
  joinCheckText,
  mutationStopVerdict,
  protocolStopReason,
  renderJoinCheckJson,
  type ExtendedReport,
  type ExtendedWitness,
  type JoinCheckReport,
  type JoinCheckResult,
  type JoinCheckWitness,
  type JoinInput,
  type MutationInput,
  type ProtocolStopReason,
  type ProtocolStopReasonOf,
  type StopReasonOf,
  type UnsafeStopKind,
} from './check/index.ts';
