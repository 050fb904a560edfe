/**
 * Normalization of turn evidence (`premath.harness.typestate_normalized.v1`): `turngate/normalize`,
 * one of the spec implementers' entry points with `turngate/canonical`, `turngate/evidence` and
 * `turngate/join-check` (an application needs none of them).
 *
 * @module
 */
export { normalizeEvidence } from './normalize.ts';
export { normalizeRefs } from './rows.ts';
export { normalizeExtended } from './extended.ts';
export {
  NORMALIZED_KIND,
  TOOL_USE_DISPOSITIONS,
  type ContextState,
  type DigestBundle,
  type JoinState,
  type NormalizedCallSpec,
  type NormalizedEvidence,
  type NormalizedHandoff,
  type NormalizedProtocolState,
  type NormalizedReminderQueue,
  type NormalizedStateView,
  type NormalizedToolErrorEnvelope,
  type NormalizedToolRender,
  type NormalizedToolRequest,
  type NormalizedToolResult,
  type NormalizedToolUse,
  type ToolUseDisposition,
} from './types.ts';
export {
  DIRECT_CALLER,
  ESCALATION_ACTIONS,
  EXECUTION_PATTERNS,
  EXTENDED_NORMALIZED_KIND,
  GUARDRAIL_STAGES,
  OBSERVABILITY_MODES,
  ORCHESTRATION_ROLES,
  RISK_CONTROLS,
  RISK_TIERS,
  TOOL_CHOICE_MODES,
  TRACE_SINKS,
  TRANSFER_DIRECTIONS,
  TRANSPORT_ORDERINGS,
  type ExtendedDigestBundle,
  type ExtendedNormalized,
  type GuardrailStage,
  type NormalizedCompaction,
  type NormalizedEvalRun,
  type NormalizedExtendedCallSpec,
  type NormalizedExtendedToolRequest,
  type NormalizedExtendedToolResult,
  type NormalizedExtendedToolUse,
  type NormalizedGuardrailDecision,
  type NormalizedMutationIntent,
  type NormalizedPolicyChange,
  type NormalizedRedTeamRun,
  type NormalizedToolPolicyEntry,
  type NormalizedToolSearch,
  type NormalizedTraceExport,
  type NormalizedTransfer,
  type RiskControl,
} from './extended-types.ts';
