/**
 * Approvals in the chat harness (harness-chat §8; docs/APPROVALS.md): three nodes for a
 * `sequentialGraph`. `propose` asks for the approvals the policy requires of the last assistant
 * message's mutation calls (that message is the turn's pending message); `wait` suspends while any is
 * undecided; `run`, after the resume, records the decisions the signal carried and runs each
 * call's effect through the ledger (once, however often the signal is delivered, from however
 * many processes), answering every mutation call: its output, or a truthful "not run".
 *
 * @module
 */
import { digest, isBlank, type JsonValue } from '../canonical/index.ts';
import { snapshotOwnData } from '../internal/own-data.ts';
import {
  approvalAnswer,
  type ApprovalLedger,
  type ApprovalPolicy,
  beginGated,
  decideApproval,
  type EffectEntry,
  evaluateApproval,
  readApproval,
  requestApproval,
} from '../typestate/index.ts';
import { recordedAnswer, thrownEnvelope } from '../typestate/internal.ts';
import { type ChatNode, type NodeContext, suspend } from './graph.ts';
import type { ChatMessage, ToolCall } from './messages.ts';
import type { ChatState } from './session-records.ts';

/**
 * What {@link chatApprovals} needs: the policy, the ledger (shared by every process that may
 * resume the turn), the effects it runs per mutation tool, each tool's schema digest, how long a
 * request stays open, and the clock.
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger, defineTools } from 'turngate';
 * import { approvalPolicy } from 'turngate/approvals';
 * import type { ChatApprovalOptions } from 'turngate/chat';
 * import * as v from 'valibot';
 * const tools = defineTools({ send_email: { input: v.object({ to: v.string() }), output: v.null(), mutation: true } });
 * const options: ChatApprovalOptions = {
 *   policy: approvalPolicy(tools, 'v1', { send_email: 'always' }),
 *   ledger: new MemoryEffectLedger(),
 *   effects: { send_email: async () => null },
 *   schemaDigest: () => 'sha256:…',
 * };
 * ```
 */
export interface ChatApprovalOptions {
  /** The approval policy (its version binds every approval). */
  readonly policy: ApprovalPolicy;
  /** Where requests, decisions and effects are recorded. */
  readonly ledger: ApprovalLedger;
  /** The effect of each mutation tool these nodes answer (its input is the call's arguments). */
  readonly effects: Readonly<Record<string, (input: unknown) => unknown>>;
  /** The digest of a tool's definition (its input schema): an approval is bound to it. */
  readonly schemaDigest: (toolName: string) => string;
  /** How long a request stays open, in milliseconds; default 86,400,000 (a day). */
  readonly ttlMs?: number;
  /** The clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A decision as the resume signal carries it, per tool call id, in the payload's `decisions`
 * field: `harness.signal(signalId, { decisions: { call_1: { verdict: 'approve', decidedBy: 'ada' } } })`.
 *
 * @example
 * ```ts
 * import type { ChatDecision } from 'turngate/chat';
 * const decision: ChatDecision = { verdict: 'deny', reason: 'wrong recipient', decidedBy: 'ada' };
 * ```
 */
export interface ChatDecision {
  /** `approve` runs the call's effect (once); `deny` answers it "not run: declined by ...". */
  readonly verdict: 'approve' | 'deny';
  /** Why, recorded with the decision and quoted in a denial's answer; default `''`. */
  readonly reason?: string;
  /**
   * Who decided (non-blank), recorded with the decision. A decision without it, or with another
   * verdict, is not read: the call stays undecided.
   */
  readonly decidedBy: string;
}

/** The three nodes of {@link chatApprovals}. */
export interface ChatApprovalNodes {
  /** Asks for the required approvals, listed in the state's `approvals` (harness-chat §8.1's upstream node). */
  readonly propose: ChatNode;
  /** Suspends while an approval is undecided (the downstream node that calls `suspend`). */
  readonly wait: ChatNode;
  /** Records the signal's decisions and answers every mutation call of the last assistant message. */
  readonly run: ChatNode;
}

/** The mutation calls of the last assistant message that no tool message answers yet. */
function openCalls(state: ChatState, effects: ChatApprovalOptions['effects']): ToolCall[] {
  const messages = state.messages;
  let at = messages.length - 1;
  while (at >= 0 && messages[at]?.role === 'tool') at--;
  const assistant = messages[at];
  if (assistant?.role !== 'assistant') return [];
  const answered = new Set(messages.slice(at + 1).map((m) => (m.role === 'tool' ? m.tool_call_id : '')));
  return (assistant.tool_calls ?? []).filter((c) => Object.hasOwn(effects, c.name) && !answered.has(c.id));
}

const argumentsOf = (call: ToolCall): JsonValue => (call.arguments ?? {}) as JsonValue;

/**
 * The ledger key of a chat tool call: a digest of the session, the call id, the tool and the
 * digest of its input. The one home of this rule (the nodes and the tests that read the ledger
 * call it); not exported from `turngate/chat`.
 */
export function chatCallKey(session: string, call: ToolCall): string {
  const inputDigest = digest(argumentsOf(call));
  return digest({ kind: 'chat_tool_call', session, toolCallId: call.id, toolName: call.name, inputDigest });
}

/** The effect entry of a call: keyed by {@link chatCallKey}, with the digest of its sibling calls. */
function entryOf(call: ToolCall, context: NodeContext, state: ChatState): EffectEntry {
  const inputDigest = digest(argumentsOf(call));
  const session = context.sessionId ?? '';
  const assistant = state.messages.findLast(
    (m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.id === call.id),
  );
  const calls = assistant?.role === 'assistant' ? (assistant.tool_calls ?? []) : [];
  // biome-ignore lint/plugin: the tool calls of a ChatMessage the harness checked are JSON data (harness-chat §3.1)
  const callsJson = calls as unknown as JsonValue;
  return {
    key: chatCallKey(session, call),
    toolCallId: call.id,
    toolName: call.name,
    inputDigest,
    joinSetDigest: digest(callsJson),
  };
}

function decisionsOf(state: ChatState): Readonly<Record<string, ChatDecision>> {
  const raw = state['decisions'];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, ChatDecision> = {};
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object') continue;
    const { verdict, reason, decidedBy } = value as Record<string, unknown>;
    if ((verdict !== 'approve' && verdict !== 'deny') || typeof decidedBy !== 'string' || isBlank(decidedBy)) continue;
    out[id] = { verdict, decidedBy, reason: typeof reason === 'string' ? reason : '' };
  }
  return out;
}

/** The request digest of each approval the turn suspended on, by tool call id (the state's `approvals`). */
function askedOf(state: ChatState): ReadonlyMap<string, string> {
  const asked = new Map<string, string>();
  const approvals: unknown = state['approvals'];
  if (!Array.isArray(approvals)) return asked;
  for (const a of approvals as unknown[]) {
    if (a === null || typeof a !== 'object') continue;
    const { toolCallId, requestDigest } = a as Record<string, unknown>;
    if (typeof toolCallId === 'string' && typeof requestDigest === 'string') asked.set(toolCallId, requestDigest);
  }
  return asked;
}

const text = (value: unknown): string => JSON.stringify(value) ?? 'null';

/**
 * The nodes that put a person's approval between a model's mutation call and its effect, in a
 * chat graph: `model → propose → wait → run → model`, with the read tools answered before
 * `propose`. The pending approvals are in the state's `approvals` field and in the suspension's
 * metadata; the resume signal's payload carries `decisions` per tool call id
 * ({@link ChatDecision}): the decision comes from the application's signal, never from the
 * messages a client sends. A call the policy denies, a declined, expired or stale approval is
 * answered "not run: ..." (`approvalAnswer`); an effect already recorded is answered from its
 * record. Source: harness-chat §8.1, §8.2; docs/APPROVALS.md.
 *
 * @param options - The policy, ledger, effects, schema digests, request lifetime and clock.
 * @returns The three nodes.
 * @throws TypeError for a `ttlMs` that is not a positive number.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MemoryEffectLedger, defineTools } from 'turngate';
 * import { approvalPolicy } from 'turngate/approvals';
 * import { chatApprovals, sequentialGraph } from 'turngate/chat';
 * const tools = defineTools({ send_email: { input: v.object({ to: v.string() }), output: v.null(), mutation: true } });
 * const { propose, wait, run } = chatApprovals({
 *   policy: approvalPolicy(tools, 'v1', { send_email: 'always' }),
 *   ledger: new MemoryEffectLedger(),
 *   effects: { send_email: async () => null },
 *   schemaDigest: () => 'sha256:send_email-v1',
 * });
 * const graph = sequentialGraph({
 *   entry: 'model',
 *   nodes: { model: () => ({ messages: [{ role: 'assistant', content: [], tool_calls: [{ id: 'c1', name: 'send_email', arguments: { to: 'bob@example.com' } }] }] }), propose, wait, run },
 *   edges: [{ from: 'model', to: 'propose' }, { from: 'propose', to: 'wait' }, { from: 'wait', to: 'run' }],
 * });
 * ```
 */
export function chatApprovals(options: ChatApprovalOptions): ChatApprovalNodes {
  const ttlMs = options.ttlMs ?? 86_400_000;
  if (typeof ttlMs !== 'number' || !(ttlMs > 0))
    throw new TypeError('chatApprovals: ttlMs: expected a positive number');
  const settings: Settings = { ...options, ttlMs, now: options.now ?? Date.now };
  return { propose: proposeNode(settings), wait, run: runNode(settings) };
}

/** The options with their defaults. */
interface Settings extends ChatApprovalOptions {
  readonly ttlMs: number;
  readonly now: () => number;
}

/** What a policy function is told of a call. */
const contextOf = (call: ToolCall, context: NodeContext) => ({
  toolCallId: call.id,
  toolName: call.name,
  ...(context.sessionId !== undefined && { sessionId: context.sessionId }),
});

function proposeNode({ policy, ledger, effects, schemaDigest, ttlMs, now }: Settings): ChatNode {
  return async (state, context) => {
    const asked = [];
    for (const call of openCalls(state, effects)) {
      if (evaluateApproval(policy, call.name, argumentsOf(call), contextOf(call, context)) !== 'required') continue;
      const at = now();
      const entry = entryOf(call, context, state);
      const record = await requestApproval(ledger, {
        key: entry.key,
        toolCallId: call.id,
        toolName: call.name,
        inputDigest: entry.inputDigest,
        policyVersion: policy.version,
        schemaDigest: schemaDigest(call.name),
        reason: `policy ${policy.version} asks a person before ${call.name} runs`,
        createdAt: at,
        expiresAt: at + ttlMs,
      });
      if (record.ok && record.value.state === 'awaiting_approval') {
        const { key, requestDigest, toolCallId, toolName, reason, expiresAt } = record.value;
        asked.push({ key, requestDigest, toolCallId, toolName, reason, expiresAt });
      }
    }
    // The pending message is the assistant's tool-call message itself (harness-chat §8.1: "an
    // assistant tool-call message describing the action awaiting approval"): a text message
    // after it would leave its calls unanswered before the next assistant message.
    return { approvals: asked };
  };
}

const wait: ChatNode = (state, context) => {
  const approvals = Array.isArray(state['approvals'])
    ? (state['approvals'] as readonly { toolCallId?: unknown }[])
    : [];
  const decided = decisionsOf(state);
  const open = approvals.filter((a) => typeof a.toolCallId !== 'string' || decided[a.toolCallId] === undefined);
  if (open.length === 0) return undefined;
  return suspend({
    signal_id: `approval:${context.sessionId ?? ''}:${context.invocationId}`,
    // biome-ignore lint/plugin: the state's fields are JSON data (the harness checks them at every save)
    metadata: { approvals: open as unknown as JsonValue },
  });
};

function runNode(settings: Settings): ChatNode {
  return async (state, context) => {
    const decisions = decisionsOf(state);
    const answers: ChatMessage[] = [];
    for (const call of openCalls(state, settings.effects)) {
      const entry = entryOf(call, context, state);
      const decision = decisions[call.id];
      const seen = askedOf(state).get(call.id);
      if (decision !== undefined && seen !== undefined) {
        const held = await readApproval(settings.ledger, entry.key);
        // The decision is of the request the turn suspended on: recorded only while that request
        // is the one held (asked again since, under another policy, it decides nothing); a
        // conflicting one changes nothing either.
        if (held?.ok && held.value.requestDigest === seen)
          await decideApproval(settings.ledger, held.value, { reason: '', ...decision, decidedAt: settings.now() });
      }
      answers.push({ role: 'tool', tool_call_id: call.id, content: await answer(settings, call, entry, context) });
    }
    return { messages: answers, approvals: [], decisions: {} };
  };
}

/** Runs one call's effect through the gate: its output, its recorded answer, or why it did not run. */
async function answer(
  { policy, ledger, effects, schemaDigest, now }: Settings,
  call: ToolCall,
  entry: EffectEntry,
  context: NodeContext,
): Promise<string> {
  const claim = await beginGated(policy, ledger, call.name, entry, {
    input: argumentsOf(call),
    context: contextOf(call, context),
    schemaDigest: schemaDigest(call.name),
    now: now(),
  });
  if (!claim.claimed) {
    if ('refused' in claim) return approvalAnswer(claim.refused).errorMessage;
    const recorded = recordedAnswer(claim.record);
    return recorded.status === 'ok' ? text(recorded.output) : text(recorded.error);
  }
  try {
    const output: unknown = await (effects[call.name] as (input: unknown) => unknown)(argumentsOf(call));
    const json = snapshotOwnData(output);
    const recorded = json.ok ? (json.value as JsonValue) : null;
    await ledger.finish(entry.key, { state: 'completed', output: recorded });
    return text(recorded);
  } catch (error) {
    const envelope = thrownEnvelope(error, 'mutation_failed', call.name);
    await ledger.finish(entry.key, { state: 'failed', error: envelope });
    return text(envelope);
  }
}
