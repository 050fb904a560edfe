/**
 * Evidence input -> normalized evidence with its digest bundle, join state and context state.
 *
 * @module
 */
import { rawErrorValue, rawRetryable } from './raw-error.ts';
import { keyedRowsAt, normalizeRefs, optional, required, type RowAt } from './rows.ts';
import { asciiLowercase, digest, digestText } from '../canonical/index.ts';
import { EvidenceInputError } from '../evidence/index.ts';
import { setList, setOptional, type Mutable } from '../internal/fields.ts';
import type {
  CallSpecInput,
  EvidenceInput,
  HandoffInput,
  ReminderQueueInput,
  StateViewInput,
  ToolRenderInput,
  ToolRequestInput,
  ToolResultInput,
  ToolUseInput,
} from '../evidence/index.ts';
import {
  NORMALIZED_KIND,
  TOOL_USE_DISPOSITIONS,
  type ContextState,
  type DigestBundle,
  type JoinState,
  type NormalizedCallSpec,
  type NormalizedEvidence,
  type NormalizedHandoff,
  type NormalizedReminderQueue,
  type NormalizedStateView,
  type NormalizedToolErrorEnvelope,
  type NormalizedToolRender,
  type NormalizedToolRequest,
  type NormalizedToolResult,
  type NormalizedToolUse,
  type ToolUseDisposition,
} from './types.ts';

// The normalized rows below are built with their keys in UTF-8 order (the order their digests and
// the report write them), so the canonical writer shares them instead of copying each one. Fields
// are still read, and their errors found, in the order premath reads them.

function normalizeCallSpec(spec: CallSpecInput): NormalizedCallSpec {
  const at = (name: string) => `evidence.callSpec.${name}`;
  const callId = required(spec.callId, at('callId'));
  const modelRef = required(spec.modelRef, at('modelRef'));
  const actionMode = asciiLowercase(required(spec.actionMode, at('actionMode')));
  const executionPattern = asciiLowercase(required(spec.executionPattern, at('executionPattern')));
  const normalizerId = required(spec.normalizerId, at('normalizerId'));
  const mutationPolicyDigest = required(spec.mutationPolicyDigest, at('mutationPolicyDigest'));
  const governancePolicyDigest = required(spec.governancePolicyDigest, at('governancePolicyDigest'));
  const toolRenderProtocolDigest = required(spec.toolRenderProtocolDigest, at('toolRenderProtocolDigest'));
  const reminderQueuePolicyDigest = required(spec.reminderQueuePolicyDigest, at('reminderQueuePolicyDigest'));
  const stateViewPolicyDigest = required(spec.stateViewPolicyDigest, at('stateViewPolicyDigest'));
  const decompositionPolicyDigest = required(spec.decompositionPolicyDigest, at('decompositionPolicyDigest'));
  return {
    actionMode,
    callId,
    decompositionPolicyDigest,
    executionPattern,
    governancePolicyDigest,
    modelRef,
    mutationPolicyDigest,
    normalizerId,
    reminderQueuePolicyDigest,
    stateViewPolicyDigest,
    toolRenderProtocolDigest,
  };
}

function normalizeRequest(row: ToolRequestInput, at: RowAt): NormalizedToolRequest {
  const toolCallId = required(row.toolCallId, at, 'toolCallId');
  const toolName = required(row.toolName, at, 'toolName');
  const schemaDigest = optional(row.schemaDigest, at, 'schemaDigest');
  const callerId = optional(row.callerId, at, 'callerId');
  const searchRefDigest = optional(row.searchRefDigest, at, 'searchRefDigest');
  const out = {} as Mutable<NormalizedToolRequest>;
  setOptional(out, 'callerId', callerId);
  setOptional(out, 'schemaDigest', schemaDigest);
  setOptional(out, 'searchRefDigest', searchRefDigest);
  out.toolCallId = toolCallId;
  out.toolName = toolName;
  return out;
}

/** premath's `rawError` fallbacks for normalization (see `raw-error.ts` for why the check reads it differently). */
function rawErrorFields(raw: unknown, at: RowAt): { code?: string; retryable?: boolean; message?: string } {
  // No prototype: a field left unset reads as absent even when Object.prototype is polluted.
  const out: { code?: string; retryable?: boolean; message?: string } = Object.create(null);
  const pick = (field: 'errorCode' | 'errorMessage'): string | undefined => {
    const found = rawErrorValue(raw, field);
    return typeof found?.value === 'string' ? optional(found.value, at, `rawError.${found.key}`) : undefined;
  };
  setOptional(out, 'code', pick('errorCode'));
  const retryable = rawRetryable(raw);
  if (retryable !== undefined) out.retryable = retryable;
  setOptional(out, 'message', pick('errorMessage'));
  return out;
}

function normalizeResult(row: ToolResultInput, at: RowAt): NormalizedToolResult {
  const raw = rawErrorFields(row.rawError, at);
  const errorCode = optional(row.errorCode, at, 'errorCode') ?? raw.code;
  const retryable = row.retryable ?? raw.retryable;
  const errorMessage = optional(row.errorMessage, at, 'errorMessage') ?? raw.message;
  const hasErrorMaterial = errorCode !== undefined || retryable !== undefined || errorMessage !== undefined;

  const givenStatus = optional(row.status, at, 'status');
  const status = givenStatus === undefined ? (hasErrorMaterial ? 'error' : 'ok') : asciiLowercase(givenStatus);
  if (status !== 'ok' && status !== 'error') {
    throw new EvidenceInputError(at.field('status'), `expected \`ok\` or \`error\`, received \`${status}\``);
  }

  let resultDigest = optional(row.resultDigest, at, 'resultDigest');
  if (resultDigest === undefined && row.payload !== undefined && row.payload !== null) {
    resultDigest = digest(row.payload);
  }

  const toolCallId = required(row.toolCallId, at, 'toolCallId');
  const out = {} as Mutable<NormalizedToolResult>;
  if (status === 'error') {
    const error: NormalizedToolErrorEnvelope = {
      errorCode: errorCode ?? 'unknown_error',
      errorMessageDigest: digestText(errorMessage ?? ''),
      retryable: retryable ?? false,
    };
    out.error = error;
  }
  setOptional(out, 'resultDigest', resultDigest);
  out.status = status;
  out.toolCallId = toolCallId;
  return out;
}

function normalizeUse(row: ToolUseInput, at: RowAt): NormalizedToolUse {
  const disposition = asciiLowercase(required(row.disposition, at, 'disposition')) as ToolUseDisposition;
  if (!TOOL_USE_DISPOSITIONS.includes(disposition)) {
    throw new EvidenceInputError(
      at.field('disposition'),
      `expected one of ${TOOL_USE_DISPOSITIONS.join('|')}, received \`${disposition}\``,
    );
  }
  const toolCallId = required(row.toolCallId, at, 'toolCallId');
  const resultDigest = optional(row.resultDigest, at, 'resultDigest');
  let reasonCode: string | undefined;
  if (disposition === 'discarded_with_reason' || disposition === 'retry_scheduled') {
    const reason = row.reasonCode;
    if (reason !== undefined && reason !== null && typeof reason !== 'string') {
      throw new EvidenceInputError(at.field('reasonCode'), 'expected a string reason code');
    }
    reasonCode = optional(reason, at, 'reasonCode');
    if (reasonCode === undefined && disposition === 'discarded_with_reason') {
      throw new EvidenceInputError(
        at.field('reasonCode'),
        'expected a non-blank reason code for disposition `discarded_with_reason`',
      );
    }
  }
  const out = { disposition } as Mutable<NormalizedToolUse>;
  setOptional(out, 'reasonCode', reasonCode);
  setOptional(out, 'resultDigest', resultDigest);
  out.toolCallId = toolCallId;
  return out;
}

function normalizeRender(row: ToolRenderInput, at: RowAt): NormalizedToolRender {
  const toolCallId = required(row.toolCallId, at, 'toolCallId');
  const operatorPayloadDigest = required(row.operatorPayloadDigest, at, 'operatorPayloadDigest');
  const reminderRenderDigest = required(row.reminderRenderDigest, at, 'reminderRenderDigest');
  const injectionPoint = asciiLowercase(required(row.injectionPoint, at, 'injectionPoint'));
  const policyDigest = required(row.policyDigest, at, 'policyDigest');
  return { injectionPoint, operatorPayloadDigest, policyDigest, reminderRenderDigest, toolCallId };
}

function normalizeQueue(row: ReminderQueueInput, at: RowAt): NormalizedReminderQueue {
  const queueId = required(row.queueId, at, 'queueId');
  const reducedDigest = required(row.reducedDigest, at, 'reducedDigest');
  const policyDigest = required(row.policyDigest, at, 'policyDigest');
  return { policyDigest, queueId, reducedDigest };
}

function normalizeStateView(row: StateViewInput, at: RowAt): NormalizedStateView {
  const viewId = required(row.viewId, at, 'viewId');
  const viewDigest = required(row.viewDigest, at, 'viewDigest');
  const policyDigest = required(row.policyDigest, at, 'policyDigest');
  const out = { policyDigest } as Mutable<NormalizedStateView>;
  setList(out, 'sourceRefs', normalizeRefs(row.sourceRefs, at.field('sourceRefs')));
  out.viewDigest = viewDigest;
  out.viewId = viewId;
  return out;
}

function normalizeHandoff(row: HandoffInput): NormalizedHandoff {
  const out: Mutable<NormalizedHandoff> = { target: required(row.target, 'evidence.handoff.target') };
  setList(
    out,
    'requiredArtifactRefs',
    normalizeRefs(row.requiredArtifactRefs, 'evidence.handoff.requiredArtifactRefs'),
  );
  setOptional(out, 'returnPathRef', optional(row.returnPathRef, 'evidence.handoff.returnPathRef'));
  return out;
}

function difference(left: readonly string[], right: ReadonlySet<string>): string[] {
  return left.filter((id) => !right.has(id));
}

/**
 * A turn's call, result and use rows normalized (as {@link normalizeEvidence} normalizes them,
 * result digests taken from payloads included) with the join state they give, and no set
 * digest: what a typestate transition before `closeJoin` checks. Internal.
 */
export interface NormalizedJoin {
  readonly callSpec: NormalizedCallSpec;
  readonly toolRequests: readonly NormalizedToolRequest[];
  readonly toolResults: readonly NormalizedToolResult[];
  readonly toolUse: readonly NormalizedToolUse[];
  readonly requestedCallIds: string[];
  readonly resultCallIds: string[];
  readonly usedCallIds: string[];
  readonly missingResultCallIds: string[];
  readonly orphanResultCallIds: string[];
  readonly missingUseCallIds: string[];
  readonly unknownUseCallIds: string[];
  readonly joinState: JoinState;
}

/**
 * Row sets of a turn normalized already (by {@link normalizeJoin}, in an earlier step of the same
 * turn), taken as they are instead of the evidence's rows of that set. Internal.
 */
export interface CarriedRows {
  readonly toolRequests?: readonly NormalizedToolRequest[];
  readonly toolResults?: readonly NormalizedToolResult[];
}

/**
 * The first part of {@link normalizeEvidence}: the CallSpec, the call, result and use rows and
 * the join state, read and refused in the same order. Internal: `normalizeEvidence` goes on from
 * it, and the check's join rules for a turn not yet closed (`checkJoinRows`) stop at it, with the
 * row sets an earlier step normalized (`carried`) in place of the evidence's.
 *
 * @throws {@link EvidenceInputError} and {@link JsonInputError} as {@link normalizeEvidence}, for those rows.
 */
export function normalizeJoin(evidence: EvidenceInput, carried: CarriedRows = {}): NormalizedJoin {
  const callSpec = normalizeCallSpec(evidence.callSpec);
  // Own fields only: a set not carried is never read from a polluted Object.prototype.
  const toolRequests =
    (Object.hasOwn(carried, 'toolRequests') ? carried.toolRequests : undefined) ??
    keyedRowsAt(evidence.toolRequests, 'toolRequests', 'toolCallId', normalizeRequest, (r) => r.toolCallId);
  const toolResults =
    (Object.hasOwn(carried, 'toolResults') ? carried.toolResults : undefined) ??
    keyedRowsAt(evidence.toolResults, 'toolResults', 'toolCallId', normalizeResult, (r) => r.toolCallId);
  const toolUse = keyedRowsAt(evidence.toolUse, 'toolUse', 'toolCallId', normalizeUse, (r) => r.toolCallId);
  const requestedCallIds = toolRequests.map((r) => r.toolCallId);
  const resultCallIds = toolResults.map((r) => r.toolCallId);
  const usedCallIds = toolUse.map((r) => r.toolCallId);
  const requestedSet = new Set(requestedCallIds);
  const resultSet = new Set(resultCallIds);
  const usedSet = new Set(usedCallIds);
  const missingResultCallIds = difference(requestedCallIds, resultSet);
  const orphanResultCallIds = difference(resultCallIds, requestedSet);
  const missingUseCallIds = difference(resultCallIds, usedSet);
  const unknownUseCallIds = difference(usedCallIds, resultSet);
  const joinClosed =
    missingResultCallIds.length === 0 &&
    orphanResultCallIds.length === 0 &&
    missingUseCallIds.length === 0 &&
    unknownUseCallIds.length === 0;
  const joinState: Mutable<JoinState> = { joinClosed };
  setList(joinState, 'missingResultCallIds', missingResultCallIds);
  setList(joinState, 'missingUseCallIds', missingUseCallIds);
  setList(joinState, 'orphanResultCallIds', orphanResultCallIds);
  setList(joinState, 'requestedCallIds', requestedCallIds);
  setList(joinState, 'resultCallIds', resultCallIds);
  setList(joinState, 'unknownUseCallIds', unknownUseCallIds);
  setList(joinState, 'usedCallIds', usedCallIds);
  return {
    callSpec,
    toolRequests,
    toolResults,
    toolUse,
    requestedCallIds,
    resultCallIds,
    usedCallIds,
    missingResultCallIds,
    orphanResultCallIds,
    missingUseCallIds,
    unknownUseCallIds,
    joinState,
  };
}

/**
 * Normalizes one turn's evidence into `premath.harness.typestate_normalized.v1`: trims and
 * lowercases as premath does, deduplicates and sorts every keyed row set, computes result
 * digests from payloads, derives the join and context state, and binds every surface with a
 * `sha256:` digest. Equivalent inputs (row order, repeats, white space, case of enum fields)
 * give byte-identical output.
 *
 * Source: HARNESS-TYPESTATE §4 (normalization), §5 (join state); DIGESTS.md.
 *
 * @param evidence - Decoded evidence (see {@link decodeJoinCheckInput}).
 * @returns The normalized evidence. Its optional lists are absent when empty.
 * @throws {@link EvidenceInputError} for a blank required field, a string with a lone surrogate, an unknown `status` or
 *   `disposition`, a `discarded_with_reason` row without `reasonCode`, or conflicting rows
 *   that share an id.
 * @throws {@link JsonInputError} when a payload built in code holds a non-finite number or a
 *   lone surrogate.
 * @example
 * ```ts
 * import { decodeJoinCheckInput } from 'turngate/evidence';
 * import { normalizeEvidence } from 'turngate/normalize';
 * const decoded = decodeJoinCheckInput({ evidence: {
 *   callSpec: { callId: 'c', modelRef: 'm', actionMode: 'JSON', executionPattern: 'single',
 *     normalizerId: 'n', mutationPolicyDigest: 'p', governancePolicyDigest: 'g',
 *     toolRenderProtocolDigest: 'r', reminderQueuePolicyDigest: 'q',
 *     stateViewPolicyDigest: 's', decompositionPolicyDigest: 'd' },
 *   protocolState: { stopReason: 'end_turn' },
 * } });
 * if (decoded.ok) normalizeEvidence(decoded.value.evidence).callSpec.actionMode; //=> 'json'
 * ```
 */
export function normalizeEvidence(evidence: EvidenceInput): NormalizedEvidence {
  // Each list read from the join's own fields, never from `joinState` (a list it leaves out
  // would be read from a polluted Object.prototype).
  const {
    callSpec,
    toolRequests,
    toolResults,
    toolUse,
    requestedCallIds,
    resultCallIds,
    usedCallIds,
    missingResultCallIds,
    orphanResultCallIds,
    missingUseCallIds,
    unknownUseCallIds,
    joinState,
  } = normalizeJoin(evidence);
  const toolRender = keyedRowsAt(evidence.toolRender, 'toolRender', 'toolCallId', normalizeRender, (r) => r.toolCallId);
  const reminderQueue = keyedRowsAt(
    evidence.reminderQueue,
    'reminderQueue',
    'queueId',
    normalizeQueue,
    (r) => r.queueId,
  );
  const stateViews = keyedRowsAt(evidence.stateViews, 'stateViews', 'viewId', normalizeStateView, (r) => r.viewId);
  const protocolState = {
    continuationAllowed: evidence.protocolState.continuationAllowed,
    stopReason: asciiLowercase(required(evidence.protocolState.stopReason, 'evidence.protocolState.stopReason')),
  };
  const handoff =
    evidence.handoff === undefined || evidence.handoff === null ? undefined : normalizeHandoff(evidence.handoff);

  const renderCallIds = toolRender.map((r) => r.toolCallId);
  const queueIds = reminderQueue.map((r) => r.queueId);
  const stateViewIds = stateViews.map((r) => r.viewId);
  const renderSet = new Set(renderCallIds);
  const missingRenderCallIds = difference(resultCallIds, renderSet);

  const renderPolicyValid = toolRender.every((r) => r.policyDigest === callSpec.toolRenderProtocolDigest);
  const queuePolicyValid = reminderQueue.every((r) => r.policyDigest === callSpec.reminderQueuePolicyDigest);
  const stateViewPolicyValid = stateViews.every((r) => r.policyDigest === callSpec.stateViewPolicyDigest);
  const queueReductionPresent = reminderQueue.length > 0;
  const stateViewPresent = stateViews.length > 0;
  const continuationContextReady =
    !protocolState.continuationAllowed ||
    (missingRenderCallIds.length === 0 &&
      queueReductionPresent &&
      stateViewPresent &&
      renderPolicyValid &&
      queuePolicyValid &&
      stateViewPolicyValid);

  const requestSetDigest = digest(toolRequests);
  const resultSetDigest = digest(toolResults);
  const useSetDigest = digest(toolUse);
  const toolRenderSetDigest = digest(toolRender);
  const reminderQueueSetDigest = digest(reminderQueue);
  const stateViewSetDigest = digest(stateViews);
  const protocolStateDigest = digest(protocolState);
  const handoffDigest = handoff === undefined ? undefined : digest(handoff);
  // In key order, so the digest takes the engine's writer (an object in another order takes the slower one).
  const joinSetDigest = digest({
    continuationContextReady,
    handoffDigest: handoffDigest ?? null,
    missingRenderCallIds,
    missingResultCallIds,
    missingUseCallIds,
    orphanResultCallIds,
    protocolStateDigest,
    queueIds,
    queuePolicyValid,
    queueReductionPresent,
    reminderQueueSetDigest,
    renderCallIds,
    renderPolicyValid,
    requestSetDigest,
    requestedCallIds,
    resultCallIds,
    resultSetDigest,
    stateViewIds,
    stateViewPolicyValid,
    stateViewPresent,
    stateViewSetDigest,
    toolRenderSetDigest,
    unknownUseCallIds,
    useSetDigest,
    usedCallIds,
  });

  // Built in key order, as the rows are (see above).
  const digests = { callSpecDigest: digest(callSpec) } as Mutable<DigestBundle>;
  setOptional(digests, 'handoffDigest', handoffDigest);
  digests.joinSetDigest = joinSetDigest;
  digests.protocolStateDigest = protocolStateDigest;
  digests.reminderQueueSetDigest = reminderQueueSetDigest;
  digests.requestSetDigest = requestSetDigest;
  digests.resultSetDigest = resultSetDigest;
  digests.stateViewSetDigest = stateViewSetDigest;
  digests.toolRenderSetDigest = toolRenderSetDigest;
  digests.useSetDigest = useSetDigest;

  const contextState = { continuationContextReady } as Mutable<ContextState>;
  setList(contextState, 'missingRenderCallIds', missingRenderCallIds);
  setList(contextState, 'queueIds', queueIds);
  contextState.queuePolicyValid = queuePolicyValid;
  contextState.queueReductionPresent = queueReductionPresent;
  setList(contextState, 'renderCallIds', renderCallIds);
  contextState.renderPolicyValid = renderPolicyValid;
  setList(contextState, 'stateViewIds', stateViewIds);
  contextState.stateViewPolicyValid = stateViewPolicyValid;
  contextState.stateViewPresent = stateViewPresent;

  const sessionRefs = normalizeRefs(evidence.sessionRefs, 'evidence.sessionRefs');
  const trajectoryRefs = normalizeRefs(evidence.trajectoryRefs, 'evidence.trajectoryRefs');
  const normalized = { callSpec, contextState, digests } as Mutable<NormalizedEvidence>;
  setOptional(normalized, 'handoff', handoff);
  normalized.joinState = joinState;
  normalized.kind = NORMALIZED_KIND;
  normalized.protocolState = protocolState;
  if (reminderQueue.length > 0) normalized.reminderQueue = reminderQueue;
  normalized.schema = 1;
  setList(normalized, 'sessionRefs', sessionRefs);
  if (stateViews.length > 0) normalized.stateViews = stateViews;
  if (toolRender.length > 0) normalized.toolRender = toolRender;
  if (toolRequests.length > 0) normalized.toolRequests = toolRequests;
  if (toolResults.length > 0) normalized.toolResults = toolResults;
  if (toolUse.length > 0) normalized.toolUse = toolUse;
  setList(normalized, 'trajectoryRefs', trajectoryRefs);
  return normalized;
}
