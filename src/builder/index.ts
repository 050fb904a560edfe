/**
 * The fluent turn builder (literal ids), closure by construction (ids from model output), and
 * the mutation gate for pending mutation calls.
 *
 * @module
 */
export { turn } from './turn.ts';
export type { TurnBuilder, ResultOutcome, UseDetails, RestrictedTools } from './turn.ts';
export type {
  IdList,
  NextStep,
  JoinIncomplete,
  NonLiteralIdMessage,
  ResultOrphanMessage,
  UseWithoutResultMessage,
  RepeatedIdMessage,
} from '../typestate/index.ts';
export { settle, useAll } from './settle.ts';
export type { ToolCallInfo, ToolHandlers, UseDecision } from './settle.ts';
export { settleMutations } from './settle-mutations.ts';
export type { MutationHandlers, SettleMutationsOptions } from './settle-mutations.ts';
export type {
  RequestedCalls,
  AnsweredCalls,
  UsedCalls,
  OpenCalls,
  IsJoinClosed,
  ToolResultOf,
  ToolInputOf,
  ToolOutputOf,
} from './queries.ts';
