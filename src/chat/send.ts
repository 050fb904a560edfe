/**
 * The send path of the chat harness: a send checked before the store is touched (the session id,
 * the idempotency key, the message), then the turn it runs holding the session (the idempotency
 * lookup, the inbound message against the open tool calls and the suspension, the graph).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { digest } from '../canonical/index.ts';
import { firstFailure } from '../failures/internal.ts';
import { oneLine } from '../internal/display.ts';
import { deepFreeze } from '../internal/freeze.ts';
import { own } from '../internal/own-field.ts';
import { acceptMessage, chatState, unusableId } from './boundary.ts';
import type { RecordCache } from './cache.ts';
import type { ChatMessage } from './messages.ts';
import type { ChatTurnOutcome, DispatchPath, ErroredOutcomes } from './outcome.ts';
import type { Suspension } from './session-records.ts';
import { type LockedSession, type SendRecord, suspensionOf } from './store.ts';
import { type Hold, outcomeOf, runTurn, type TurnRunnerDeps } from './turn.ts';

/**
 * Options of one `send`.
 *
 * @example
 * ```ts
 * import type { SendOptions } from 'turngate/chat';
 * const options: SendOptions = { idempotencyKey: 'msg-7f3a' };
 * ```
 */
export interface SendOptions {
  /**
   * Makes the send safe to retry: the store keeps the turn's outcome under this key (per
   * session, in the same atomic save as the turn), and a send with the same key and the same
   * message returns that outcome (`replayed: true`) instead of running the turn again. Use the
   * id your client gives the message (a request id, a message id). The same key with another
   * message is refused (`harness_idempotency_key_reused`). A non-empty string of well-formed
   * text, at most 256 UTF-16 code units. An errored turn saved nothing, so its retry runs.
   */
  readonly idempotencyKey?: string;
}

/** What every send of one harness shares. */
export interface SendContext {
  readonly deps: TurnRunnerDeps;
  /** Holds a session for a turn (see `holdSessions`). */
  readonly hold: Hold;
  /** The initial state of a new session (frozen JSON data). */
  readonly initialState: Readonly<Record<string, unknown>>;
  /** Whether the store tells a session's version without loading it. */
  readonly hasVersion: boolean;
}

/**
 * One `send`: checks the session id, the idempotency key and the message (each a
 * `user_correctable` refusal), then runs the turn holding the session. Never rejects: a thrown
 * error becomes an `errored` outcome.
 *
 * @param context - What the harness's sends share.
 * @param sessionId - The session, as the caller gave it.
 * @param message - The inbound message, as the caller gave it.
 * @param sendOptions - The send's options, as the caller gave them.
 */
export async function sendMessage(
  context: SendContext,
  sessionId: string,
  message: unknown,
  sendOptions: SendOptions | undefined,
): Promise<ChatTurnOutcome> {
  const { errors } = context.deps;
  try {
    if (unusableId(sessionId)) {
      const detail = 'the session id must be a non-empty string of well-formed text';
      return errors.refuse('harness_session_id_unresolved', detail);
    }
    const key = sendOptions === undefined || sendOptions === null ? undefined : own(sendOptions, 'idempotencyKey');
    if (key !== undefined && (unusableId(key) || (key as string).length > 256)) {
      const detail = 'the idempotency key must be a non-empty string of well-formed text, at most 256 characters';
      return errors.refuse('harness_idempotency_key_invalid', detail);
    }
    const accepted = acceptMessage(message, '');
    if (!accepted.ok) {
      const refusal = firstFailure(accepted);
      return errors.refuse('chat_message_shape_invalid', refusal.diagnostic, { full: refusal.detail });
    }
    const inbound = deepFreeze(accepted.value);
    const send = key === undefined ? undefined : { key: key as string, messageDigest: digest(inbound) };
    return await context.hold(
      sessionId,
      undefined,
      (session) => sendTurn(context, session, sessionId, inbound, send),
      send?.key,
    );
  } catch (error) {
    return errors.fromError(error);
  }
}

/**
 * The turn of a send, holding the session: loads it, answers a retried send from its kept
 * outcome, refuses an inbound message the history cannot take, and runs the graph.
 */
async function sendTurn(
  context: SendContext,
  session: LockedSession,
  sessionId: string,
  message: ChatMessage,
  send: Omit<SendRecord, 'outcome'> | undefined,
): Promise<ChatTurnOutcome> {
  const { deps, initialState } = context;
  const { errors } = deps;
  let record: Awaited<ReturnType<RecordCache['load']>>;
  let sent: SendRecord | undefined;
  try {
    record = await deps.cache.load(sessionId, session, context.hasVersion);
    if (send !== undefined) {
      if (session.findSend === undefined) {
        const detail = 'the session store keeps no idempotency keys (it has no findSend)';
        return errors.refuse('harness_idempotency_unsupported', detail);
      }
      sent = await session.findSend(send.key);
    }
  } catch (error) {
    return errors.make('session_load_failed', undefined, error);
  }
  if (sent !== undefined) {
    if (sent.messageDigest !== send?.messageDigest) {
      const detail = 'the idempotency key was used before with another message';
      return errors.refuse('harness_idempotency_key_reused', detail, { ids: [sent.key] });
    }
    return outcomeOf(sent.outcome, record?.state ?? chatState(initialState, []), true);
  }
  const history = record?.state.messages ?? [];
  const path: DispatchPath = history.length === 0 ? '3.1' : '3.2';
  const suspension = record === undefined ? undefined : suspensionOf(record);
  const refused = refuseInbound(errors, message, suspension, path);
  if (refused !== undefined) return refused;
  // One exact copy (concat copies a packed array at once; a spread iterates and regrows).
  const state = chatState(record?.state ?? initialState, history.concat([message]));
  return runTurn(deps, {
    sessionId,
    session,
    record,
    state,
    inbound: [message],
    path,
    invocationId: randomUUID(),
    resume: undefined,
    ...(send === undefined ? {} : { send }),
  });
}

/**
 * The refusal of an inbound message that would leave the history invalid, or `undefined`: a tool
 * reply to no open tool call, a new message while tool calls are open, a new message while the
 * turn is suspended.
 */
function refuseInbound(
  errors: ErroredOutcomes,
  message: ChatMessage,
  suspension: Suspension | undefined,
  path: DispatchPath,
): ChatTurnOutcome | undefined {
  const open = suspension?.openToolCalls ?? [];
  if (message.role === 'tool') {
    if (!open.some((call) => call.id === message.tool_call_id)) {
      // The id is the sender's own input, so the reply may name it (bounded, controls escaped).
      const detail = `tool_call_id ${oneLine(message.tool_call_id, 80)} answers no open tool call of this conversation`;
      return errors.refuse('chat_message_shape_invalid', detail, { ids: [message.tool_call_id], path });
    }
  } else if (open.length > 0) {
    const detail = 'this conversation is waiting for the result of a tool call';
    const ids = open.map((call) => call.id);
    return errors.refuse('chat_message_shape_invalid', detail, { ids, path });
  } else if (suspension !== undefined) {
    const detail = 'this conversation is waiting for an approval or another event before it can take a new message';
    const ids = [suspension.descriptor.signal_id];
    return errors.refuse('harness_path_classification_ambiguous', detail, { ids, path });
  }
  return undefined;
}
