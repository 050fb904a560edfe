/**
 * The typed error for a state value that was not minted by its transition function, or a
 * mutation the gate does not authorize.
 *
 * @module
 */
import type { Failure } from '../failures/index.ts';
import { failure } from '../failures/internal.ts';
import type { TurnStateName } from './states.ts';

/**
 * Why a state value or a mutation was refused:
 * - `forged`: not minted by a transition function (a literal, cast, spread or copy);
 * - `wrong_state`: minted as another state;
 * - `spent`: the mutation intent already ran (under this or another `MutationReady` of the same turn);
 * - `not_bound`: the turn declares no such mutation intent (or it names another tool);
 * - `input_mismatch`: the input is not exactly the bound input (canonical digest differs).
 *
 * @example
 * ```ts
 * import type { TypestateErrorCode } from 'turngate';
 * const refusals: TypestateErrorCode[] = ['forged', 'wrong_state', 'spent', 'not_bound', 'input_mismatch'];
 * ```
 */
export type TypestateErrorCode =
  | 'forged'
  | 'wrong_state'
  | 'spent'
  | 'not_bound'
  | 'input_mismatch'
  | 'record_mismatch'
  | 'not_approved';

/**
 * Thrown when a function is handed a turn state it did not come from (a forged or cast object
 * `{} as MutationReady`, a copy by spread, `Object.assign`, `structuredClone` or JSON round-trip,
 * a value of another state), or asked to run a mutation its `MutationReady` does not authorize
 * (an intent the turn did not declare, another input, an intent that already ran, a ledger
 * record of another tool or input under the intent's key: `record_mismatch`). This is a
 * programmer error, not evidence, so it throws; a refused effect never runs.
 *
 * Source: HARNESS-TYPESTATE §2 (`MutationReady` MUST be fail-closed), §6.
 *
 * @example
 * ```ts
 * import { performMutation, TypestateError, type MutationReady } from 'turngate';
 * await performMutation({} as MutationReady, { toolCallId: 'toolu_01', input: {} }, () => 'never runs').catch((error: unknown) => {
 *   if (error instanceof TypestateError) [error.code, error.failures[0]?.class]; //=> ['forged', 'mutation.use_evidence_missing']
 * });
 * ```
 */
export class TypestateError extends Error {
  /** Why the value or the mutation was refused. */
  readonly code: TypestateErrorCode;
  /** The state that was expected. */
  readonly expected: TurnStateName;
  /**
   * The refusal as one failure of the fail-closed taxonomy, the one the intent's outcome keeps:
   * `effect.record_mismatch` for `record_mismatch` (the effect ledger holds another tool's or
   * input's record under the intent's key) and the approval's class for `not_approved`
   * (`approval.pending`, `approval.denied`, ...), both with the tool call's id; otherwise
   * `mutation.use_evidence_missing` (no join-gate witness linkage for the effect), with the
   * constructor's `detail`.
   */
  readonly failures: readonly Failure[];
  /**
   * Creates a typestate error.
   *
   * @param code - Why the value was refused.
   * @param expected - The state that was expected.
   * @param detail - What was found.
   * @param refusal - The failure, where the code does not decide it (`not_approved`).
   */
  constructor(code: TypestateErrorCode, expected: TurnStateName, detail: string, refusal?: Failure) {
    super(
      code === 'forged' || code === 'wrong_state'
        ? `expected a ${expected} minted by its transition function: ${detail}`
        : `${expected} refused (${code}): ${detail}`,
    );
    this.name = 'TypestateError';
    this.code = code;
    this.expected = expected;
    this.failures = Object.freeze([
      refusal ??
        failure(code === 'record_mismatch' ? 'effect.record_mismatch' : 'mutation.use_evidence_missing', detail),
    ]);
  }
}
