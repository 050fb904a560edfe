/**
 * The branded turn states, the transition functions that mint them, typed tools, the default
 * profile, and the mutation gate.
 *
 * @module
 */
export type { Branded, StateOf } from './brand.ts';
export type { BrandName, TurnStateName } from './states.ts';
export type {
  TurnMisuse,
  StateArgument,
  UnknownToolMessage,
  MutationToolCheck,
  UnknownMethodMessage,
  IdList,
  NextStep,
  JoinIncomplete,
  NonLiteralIdMessage,
  ResultOrphanMessage,
  UseWithoutResultMessage,
  RepeatedIdMessage,
} from './messages.ts';
export type {
  ActionModeCheck,
  CallsCheck,
  HandlerMapCheck,
  ModeNamed,
  UseDecisionCheck,
  UseRowsCheck,
} from './message-checks.ts';
export { TypestateError } from './errors.ts';
export type { TypestateErrorCode } from './errors.ts';
export { defineTools } from './tools.ts';
export { validateWith, formatIssues } from './schema.ts';
export type { SchemaIssue, SchemaCheck } from './schema.ts';
export { resolveMethod } from './methods.ts';
export type { MethodSource, MethodAlias, MethodResolution } from './methods.ts';
export type {
  ToolsOf,
  ToolDefinition,
  ToolDefinitions,
  ToolDefinitionsOf,
  ToolName,
  ToolInput,
  ParsedToolInput,
  ToolOutput,
  MutationToolName,
  ReadToolName,
  ToolRegistry,
  ToolMethod,
  ToolMethodAlias,
} from './tools.ts';
export { DEFAULT_POLICIES, DEFAULT_CALL_SPEC_FIELDS, defaultRefs } from './profile.ts';
export type { TurnProtocolState, ProviderStopReason } from './protocol.ts';
export { callSpec } from './call-spec.ts';
export type { ActionMode, CallSpec, CallSpecFields, ModeOf } from './call-spec.ts';
export { requestTools, adaptText } from './request-tools.ts';
export type {
  ToolRequest,
  AnyToolRequest,
  RefusedToolCall,
  TurnCalls,
  ToolRequests,
  TextAdapterProfile,
} from './requests.ts';
export { matchToolResult, TOOL_ERROR_CODES } from './results.ts';
export type {
  ToolErrorCode,
  ToolErrorEnvelope,
  ToolOk,
  ToolFailed,
  ToolResult,
  ToolResultHandlers,
  ReportedToolResult,
} from './results.ts';
export { recordResults } from './record-results.ts';
export type { ToolResults } from './record-results.ts';
export { checkAdmissibleDisposition, recordUse } from './record-use.ts';
export type { ToolUseRow, ToolUse } from './record-use.ts';
export type { RequestedToolCall, UseEvidence, ToolUseInputRow, UseDecisionRow } from './inputs.ts';
export { closeJoin } from './close-join.ts';
export type { JoinClosed, CloseContext } from './close-join.ts';
export type { MutationIntent } from './intents.ts';
export { admitMutation } from './mutation.ts';
export type { MutationPolicy, MutationReady } from './mutation.ts';
export type { MutationWitness, MutationRecord } from './mutation-record.ts';
export { performMutation, performMutationTool, EffectAlreadyRecorded } from './perform.ts';
export { effectKey } from './ledger.ts';
export { MemoryEffectLedger } from './memory-ledger.ts';
export type { AdmissionApprovals } from './ledger.ts';
export type {
  AdmitOptions,
  EffectClaim,
  EffectEnd,
  EffectEntry,
  EffectLedger,
  EffectLedgerOptions,
  EffectRecord,
  EffectState,
  SyncEffectLedger,
} from './ledger.ts';
export { approvalRequestDigest } from './approval-records.ts';
export type {
  ApprovalDecision,
  ApprovalFailure,
  ApprovalLedger,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalState,
  StoredApproval,
} from './approval-records.ts';
export {
  approvalAnswer,
  approvalVerdict,
  beginApproved,
  decideApproval,
  readApproval,
  requestApproval,
} from './approvals.ts';
export type { ApprovalCheck, ApprovedClaim } from './approvals.ts';
export { beginApprovedByToken, signApprovalToken, verifyApprovalToken } from './approval-token.ts';
export { approvalPolicy, beginGated, evaluateApproval, expectClearance } from './approval-policy.ts';
export type {
  ApprovalContext,
  ApprovalPolicy,
  ApprovalRule,
  ApprovalRules,
  ApprovalVerdict,
  Clearance,
  ClearanceData,
  ClearanceFor,
  ClearanceKind,
  GatedClaim,
  GatedToolName,
} from './approval-policy.ts';
export type { ApprovalClearanceMessage, ApprovalRuleKeyMessage } from './messages.ts';
export type { IntentTarget, PerformedMutation, MutationToolCall } from './perform.ts';
export { recordMutations } from './record-mutations.ts';
export type { RecordMutationsOptions } from './record-mutations.ts';
