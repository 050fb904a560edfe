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
export { callSpec, requestTools, adaptText, recordResults, recordUse, closeJoin, matchToolResult } from './states.ts';
export type {
  ActionMode,
  CallSpec,
  ToolRequest,
  AnyToolRequest,
  ToolErrorEnvelope,
  ToolOk,
  ToolFailed,
  ToolResult,
  ToolResultHandlers,
  ReportedToolResult,
  UseEvidence,
  ToolUseInputRow,
  ToolUseRow,
  ToolRequests,
  ToolResults,
  ToolUse,
  JoinClosed,
  CloseContext,
  RequestedToolCall,
  TextAdapterProfile,
} from './states.ts';
export { admitMutation, performMutation, performMutationTool } from './mutation.ts';
export type { MutationPolicy, MutationWitness, MutationReady, PerformedMutation } from './mutation.ts';
