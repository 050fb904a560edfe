/**
 * The turn runner: invoke the graph, check what it produced, save, and build the outcome.
 * Internal.
 *
 * @module
 */
import { deepFreeze } from '../internal/freeze.ts';
import { own, ownField } from '../internal/own-field.ts';
import { acceptJson, acceptMessage, chatState, unusableId } from './boundary.ts';
import type { RecordCache } from './cache.ts';
import { checkTranscript } from '../transcripts/index.ts';
import type { FailureClass, Result } from '../failures/index.ts';
import { ChatError, GRAPH_PROGRAMMING_ERROR } from './errors.ts';
import type { ChatGraph, GraphOutcome, ResumeRequest } from './graph.ts';
import type { ChatMessage, ToolCall } from './messages.ts';
import { completedOutcome, type DispatchPath, type ErroredOutcomes, type ChatTurnOutcome } from './outcome.ts';
import type { SessionQueue } from './queue.ts';
import {
  type LockedSession,
  lockedView,
  type SaveOptions,
  type SendRecord,
  type SessionLockOptions,
  type SessionStore,
  type StoredSendOutcome,
  suspensionOf,
} from './store.ts';
import type { ChatState, SessionRecord, SignalDescriptor, Suspension } from './session-records.ts';
import { SessionWriteConflict, SignalIdInUse } from './store-errors.ts';
import { firstFailure, joinDetails } from '../failures/internal.ts';

/** Runs a turn body with the session held, and turns a failure to hold it into an outcome. */
export type Hold = (
  sessionId: string,
  path: DispatchPath | undefined,
  body: (session: LockedSession) => Promise<ChatTurnOutcome>,
  sendKey?: string,
) => Promise<ChatTurnOutcome>;

/**
 * How a harness holds a session for a turn: first in this process (the queue: one turn at a time,
 * in call order), then in the store (`withSessionLock`, across processes when the store can).
 * The store is told the version of the record the cache holds and the send's idempotency key, so
 * it can read what the turn needs while taking the session. The body never throws; a rejection
 * is the store failing to hold or open the session (`session_load_failed`; bucket
 * `retryable_transient` when the store says it is unavailable for now).
 *
 * @param queue - The harness's per-session queue.
 * @param store - The store.
 * @param errors - How errored outcomes are built.
 * @param cache - The harness's record cache.
 */
export function holdSessions(
  queue: SessionQueue,
  store: SessionStore,
  errors: ErroredOutcomes,
  cache: RecordCache,
): Hold {
  return (sessionId, path, body, sendKey) =>
    queue.run(sessionId, async () => {
      try {
        if (store.withSessionLock === undefined) return await body(lockedView(store, sessionId));
        const knownVersion = cache.versionOf(sessionId);
        const options: SessionLockOptions = {
          ...(knownVersion === undefined ? {} : { knownVersion }),
          ...(sendKey === undefined ? {} : { sendKey }),
        };
        return await store.withSessionLock(sessionId, body, options);
      } catch (error) {
        return errors.make('session_load_failed', undefined, error, path);
      }
    });
}

/** What every turn of one harness shares. */
export interface TurnRunnerDeps {
  readonly graph: ChatGraph;
  readonly cache: RecordCache;
  readonly errors: ErroredOutcomes;
  /** This harness's id, written to the resume log. */
  readonly harnessId: string;
}

/** One turn: where it runs and what it starts from. */
export interface TurnContext {
  readonly sessionId: string;
  /** The session, held for this turn. */
  readonly session: LockedSession;
  /** The record the turn starts from (`undefined`: a new session). */
  readonly record: SessionRecord | undefined;
  /** The state the graph is invoked with: the record's, plus the inbound message. */
  readonly state: ChatState;
  /** The inbound message (`[]` on a resume). */
  readonly inbound: readonly ChatMessage[];
  readonly path: DispatchPath;
  readonly invocationId: string;
  /** Set on a resume: how to continue, and the signal that resumed. */
  readonly resume: (ResumeRequest & { readonly signalId: string }) | undefined;
  /** Set on a send with an idempotency key: the key and the inbound message's digest, kept with the save. */
  readonly send?: Omit<SendRecord, 'outcome'>;
}

/** What the graph produced, checked: plain JSON copies only this session holds, frozen. */
interface CheckedRun {
  readonly state: ChatState;
  /** How many leading messages are the invoked state's own (same objects). */
  readonly kept: number;
  readonly suspended: { readonly descriptor: SignalDescriptor; readonly node: string } | undefined;
}

/** A turn's new history that a provider would reject: every failure of the transcript check. */
interface ClosureFailure {
  readonly class: FailureClass;
  readonly detail: string;
  readonly ids: readonly string[];
  /** Every failure, in message order: class, rule (`chat.tool_result_not_adjacent`, ...), ids, position, fix. */
  readonly failures: readonly unknown[];
}

/**
 * The closure check: the one place the harness decides whether a turn's history is closed. It is
 * the transcripts layer's `chat` check over the new messages (the inbound one first), with the
 * calls a suspension left open standing before them: pairing, position and uniqueness rules as
 * a provider applies them. A suspending turn is checked as `received` (its last assistant
 * message's calls may stay open); any other as `sendable`.
 */
function closureOf(
  carried: readonly ToolCall[],
  tail: readonly ChatMessage[],
  suspended: boolean,
): Result<readonly ToolCall[], ClosureFailure> {
  const report = checkTranscript(tail, {
    format: 'chat',
    expect: suspended ? 'received' : 'sendable',
    openToolCalls: carried,
  });
  if (report.result === 'invalid') {
    // Every message was validated as a ChatMessage before this point; say what broke if one was not.
    const detail = `the turn's messages are not chat messages: ${report.error.message}`;
    return { ok: false, failures: [{ class: 'tool.schema_invalid', detail, ids: [], failures: [] }] };
  }
  if (report.result === 'rejected') {
    const [first] = report.failures;
    const detail = joinDetails(report.failures.map((f) => f.detail));
    const ids = [...new Set(report.failures.flatMap((f) => f.ids))].sort();
    return {
      ok: false,
      failures: [{ class: first?.class ?? 'tool.schema_invalid', detail, ids, failures: report.failures }],
    };
  }
  if (report.openToolCalls.length === 0) return { ok: true, value: [] };
  const open = new Set(report.openToolCalls.map((call) => call.id));
  const calls = [...carried, ...tail.flatMap((m) => (m.role === 'assistant' ? (own(m, 'tool_calls') ?? []) : []))];
  return { ok: true, value: calls.filter((call) => open.has(call.id)) };
}

function programmingError(detail: string): ChatError {
  return new ChatError(GRAPH_PROGRAMMING_ERROR, detail);
}

/**
 * Checks a graph's result (it may come from any `ChatGraph`): its shape, every message it added
 * (a `ChatMessage`), every other state field (JSON data), the descriptor of a suspension.
 * Returns plain frozen copies, or throws a `graph_programming_error` naming the field.
 */
function checkRun(result: GraphOutcome, invoked: ChatState): CheckedRun {
  const kind = ownField(result, 'outcome');
  const state = ownField(result, 'state');
  const messages = ownField(state, 'messages');
  if ((kind !== 'completed' && kind !== 'suspended') || !Array.isArray(messages))
    throw programmingError('the graph returned no outcome with state.messages');
  const base = invoked.messages;
  let kept = 0;
  if (own(result, 'appendOnly') === true && messages.length >= base.length) kept = base.length;
  else while (kept < base.length && kept < messages.length && messages[kept] === base[kept]) kept++;
  const added: ChatMessage[] = [];
  for (let index = kept; index < messages.length; index++) {
    const accepted = acceptMessage(messages[index], `messages[${index}]`);
    if (!accepted.ok) throw programmingError(`the graph produced an invalid message: ${firstFailure(accepted).detail}`);
    added.push(deepFreeze(accepted.value));
  }
  // The kept prefix and the new messages in one exact copy (the history is copied once per turn).
  const out = (kept === base.length ? base : base.slice(0, kept)).concat(added);
  const fields: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(state as object)) {
    if (key === 'messages') continue;
    const accepted = acceptJson((state as Record<string, unknown>)[key], key, key);
    if (!accepted.ok)
      throw programmingError(`the graph produced state that is not JSON data: ${firstFailure(accepted).detail}`);
    if (accepted.value !== undefined) fields[key] = deepFreeze(accepted.value);
  }
  const checked = chatState(fields, out);
  if (kind === 'completed') return { state: checked, kept, suspended: undefined };
  const descriptor = acceptJson(ownField(result, 'descriptor'), 'descriptor', 'the signal descriptor');
  const signalId = descriptor.ok ? ownField(descriptor.value, 'signal_id') : undefined;
  const metadata = descriptor.ok ? ownField(descriptor.value, 'metadata') : undefined;
  const node = ownField(result, 'node');
  if (!descriptor.ok)
    throw programmingError(`the graph suspended with an invalid descriptor: ${firstFailure(descriptor).detail}`);
  if (unusableId(signalId))
    throw programmingError('the graph suspended without a usable signal_id (a non-empty string of well-formed text)');
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)))
    throw programmingError('the graph suspended with descriptor.metadata that is not an object');
  if (typeof node !== 'string') throw programmingError('the graph suspended without naming its node');
  return { state: checked, kept, suspended: { descriptor: deepFreeze(descriptor.value) as SignalDescriptor, node } };
}

/** The category of a failed save: the store's own (a conflict, a signal in use), or persistence. */
function saveFailureCategory(error: unknown, suspending: boolean): string {
  if (error instanceof SessionWriteConflict || error instanceof SignalIdInUse) return error.code;
  return suspending ? 'suspension_persistence_failed' : 'session_save_failed';
}

/**
 * Runs one turn: invokes the graph, checks what it produced (shapes, JSON data, closure), saves
 * the session with its suspension in one `save`, and returns the outcome. Never throws: every
 * failure is an errored outcome that saved nothing.
 *
 * @param deps - What the harness's turns share.
 * @param context - This turn.
 */
export async function runTurn(deps: TurnRunnerDeps, context: TurnContext): Promise<ChatTurnOutcome> {
  const { sessionId, record, state, path, invocationId } = context;
  let checked: CheckedRun;
  try {
    const resume = own(context, 'resume');
    const result =
      resume === undefined
        ? await deps.graph.invoke(state, { invocationId, sessionId })
        : await deps.graph.invoke(state, {
            invocationId,
            sessionId,
            resume: { invocationId: resume.invocationId, node: resume.node, signalPayload: resume.signalPayload },
          });
    checked = checkRun(result, state);
  } catch (error) {
    return deps.errors.fromError(error, path);
  }
  const preLength = state.messages.length;
  const tail = checked.state.messages.slice(preLength);
  const carried = record === undefined ? [] : (suspensionOf(record)?.openToolCalls ?? []);
  const suspended = own(checked, 'suspended');
  const resume = own(context, 'resume');
  const closure = closureOf(carried, [...context.inbound, ...tail], suspended !== undefined);
  if (!closure.ok) {
    const { class: failureClass, detail, ids, failures } = firstFailure(closure);
    return deps.errors.make(failureClass, undefined, { class: failureClass, detail, ids, failures }, path);
  }
  const suspension: Suspension | undefined =
    suspended === undefined
      ? undefined
      : deepFreeze({
          invocationId,
          node: suspended.node,
          descriptor: suspended.descriptor,
          openToolCalls: closure.value,
        });
  const next: Omit<SessionRecord, 'version'> =
    suspension === undefined ? { state: checked.state } : { state: checked.state, suspension };
  const version = record?.version ?? 0;
  const history = record?.state.messages.length ?? 0;
  const resumed =
    resume !== undefined && suspension === undefined
      ? { signalId: resume.signalId, invocationId, resumedBy: deps.harnessId, replies: tail }
      : undefined;
  const stored: StoredSendOutcome =
    suspension === undefined
      ? { outcome: 'completed', replies: tail, dispatchPath: path }
      : {
          outcome: 'suspended',
          signalDescriptor: suspension.descriptor,
          pendingMessages: tail,
          invocationId,
          dispatchPath: path,
        };
  const send = own(context, 'send');
  const options: SaveOptions = {
    ...(record !== undefined && checked.kept >= history ? { unchangedPrefix: history } : {}),
    ...(resumed === undefined ? {} : { resumed }),
    ...(send === undefined ? {} : { send: { ...send, outcome: stored } }),
  };
  try {
    const saved = await context.session.save(next, version, options);
    deps.cache.remember(sessionId, { ...next, version: saved });
  } catch (error) {
    deps.cache.forget(sessionId);
    const category = saveFailureCategory(error, suspension !== undefined);
    return deps.errors.make(category, undefined, error, path);
  }
  return outcomeOf(stored, checked.state);
}

/**
 * The outcome of a saved turn, from what the store keeps of it and the session state.
 *
 * @param stored - The kept outcome.
 * @param state - The session state to report (`finalState` of a completed turn).
 * @param replayed - Whether it answers a retried send (the turn ran earlier).
 */
export function outcomeOf(stored: StoredSendOutcome, state: ChatState, replayed = false): ChatTurnOutcome {
  const mark = replayed ? { replayed: true as const } : {};
  if (stored.outcome === 'completed') return completedOutcome(stored.replies, state, stored.dispatchPath, replayed);
  return {
    outcome: 'suspended',
    signalDescriptor: stored.signalDescriptor,
    pendingMessages: stored.pendingMessages,
    invocationId: stored.invocationId,
    dispatchPath: stored.dispatchPath,
    ...mark,
  };
}
