/**
 * `Outcome<T>`: what a delegated call hands back, a value or a typed error, discriminated on
 * `status` so a `switch` or a ts-pattern `.exhaustive()` match must handle both arms.
 *
 * Source: ADR 0014 (outcome boundary contract validation), Decision §1.
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';

/**
 * The details of an error outcome when nothing narrower is known: a record of named fields.
 *
 * @example
 * ```ts
 * import type { OutcomeDetails } from 'turngate/outcome';
 * const details: OutcomeDetails = { url: 'https://news.example/rss', httpStatus: 503 };
 * ```
 */
export type OutcomeDetails = { readonly [field: string]: unknown };

/**
 * The successful arm of an {@link Outcome}: `status: 'ok'` and the value.
 *
 * @example
 * ```ts
 * import { Outcome, type OutcomeOk } from 'turngate/outcome';
 * const fetched: OutcomeOk<{ body: string }> = Outcome.ok({ body: '<rss/>' });
 * fetched.value.body; //=> '<rss/>'
 * ```
 */
export interface OutcomeOk<TValue> {
  /** The discriminant of the successful arm. */
  readonly status: 'ok';
  /** The value the call delivered. */
  readonly value: TValue;
}

/**
 * The error arm of an {@link Outcome}: `status: 'error'`, a machine-readable `errorType`
 * (snake_case, e.g. `contract_violation`), a human-readable message, typed details, and whether
 * trying again may succeed.
 *
 * @example
 * ```ts
 * import { Outcome, type OutcomeError } from 'turngate/outcome';
 * const failed: OutcomeError<'upstream_unavailable'> = Outcome.error('upstream_unavailable', 'feed returned 503', {
 *   details: { httpStatus: 503 },
 *   retryable: true,
 * });
 * failed.retryable; //=> true
 * ```
 */
export interface OutcomeError<TErrorType extends string = string, TDetails = OutcomeDetails> {
  /** The discriminant of the error arm. */
  readonly status: 'error';
  /** What kind of error: `contract_violation`, `precondition_failed`, `unknown_method`, or the producer's own. */
  readonly errorType: TErrorType;
  /** What went wrong, for a person (and a model) to read. */
  readonly message: string;
  /** The machine-readable details of this error type. */
  readonly details: TDetails;
  /** Whether the same call may succeed if tried again. */
  readonly retryable: boolean;
}

/**
 * The value a delegated call hands back: {@link OutcomeOk} with a value, or an error of type
 * `TError` (any {@link OutcomeError} when not given). Discriminated on `status`, then on
 * `errorType`, so matching is exhaustive.
 *
 * @example
 * ```ts
 * import { match } from 'ts-pattern';
 * import { Outcome } from 'turngate/outcome';
 * const summarize = (parsed: Outcome<string[]>) =>
 *   match(parsed)
 *     .with({ status: 'ok' }, ({ value }) => `${value.length} items`)
 *     .with({ status: 'error' }, ({ errorType, message }) => `${errorType}: ${message}`)
 *     .exhaustive();
 * summarize(Outcome.ok(['Rates held', 'Storm warning'])); //=> '2 items'
 * summarize(Outcome.error('feed_malformed', 'not RSS')); //=> 'feed_malformed: not RSS'
 * ```
 */
export type Outcome<TValue, TError extends OutcomeError<string, unknown> = OutcomeError> = OutcomeOk<TValue> | TError;

/**
 * Options of {@link Outcome.error}.
 *
 * @example
 * ```ts
 * import type { OutcomeErrorOptions } from 'turngate/outcome';
 * const options: OutcomeErrorOptions<{ url: string }> = { details: { url: 'https://news.example/rss' }, retryable: true };
 * ```
 */
export interface OutcomeErrorOptions<TDetails> {
  /** The error's details; `{}` when absent. */
  readonly details?: TDetails;
  /** Whether a retry may succeed; `false` when absent. */
  readonly retryable?: boolean;
}

function ok<TValue>(value: TValue): OutcomeOk<TValue> {
  return Object.freeze({ status: 'ok', value });
}

function error<const TErrorType extends string, TDetails = OutcomeDetails>(
  errorType: TErrorType,
  message: string,
  options: OutcomeErrorOptions<TDetails> = {},
): OutcomeError<TErrorType, TDetails> {
  if (typeof errorType !== 'string' || isBlank(errorType)) {
    throw new TypeError(`Outcome.error: errorType must be a non-blank string, got ${JSON.stringify(errorType)}`);
  }
  if (typeof message !== 'string') {
    throw new TypeError(`Outcome.error: message must be a string, got ${typeof message}`);
  }
  const { details, retryable = false } = options;
  if (typeof retryable !== 'boolean') {
    throw new TypeError(`Outcome.error: retryable must be a boolean, got ${typeof retryable}`);
  }
  return Object.freeze({
    status: 'error',
    errorType,
    message,
    // An absent `details` is `{}`, which is what `TDetails` defaults to when it is not given.
    details: (details === undefined ? {} : details) as TDetails,
    retryable,
  });
}

/**
 * Builds both arms of an {@link Outcome}. The returned objects are frozen (the value inside is
 * left as it is).
 *
 * - `Outcome.ok(value)`: the successful arm.
 * - `Outcome.error(errorType, message, { details, retryable })`: the error arm; `details`
 *   defaults to `{}`, `retryable` to `false`. Throws `TypeError` for a blank `errorType`, a
 *   `message` that is not a string, or a `retryable` that is not a boolean.
 *
 * Source: ADR 0014, Decision §1 (`Outcome.ok`, `Outcome.error`).
 *
 * @example
 * ```ts
 * import { Outcome } from 'turngate/outcome';
 * Outcome.ok([1, 2]).status; //=> 'ok'
 * Outcome.error('not_found', 'no feed at that URL').details; //=> {}
 * ```
 */
export const Outcome = Object.freeze({ ok, error });

/**
 * Whether a value is a well-formed {@link Outcome}: `{ status: 'ok', value }`, or `{ status:
 * 'error', errorType, message, details, retryable }` with a non-blank `errorType`, a string
 * `message` and a boolean `retryable`. Used on what a delegated call returns, which may come from
 * untyped code.
 *
 * @param value - Anything.
 * @returns `true` when `value` is an outcome.
 * @example
 * ```ts
 * import { isOutcome, Outcome } from 'turngate/outcome';
 * isOutcome(Outcome.ok(1)); //=> true
 * isOutcome({ status: 'error', errorType: '', message: 'blank type', details: {}, retryable: false }); //=> false
 * isOutcome([]); //=> false
 * ```
 */
export function isOutcome(value: unknown): value is Outcome<unknown, OutcomeError<string, unknown>> {
  if (value === null || typeof value !== 'object') return false;
  const status: unknown = Reflect.get(value, 'status');
  if (status === 'ok') return Object.hasOwn(value, 'value');
  if (status !== 'error') return false;
  const errorType: unknown = Reflect.get(value, 'errorType');
  return (
    typeof errorType === 'string' &&
    !isBlank(errorType) &&
    typeof Reflect.get(value, 'message') === 'string' &&
    typeof Reflect.get(value, 'retryable') === 'boolean' &&
    Object.hasOwn(value, 'details')
  );
}
