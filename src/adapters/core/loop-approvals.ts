/**
 * Approvals in the tool loop: which mutating calls of a closed turn wait for a person's yes (the
 * policy's verdict, then the approval record under the call's effect key), the requests asked for
 * them, and the decisions `resume` records. The rules are the typestate layer's
 * (`requestApproval`, `decideApproval`, `approvalVerdict`; docs/APPROVALS.md); the gate consumes
 * an approval when it claims the effect. Internal.
 *
 * @module
 */
import {
  type AdmitOptions,
  type ApprovalLedger,
  type ApprovalRecord,
  approvalVerdict,
  decideApproval,
  evaluateApproval,
  type JoinClosed,
  type MutationIntent,
  readApproval,
  requestApproval,
  type ToolDefinitions,
} from '../../typestate/index.ts';
import type { RecordedReply } from './codec.ts';
import type { ApprovalAnswer, LoopContext, WaitingState } from './loop-types.ts';

/** How long an approval request stands by default: 24 hours. */
const DEFAULT_EXPIRES_IN_MS = 24 * 60 * 60 * 1000;

/**
 * The approval requests the closed turn's mutating calls wait for: for each call whose rule
 * answers `required` and whose record is missing, undecided, expired or of another policy or
 * schema, the request asked (or the one already standing). Empty when nothing waits.
 */
export async function waitingApprovals(
  ctx: LoopContext,
  closed: JoinClosed<ToolDefinitions>,
  admit: AdmitOptions,
): Promise<ApprovalRecord[]> {
  const policy = ctx.options.approvals;
  if (policy === undefined) return [];
  const ledger = ctx.ledger as ApprovalLedger;
  const pending = new Set(closed.pendingMutations);
  const inputs = new Map(closed.requests.map((r) => [r.toolCallId, r.input]));
  const now = Date.now();
  const waiting: ApprovalRecord[] = [];
  for (const intent of closed.intents) {
    if (intent.kind !== 'tool_call' || !pending.has(intent.toolCallId)) continue;
    const context = { toolCallId: intent.toolCallId, toolName: intent.toolName, sessionId: ctx.scope };
    if (evaluateApproval(policy, intent.toolName, inputs.get(intent.toolCallId), context) !== 'required') continue;
    const record = await waitFor(ctx, ledger, intent, admit, now);
    if (record !== undefined) waiting.push(record);
  }
  return waiting;
}

/** The request one call waits for, or `undefined` when its record decides it (approved, or denied). */
async function waitFor(
  ctx: LoopContext,
  ledger: ApprovalLedger,
  intent: MutationIntent & { readonly kind: 'tool_call' },
  admit: AdmitOptions,
  now: number,
): Promise<ApprovalRecord | undefined> {
  const policy = ctx.options.approvals as NonNullable<LoopContext['options']['approvals']>;
  const key = (admit.idempotencyKey as (i: MutationIntent) => string)(intent);
  const schemaDigest = ctx.schemaDigests.get(intent.toolName) ?? '';
  const entry = { key, toolCallId: intent.toolCallId, toolName: intent.toolName, inputDigest: intent.inputDigest };
  // An effect already recorded is the gate's to replay: nothing to ask.
  if ((await ledger.read(key)) !== undefined) return undefined;
  const held = await readApproval(ledger, key);
  if (held?.ok === true) {
    const failure = approvalVerdict(held.value, entry, { policyVersion: policy.version, schemaDigest, now });
    // Approved and current, or denied: the gate runs or refuses it now.
    if (failure === undefined || failure.class === 'approval.denied') return undefined;
    if (failure.class === 'approval.pending') return held.value;
  }
  const asked = await requestApproval(ledger, {
    ...entry,
    policyVersion: policy.version,
    schemaDigest,
    reason: `${intent.toolName} needs approval under policy ${policy.version}`,
    createdAt: now,
    expiresAt: now + (ctx.options.approvalExpiresInMs ?? DEFAULT_EXPIRES_IN_MS),
  });
  // A record that cannot be asked again (another intent under the key, unreadable) is the gate's to refuse.
  return asked.ok && asked.value.state === 'awaiting_approval' ? asked.value : undefined;
}

/** The state a waiting step gives `resume`. */
export function waitingState(
  history: readonly unknown[],
  reply: RecordedReply,
  approvals: ApprovalRecord[],
): WaitingState {
  return {
    kind: 'turngate.waiting-for-approval',
    history: JSON.parse(JSON.stringify(history)),
    reply,
    approvals: JSON.parse(JSON.stringify(approvals)),
  };
}

/**
 * Records each decision on the request the waiting step showed. A decision the ledger refuses
 * (another decision came first, the request expired or changed) records nothing: the gate then
 * answers the call from the record it holds.
 *
 * @throws TypeError when `state` is not a waiting state or a decision names no waiting call.
 */
export async function recordDecisions(
  ctx: LoopContext,
  state: WaitingState,
  decisions: readonly ApprovalAnswer[],
): Promise<void> {
  if (
    state === null ||
    typeof state !== 'object' ||
    state.kind !== 'turngate.waiting-for-approval' ||
    !Array.isArray(state.approvals) ||
    !Array.isArray(state.history)
  ) {
    throw new TypeError("resume: state: expected a waiting step's state (kind 'turngate.waiting-for-approval')");
  }
  if (!Array.isArray(decisions))
    throw new TypeError('resume: decisions: expected a list of { toolCallId, verdict, reason, decidedBy }');
  const ledger = ctx.ledger as ApprovalLedger;
  for (const [index, decision] of decisions.entries()) {
    const seen = state.approvals.find((a) => a.toolCallId === decision?.toolCallId);
    if (seen === undefined) {
      throw new TypeError(
        `resume: decisions[${index}].toolCallId: expected one of the waiting calls (${state.approvals.map((a) => a.toolCallId).join(', ')}), got ${JSON.stringify(decision?.toolCallId)}`,
      );
    }
    await decideApproval(ledger, seen, {
      verdict: decision.verdict,
      reason: decision.reason,
      decidedBy: decision.decidedBy,
      decidedAt: Date.now(),
    });
  }
}
