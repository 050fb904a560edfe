/**
 * The typed error for a state value that was not minted by its transition function.
 *
 * @module
 */
import type { FailureClass } from '../failures/index.ts';
import type { TurnStateName } from './brand.ts';

/**
 * Why a state value was refused.
 *
 * @example
 * ```ts
 * import type { TypestateErrorCode } from 'turngate';
 * declare const value: TypestateErrorCode;
 * void value;
 * ```
 */
export type TypestateErrorCode = 'forged' | 'wrong_state' | 'spent';

/**
 * Thrown when a function is handed a turn state it did not come from: a forged or cast object
 * (`{} as MutationReady`), a copy (spread, `structuredClone`, JSON round-trip), a value of
 * another state, or a `MutationReady` that was already spent. This is a programmer error, not
 * evidence, so it throws; the effect of `performMutation` never runs.
 *
 * Source: HARNESS-TYPESTATE §2 (`MutationReady` MUST be fail-closed), §6.
 *
 * @example
 * ```ts
 * import { performMutation, TypestateError, type MutationReady } from 'turngate';
 * await performMutation({} as MutationReady, () => 'never runs').catch((error: unknown) => {
 *   if (error instanceof TypestateError) error.code; //=> 'forged'
 * });
 * ```
 */
export class TypestateError extends Error {
  /** `forged` (not minted here), `wrong_state` (minted as another state), `spent` (a used `MutationReady`). */
  readonly code: TypestateErrorCode;
  /** The state that was expected. */
  readonly expected: TurnStateName;
  /** The failure class this maps to: `mutation.use_evidence_missing` (no join-gate witness linkage). */
  readonly failureClass: FailureClass = 'mutation.use_evidence_missing';
  /**
   * Creates a typestate error.
   *
   * @param code - Why the value was refused.
   * @param expected - The state that was expected.
   * @param detail - What was found.
   */
  constructor(code: TypestateErrorCode, expected: TurnStateName, detail: string) {
    super(`expected a ${expected} minted by its transition function: ${detail}`);
    this.name = 'TypestateError';
    this.code = code;
    this.expected = expected;
  }
}
