/**
 * The value-or-failures shape every fail-closed step returns, in the bottom layer so that the
 * internal helpers return it too. The public name is `Result` in `failures/classes.ts`, whose
 * failure type defaults to `Failure`; see there for the documentation.
 *
 * @module
 */

/** A value, or the failures that stopped it (never empty). Internal; `Result` is the public name. */
export type ResultOf<T, F> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failures: readonly F[] };

/**
 * The failure of a step that stops at its first problem (the decoders, the own-data snapshot):
 * `failures` is never empty when `ok` is false.
 *
 * @param failed - A result that is not ok.
 * @returns Its first failure.
 */
export function firstFailure<F>(failed: { readonly ok: false; readonly failures: readonly F[] }): F {
  return failed.failures[0] as F;
}
