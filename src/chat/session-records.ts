/**
 * What a session store keeps: a session's state, its suspension, its record, and the resume log.
 *
 * @module
 */
import type { ChatMessage, ToolCall } from './messages.ts';

/**
 * A suspension's signal descriptor (suspension §4).
 *
 * @example
 * ```ts
 * import type { SignalDescriptor } from 'turngate/chat';
 * const descriptor: SignalDescriptor = { signal_id: 'approval-001', metadata: { action: 'send_email' } };
 * ```
 */
export interface SignalDescriptor {
  /** The correlation token the signal must carry; unique among the suspensions that wait. */
  readonly signal_id: string;
  /** Application-defined metadata, round-tripped unchanged. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The state of a chat session: `messages` (append reducer) plus any other fields, all JSON data.
 *
 * @example
 * ```ts
 * import type { ChatState } from 'turngate/chat';
 * const state: ChatState = { messages: [{ role: 'user', content: 'hi' }], approved: false };
 * ```
 */
export interface ChatState {
  readonly messages: readonly ChatMessage[];
  readonly [field: string]: unknown;
}

/**
 * A suspended turn (the paused-invocation record of suspension §5, less the state, which is the
 * session's): what it waits for, where it resumes, which tool calls it left open.
 *
 * @example
 * ```ts
 * import type { Suspension } from 'turngate/chat';
 * const suspension: Suspension = {
 *   invocationId: '6f1c...',
 *   node: 'approval',
 *   descriptor: { signal_id: 'refund:A-1001' },
 *   openToolCalls: [{ id: 'call_refund', name: 'orders.refund', arguments: { id: 'A-1001' } }],
 * };
 * ```
 */
export interface Suspension {
  /** The paused invocation's id (stable across suspend and resume). */
  readonly invocationId: string;
  /** The node that suspended; the resumed run continues after it. */
  readonly node: string;
  /** The signal descriptor (suspension §4). */
  readonly descriptor: SignalDescriptor;
  /** Tool calls of the history still awaiting a tool-role reply; the resumed turn must answer them. */
  readonly openToolCalls: readonly ToolCall[];
}

/**
 * A suspension and the session it belongs to: what `findSuspension` and `listSuspended` return.
 *
 * @example
 * ```ts
 * import type { SuspensionRecord } from 'turngate/chat';
 * const record: SuspensionRecord = { sessionId: 'support-1', sessionVersion: 3, invocationId: 'inv-1', node: 'approval', descriptor: { signal_id: 'refund:A-1001' }, openToolCalls: [] };
 * ```
 */
export interface SuspensionRecord extends Suspension {
  /** The session that waits. */
  readonly sessionId: string;
  /** The session's version that holds this suspension (a resume checks it is still current). */
  readonly sessionVersion: number;
}

/**
 * What a store keeps per session.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.save('s', { state: { messages: [{ role: 'user', content: 'hi' }] } }, 0);
 * (await store.load('s'))?.version; //=> 1
 * ```
 */
export interface SessionRecord {
  /** Incremented by every save; the optimistic-concurrency token (sessions §8.2). */
  readonly version: number;
  /** The session state. */
  readonly state: ChatState;
  /** The suspended turn, when one waits for a signal; saved and removed with the state. */
  readonly suspension?: Suspension;
}

/**
 * A resumed turn that completed, as the store logged it when it saved the turn: how a process
 * learns of a resume another process ran.
 *
 * @example
 * ```ts
 * import type { ResumeEntry } from 'turngate/chat';
 * const entry: ResumeEntry = { seq: 7, sessionId: 'support-1', signalId: 'refund:A-1001', invocationId: 'inv-1', resumedBy: 'harness-2', replies: [{ role: 'assistant', content: 'Refunded.' }] };
 * ```
 */
export interface ResumeEntry {
  /** The log position: increasing, unique per store. */
  readonly seq: number;
  readonly sessionId: string;
  /** The signal that resumed the turn. */
  readonly signalId: string;
  /** The resumed invocation (the suspended one's id). */
  readonly invocationId: string;
  /** The id of the harness that ran the resume. */
  readonly resumedBy: string;
  /** The messages the resumed turn added. */
  readonly replies: readonly ChatMessage[];
}

/**
 * A page of the resume log.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore, type ResumeLog } from 'turngate/chat';
 * const log: ResumeLog = await new InMemorySessionStore().readResumes(undefined);
 * log.entries; //=> []
 * ```
 */
export interface ResumeLog {
  /** Entries after the given position, oldest first. */
  readonly entries: readonly ResumeEntry[];
  /** The position to read after next time (the last entry's `seq`, or the log's end). */
  readonly cursor: number;
}
