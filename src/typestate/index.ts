/**
 * The branded turn states, the transition functions that mint them, typed tools, and the
 * mutation gate.
 *
 * @module
 */
export type { Branded, BrandName, TurnStateName } from './brand.ts';
export { TypestateError } from './errors.ts';
export type { TypestateErrorCode } from './errors.ts';
export { defineTools, validateWith, formatIssues } from './tools.ts';
export type {
  ToolDefinition,
  ToolDefinitions,
  ToolName,
  ToolInput,
  ToolOutput,
  ToolRegistry,
  SchemaIssue,
  SchemaCheck,
} from './tools.ts';
export { callSpec } from './call-spec.ts';
export type { ActionMode, CallSpec } from './call-spec.ts';
export { requestTools, adaptText } from './request-tools.ts';
export type {
  ToolRequest,
  AnyToolRequest,
  ToolRequests,
  RequestedToolCall,
  TextAdapterProfile,
} from './request-tools.ts';
export { matchToolResult } from './results.ts';
export type {
  ToolErrorEnvelope,
  ToolOk,
  ToolFailed,
  ToolResult,
  ToolResultHandlers,
  ReportedToolResult,
} from './results.ts';
export { recordResults } from './record-results.ts';
export type { ToolResults } from './record-results.ts';
export { recordUse } from './record-use.ts';
export type { UseEvidence, ToolUseInputRow, ToolUseRow, ToolUse } from './record-use.ts';
export { closeJoin } from './close-join.ts';
export type { JoinClosed, CloseContext } from './close-join.ts';
export { admitMutation, performMutation, performMutationTool } from './mutation.ts';
export type { MutationPolicy, MutationWitness, MutationReady, PerformedMutation } from './mutation.ts';
