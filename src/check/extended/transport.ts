/**
 * Extended checks of tool transport: branch cardinality against the action mode and the
 * parallel policy, call/output order under strict ordering, truncation metadata against the
 * truncation policy, and the stop reason against the protocol state policy. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1 (`parallelPolicy`, `toolTransportPolicy`,
 * `toolResponseTruncationPolicy`, `protocolStatePolicy`), §4.3, §4.5, §5.2-5.3, §8 slices 4, 10.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import { DIRECT_CALLER } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';
import { callerOf } from './tools.ts';

/**
 * `tool.parallel_policy_violation`: more than one call from the model in one json- or
 * text-mode action, more than one when `parallelPolicy.allowed` or the transport's
 * `parallelToolCalls` is false, or more than `parallelPolicy.maxBranches`. Calls made by code
 * inside a code-mode action are not branches.
 */
export function checkBranches(ctx: ExtendedContext, out: FailureCollector): void {
  const branches = [...ctx.requests.values()]
    .filter((r) => callerOf(r.callerId) === DIRECT_CALLER)
    .map((r) => r.toolCallId);
  const count = branches.length;
  const kind = 'tool.parallel_policy_violation';
  const mode = ctx.n.callSpec.actionMode;
  if ((mode === 'json' || mode === 'text') && count > 1) {
    out.add(kind, `${mode} mode: one tool invocation per action, but the model made ${count}.`, branches);
  }
  const policy = ctx.x.callSpec.parallelPolicy;
  if (policy !== undefined && !policy.allowed && count > 1) {
    out.add(kind, `The parallel policy admits no parallel branches, but the model made ${count} calls.`, branches);
  }
  if (policy?.maxBranches !== undefined && count > policy.maxBranches) {
    out.add(
      kind,
      `The parallel policy admits at most ${policy.maxBranches} branches, but the model made ${count}.`,
      branches,
    );
  }
  if (ctx.x.callSpec.toolTransportPolicy?.parallelToolCalls === false && count > 1) {
    out.add(kind, `Parallel tool calls are off in the transport policy, but the model made ${count} calls.`, branches);
  }
}

/** The ids of rows sorted by transport index; `undefined` when a row has none or two share one. */
function transportOrder(
  rows: readonly { readonly toolCallId: string; readonly transportIndex?: number | undefined }[],
): string[] | undefined {
  const indices = new Set<number>();
  for (const row of rows) {
    if (row.transportIndex === undefined || indices.has(row.transportIndex)) return undefined;
    indices.add(row.transportIndex);
  }
  return [...rows].sort((a, b) => (a.transportIndex ?? 0) - (b.transportIndex ?? 0)).map((row) => row.toolCallId);
}

/**
 * `protocol.parallel_transport_order_invalid`, under `toolTransportPolicy.ordering: strict`:
 * every call and every output carries a `transportIndex`, no two on one side share one, and the
 * outputs come back in the order of their calls.
 */
export function checkTransportOrder(ctx: ExtendedContext, out: FailureCollector): void {
  if (ctx.x.callSpec.toolTransportPolicy?.ordering !== 'strict') return;
  const kind = 'protocol.parallel_transport_order_invalid';
  const index = (id: string, side: 'request' | 'result') =>
    (side === 'request' ? ctx.xRequests : ctx.xResults).get(id)?.transportIndex;
  const calls = [...ctx.requests.keys()].map((toolCallId) => ({
    toolCallId,
    transportIndex: index(toolCallId, 'request'),
  }));
  const outputs = [...ctx.results.keys()]
    .filter((id) => ctx.requests.has(id))
    .map((toolCallId) => ({ toolCallId, transportIndex: index(toolCallId, 'result') }));
  const callOrder = transportOrder(calls);
  const outputOrder = transportOrder(outputs);
  if (callOrder === undefined || outputOrder === undefined) {
    const unplaced = [...calls, ...outputs]
      .filter((row) => row.transportIndex === undefined)
      .map((row) => row.toolCallId);
    out.add(kind, 'Strict ordering: every call and output needs its own transportIndex (missing or repeated).', [
      ...new Set(unplaced),
    ]);
    return;
  }
  const answered = new Set(outputOrder);
  const expected = callOrder.filter((id) => answered.has(id));
  const misplaced = outputOrder.filter((id, i) => expected[i] !== id);
  if (misplaced.length > 0) {
    out.add(kind, 'Strict ordering: outputs are not returned in the order of their calls.', misplaced);
  }
}

/**
 * `tool.response_truncation_policy_violation`: a truncated response without a truncation policy,
 * with another marker than the policy's, keeping more than `maxBytes`, not cut in the middle
 * (head and tail both kept), cut though it fit the budget, or with metadata that cuts nothing;
 * and a response over the budget returned whole (`payloadBytes`). Units: UTF-8 bytes; the
 * marker is not counted in the budget.
 */
export function checkTruncation(ctx: ExtendedContext, out: FailureCollector): void {
  const policy = ctx.x.callSpec.toolResponseTruncationPolicy;
  const kind = 'tool.response_truncation_policy_violation';
  for (const row of ctx.xResults.values()) {
    const id = [row.toolCallId];
    const t = row.truncation;
    if (t === undefined) {
      if (policy !== undefined && row.payloadBytes !== undefined && row.payloadBytes > policy.maxBytes) {
        out.add(kind, `A response over the ${policy.maxBytes}-byte budget was returned whole.`, id);
      }
      continue;
    }
    if (policy === undefined) {
      out.add(kind, 'A response was truncated but the CallSpec has no truncation policy.', id);
      continue;
    }
    const kept = t.headBytes + t.tailBytes;
    if (t.marker !== policy.marker) out.add(kind, "A truncated response carries another marker than the policy's.", id);
    if (kept > policy.maxBytes)
      out.add(kind, `A truncated response keeps more than the ${policy.maxBytes}-byte budget.`, id);
    if (t.headBytes === 0 || t.tailBytes === 0)
      out.add(kind, 'A truncated response was not cut in the middle (it must keep a head and a tail).', id);
    if (kept >= t.originalBytes) out.add(kind, "A response's truncation metadata cuts nothing out.", id);
    else if (t.originalBytes <= policy.maxBytes) out.add(kind, 'A response within the budget was truncated.', id);
  }
}

/**
 * `protocol.stop_reason_unhandled` under a `protocolStatePolicy`: a stop reason outside its
 * `handledStopReasons`, or a turn allowed to continue after a stop reason outside `continueOn`.
 * The policy narrows premath's four handled stop reasons; it cannot widen them.
 */
export function checkProtocolStatePolicy(ctx: ExtendedContext, out: FailureCollector): void {
  const policy = ctx.x.callSpec.protocolStatePolicy;
  if (policy === undefined) return;
  const { stopReason, continuationAllowed } = ctx.n.protocolState;
  const handled = policy.handledStopReasons;
  if (handled !== undefined && !handled.includes(stopReason)) {
    out.add(
      'protocol.stop_reason_unhandled',
      `Stop reason \`${stopReason}\` is not one the protocol state policy handles (${handled.join(', ')}).`,
    );
  }
  const continueOn = policy.continueOn;
  if (continueOn !== undefined && continuationAllowed && !continueOn.includes(stopReason)) {
    out.add(
      'protocol.stop_reason_unhandled',
      `The turn may continue after \`${stopReason}\`, but the protocol state policy continues only after ${continueOn.join(', ')}.`,
    );
  }
}
