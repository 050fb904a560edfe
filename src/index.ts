/**
 * turngate: tool-calling agent turns that are safe by construction. This entry point has what a
 * user writes: the verbs (the transitions, the builder, `settle`), the six states
 * (`CallSpec` -> `ToolRequests` -> `ToolResults` -> `ToolUse` -> `JoinClosed` -> `MutationReady`),
 * the tool registry (`defineTools` and its types), `Result` and the failure classes, and the effect
 * ledger. The other entry points: `turngate/types` (the type-level machinery, the type queries and
 * the shapes the verbs take and return), `turngate/approvals`, `turngate/transcripts` and
 * `turngate/formats` (the providers' wire types), `turngate/chat`, `turngate/adapters` and one
 * entry per SDK, `turngate/mcp`, `turngate/durable` (with its DBOS binding `turngate/durable/dbos`),
 * `turngate/tusk`, `turngate/outcome`, and the spec implementers' entries `turngate/canonical`,
 * `turngate/evidence`, `turngate/normalize`, `turngate/join-check`.
 *
 * @module
 */
export {
  FAILURE_CLASSES,
  describeFailureClass,
  isFailureClass,
  type Failure,
  type FailureClass,
  type Result,
} from './failures/index.ts';
export {
  DEFAULT_CALL_SPEC_FIELDS,
  DEFAULT_POLICIES,
  EffectAlreadyRecorded,
  MemoryEffectLedger,
  TOOL_ERROR_CODES,
  TypestateError,
  adaptText,
  admitMutation,
  callSpec,
  checkAdmissibleDisposition,
  closeJoin,
  defaultRefs,
  defineTools,
  effectKey,
  formatIssues,
  matchToolResult,
  performMutation,
  performMutationTool,
  recordMutations,
  recordResults,
  recordUse,
  requestTools,
  validateWith,
  type CallSpec,
  type EffectLedger,
  type EffectRecord,
  type JoinClosed,
  type MutationReady,
  type MutationToolName,
  type ReadToolName,
  type ToolDefinition,
  type ToolDefinitions,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolRegistry,
  type ToolRequests,
  type ToolResult,
  type ToolResults,
  type ToolUse,
  type TypestateErrorCode,
} from './typestate/index.ts';
export {
  settle,
  settleMutations,
  turn,
  useAll,
  type MutationHandlers,
  type ToolHandlers,
} from './builder/index.ts';
