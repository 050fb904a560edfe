/**
 * The chat harness (`turngate/chat`): `ChatMessage`, `send()` -> `ChatTurnOutcome`, session
 * stores, suspension with subscribed listeners, error buckets, closure-checked history.
 *
 * Source: OpenArmature harness-chat.
 *
 * @module
 */
export * from './messages.ts';
export * from './errors.ts';
export * from './store.ts';
export { sequentialGraph, suspend, END } from './graph.ts';
export type { ChatGraph, ChatNode, GraphOutcome, ResumeRequest, SequentialGraphDefinition } from './graph.ts';
export { checkClosure } from './closure.ts';
export type { ClosureCheck } from './closure.ts';
export { createChatHarness } from './harness.ts';
export type {
  ChatHarness,
  ChatHarnessOptions,
  ChatListener,
  ChatTurnOutcome,
  ChatTurnCompleted,
  ChatTurnErrored,
  ChatTurnSuspended,
  DispatchPath,
} from './harness.ts';
