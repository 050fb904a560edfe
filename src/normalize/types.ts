/**
 * Types of normalized evidence (`premath.harness.typestate_normalized.v1`). Shapes are the
 * wire shapes premath prints: camelCase keys; optional fields and lists marked "absent when
 * empty" are left out rather than set to `[]`, so these objects digest and print as they are.
 *
 * @module
 */

/**
 * The normalization kind string. Source: HARNESS-TYPESTATE §4.
 *
 * @example
 * ```ts
 * import type { JoinCheckReport } from 'turngate/join-check';
 * import { NORMALIZED_KIND } from 'turngate/normalize';
 * declare const report: JoinCheckReport;
 * report.normalized.kind === NORMALIZED_KIND; //=> true
 * ```
 */
export const NORMALIZED_KIND = 'premath.harness.typestate_normalized.v1';

/**
 * The HARNESS-TYPESTATE §3.1 CallSpec binding fields, trimmed; `actionMode` and `executionPattern` lowercased.
 */
export interface NormalizedCallSpec {
  /** The deterministic turn identity. */
  readonly callId: string;
  /** The model and version used for the turn. */
  readonly modelRef: string;
  /** The action mode, lowercased (`code | json | text` in practice; not enforced, as premath). */
  readonly actionMode: string;
  /** The execution pattern, lowercased (`single | chain | route | parallel | ...`). */
  readonly executionPattern: string;
  /** The output normalization contract id. */
  readonly normalizerId: string;
  /** The expected instruction/mutation policy binding. */
  readonly mutationPolicyDigest: string;
  /** The pinned governance policy package digest. */
  readonly governancePolicyDigest: string;
  /** The dual-rendering contract for tool outputs. */
  readonly toolRenderProtocolDigest: string;
  /** The reminder queue policy. */
  readonly reminderQueuePolicyDigest: string;
  /** The state view policy. */
  readonly stateViewPolicyDigest: string;
  /** The decomposition (loop-vs-split) policy. */
  readonly decompositionPolicyDigest: string;
}

/**
 * One requested tool call.
 */
export interface NormalizedToolRequest {
  /** The tool call id (trimmed, non-blank). */
  readonly toolCallId: string;
  /** The tool name (trimmed, non-blank). */
  readonly toolName: string;
  /** The input schema digest, when given. */
  readonly schemaDigest?: string;
  /** The caller id (programmatic caller edge), when given. */
  readonly callerId?: string;
  /** The tool-search result-set digest, when the tool was discovered. */
  readonly searchRefDigest?: string;
}

/**
 * The machine-readable error envelope of an error result. Source: HARNESS-TYPESTATE §3.2.
 */
export interface NormalizedToolErrorEnvelope {
  /** The error code; `unknown_error` when the row gave none. */
  readonly errorCode: string;
  /** Whether a retry may succeed; `false` when the row gave none. */
  readonly retryable: boolean;
  /** `sha256:` of the trimmed message's UTF-8 bytes (of `''` when there was none). */
  readonly errorMessageDigest: string;
}

/**
 * One terminal tool result.
 */
export interface NormalizedToolResult {
  /** The tool call id this result answers. */
  readonly toolCallId: string;
  /** `ok`, or `error` (also inferred when the row carries error fields but no status). */
  readonly status: 'ok' | 'error';
  /** The result digest: as given, or `digest(payload)` when absent and a payload was given. */
  readonly resultDigest?: string;
  /** The error envelope, present exactly when `status` is `error`. */
  readonly error?: NormalizedToolErrorEnvelope;
}

/**
 * The dispositions accepted in `toolUse[].disposition`, premath's first.
 *
 * @example
 * ```ts
 * import { TOOL_USE_DISPOSITIONS } from 'turngate/normalize';
 * TOOL_USE_DISPOSITIONS.includes('retry_scheduled'); //=> true
 * ```
 */
export const TOOL_USE_DISPOSITIONS = Object.freeze([
  'consumed',
  'observed',
  'discarded',
  'observed_only',
  'discarded_with_reason',
  'retry_scheduled',
] as const);

/**
 * A tool-use disposition: premath's `consumed | observed | discarded`, and TOOL-CALLING-HARNESS-TYPESTATE §4.4's
 * `observed_only | discarded_with_reason | retry_scheduled`. Written once, as
 * {@link TOOL_USE_DISPOSITIONS}.
 */
export type ToolUseDisposition = (typeof TOOL_USE_DISPOSITIONS)[number];

/**
 * What the turn did with one terminal result.
 */
export interface NormalizedToolUse {
  /** The tool call id whose result was used. */
  readonly toolCallId: string;
  /** The disposition, lowercased. */
  readonly disposition: ToolUseDisposition;
  /** The digest of the result that was used, when given. */
  readonly resultDigest?: string;
  /** The typed reason code (TOOL-CALLING-HARNESS-TYPESTATE `discarded_with_reason`, optional on `retry_scheduled`). */
  readonly reasonCode?: string;
}

/**
 * The provider protocol state at the end of the turn.
 */
export interface NormalizedProtocolState {
  /** The stop reason, lowercased. Handled: `tool_use | pause_turn | max_tokens | end_turn`. */
  readonly stopReason: string;
  /** Whether the loop may continue with another model call. */
  readonly continuationAllowed: boolean;
}

/**
 * The handoff packet.
 */
export interface NormalizedHandoff {
  /** The transfer target. */
  readonly target: string;
  /** Required artifact refs: trimmed, deduplicated, sorted; absent when empty. */
  readonly requiredArtifactRefs?: readonly string[];
  /** The return path, when given. */
  readonly returnPathRef?: string;
}

/**
 * The dual rendering of one tool result.
 */
export interface NormalizedToolRender {
  /** The tool call id rendered. */
  readonly toolCallId: string;
  /** The digest of the operator-facing payload. */
  readonly operatorPayloadDigest: string;
  /** The digest of the model-facing reminder rendering. */
  readonly reminderRenderDigest: string;
  /** Where the rendering was injected, lowercased (e.g. `tool_response`). */
  readonly injectionPoint: string;
  /** The render policy digest; valid when equal to the CallSpec's `toolRenderProtocolDigest`. */
  readonly policyDigest: string;
}

/**
 * One reduced reminder queue.
 */
export interface NormalizedReminderQueue {
  /** The queue id. */
  readonly queueId: string;
  /** The digest of the reduced queue. */
  readonly reducedDigest: string;
  /** The queue policy digest; valid when equal to the CallSpec's `reminderQueuePolicyDigest`. */
  readonly policyDigest: string;
}

/**
 * One state view.
 */
export interface NormalizedStateView {
  /** The view id. */
  readonly viewId: string;
  /** The digest of the view. */
  readonly viewDigest: string;
  /** The state view policy digest; valid when equal to the CallSpec's `stateViewPolicyDigest`. */
  readonly policyDigest: string;
  /** Source refs: trimmed, deduplicated, sorted; absent when empty. */
  readonly sourceRefs?: readonly string[];
}

/**
 * The digest bundle: one `sha256:` digest per normalized surface plus the join-set digest.
 */
export interface DigestBundle {
  /** Digest of the normalized CallSpec. */
  readonly callSpecDigest: string;
  /** Digest of the sorted request rows. */
  readonly requestSetDigest: string;
  /** Digest of the sorted result rows. */
  readonly resultSetDigest: string;
  /** Digest of the sorted tool-use rows. */
  readonly useSetDigest: string;
  /** Digest of the sorted tool-render rows. */
  readonly toolRenderSetDigest: string;
  /** Digest of the sorted reminder-queue rows. */
  readonly reminderQueueSetDigest: string;
  /** Digest of the sorted state-view rows. */
  readonly stateViewSetDigest: string;
  /** Digest of the protocol state. */
  readonly protocolStateDigest: string;
  /** Digest of the handoff packet, when there is one. */
  readonly handoffDigest?: string;
  /** Digest over the set digests, the id lists and the context booleans. */
  readonly joinSetDigest: string;
}

/**
 * The join state: which ids were requested, answered and used, and what is missing.
 */
export interface JoinState {
  /** Requested tool call ids, sorted; absent when empty. */
  readonly requestedCallIds?: readonly string[];
  /** Ids with a terminal result, sorted; absent when empty. */
  readonly resultCallIds?: readonly string[];
  /** Ids with a tool-use row, sorted; absent when empty. */
  readonly usedCallIds?: readonly string[];
  /** Requested ids without a result (`tool.result_missing`); absent when empty. */
  readonly missingResultCallIds?: readonly string[];
  /** Result ids never requested (`tool.result_orphan`); absent when empty. */
  readonly orphanResultCallIds?: readonly string[];
  /** Result ids without a tool-use row (`tool.use_missing`); absent when empty. */
  readonly missingUseCallIds?: readonly string[];
  /** Tool-use ids without a result (`tool.use_without_result`); absent when empty. */
  readonly unknownUseCallIds?: readonly string[];
  /** True when the four lists above are all empty. */
  readonly joinClosed: boolean;
}

/**
 * The context-reconstruction state used before continuing an iterative loop.
 */
export interface ContextState {
  /** Ids with a tool-render row, sorted; absent when empty. */
  readonly renderCallIds?: readonly string[];
  /** Reminder queue ids, sorted; absent when empty. */
  readonly queueIds?: readonly string[];
  /** State view ids, sorted; absent when empty. */
  readonly stateViewIds?: readonly string[];
  /** Result ids without a tool-render row; absent when empty. */
  readonly missingRenderCallIds?: readonly string[];
  /** Whether at least one reminder queue reduction is present. */
  readonly queueReductionPresent: boolean;
  /** Whether at least one state view is present. */
  readonly stateViewPresent: boolean;
  /** Whether every render row's policy digest is the CallSpec's. */
  readonly renderPolicyValid: boolean;
  /** Whether every queue row's policy digest is the CallSpec's. */
  readonly queuePolicyValid: boolean;
  /** Whether every state view's policy digest is the CallSpec's. */
  readonly stateViewPolicyValid: boolean;
  /** True when continuation is not allowed, or every render/queue/view condition holds. */
  readonly continuationContextReady: boolean;
}

/**
 * Normalized evidence of one turn, kind `premath.harness.typestate_normalized.v1`.
 */
export interface NormalizedEvidence {
  /** Always 1. */
  readonly schema: 1;
  /** Always {@link NORMALIZED_KIND}. */
  readonly kind: typeof NORMALIZED_KIND;
  /** The normalized CallSpec. */
  readonly callSpec: NormalizedCallSpec;
  /** Request rows sorted by id; absent when empty. */
  readonly toolRequests?: readonly NormalizedToolRequest[];
  /** Result rows sorted by id; absent when empty. */
  readonly toolResults?: readonly NormalizedToolResult[];
  /** Tool-use rows sorted by id; absent when empty. */
  readonly toolUse?: readonly NormalizedToolUse[];
  /** The protocol state. */
  readonly protocolState: NormalizedProtocolState;
  /** The handoff packet, when present. */
  readonly handoff?: NormalizedHandoff;
  /** Render rows sorted by id; absent when empty. */
  readonly toolRender?: readonly NormalizedToolRender[];
  /** Queue rows sorted by id; absent when empty. */
  readonly reminderQueue?: readonly NormalizedReminderQueue[];
  /** State views sorted by id; absent when empty. */
  readonly stateViews?: readonly NormalizedStateView[];
  /** The digest bundle. */
  readonly digests: DigestBundle;
  /** The join state. */
  readonly joinState: JoinState;
  /** The context state. */
  readonly contextState: ContextState;
  /** Session refs: trimmed, deduplicated, sorted; absent when empty. */
  readonly sessionRefs?: readonly string[];
  /** Trajectory refs: trimmed, deduplicated, sorted; absent when empty. */
  readonly trajectoryRefs?: readonly string[];
}
