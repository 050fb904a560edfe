/**
 * The fluent turn builder (literal ids) and closure by construction (ids from model output).
 *
 * @module
 */
export { turn } from './turn.ts';
export type {
  TurnBuilder,
  JoinIncomplete,
  TurnMisuse,
  ResultOutcome,
  ResultOrphanMessage,
  UseWithoutResultMessage,
} from './turn.ts';
export { settle, useAll, MUTATION_NOT_ADMITTED } from './settle.ts';
export type { UseDecision } from './settle.ts';
