/**
 * The type-level messages of the outcome boundary: what a misuse of `defineContracts` or
 * `delegate` shows in a `tsc` error. Each names the failure class (or the rule) first, then the
 * tool and the names involved, as the run-time check that would refuse it does. One home for
 * every such sentence of this layer.
 *
 * @module
 */
import type { IdList } from '../typestate/index.ts';

/**
 * The fields a contract definition has (`ContractDefinition`'s keys), the ones
 * {@link UnknownFieldMessage} lists.
 *
 * @example
 * ```ts
 * import type { ContractField } from 'turngate/outcome';
 * const field: ContractField = 'requiredInputs';
 * ```
 */
export type ContractField = 'purpose' | 'deliverable' | 'methods' | 'aliases' | 'requiredInputs';

/**
 * What `defineContracts` shows for a field a contract does not have (the run-time check throws
 * a TypeError naming the same field).
 *
 * @example
 * ```ts
 * import type { UnknownFieldMessage } from 'turngate/outcome';
 * const shown: UnknownFieldMessage<'web_fetcher', 'purpse'> =
 *   'unknown field: web_fetcher.purpse; a contract has purpose, deliverable, methods, aliases, requiredInputs';
 * ```
 */
export type UnknownFieldMessage<
  TTool extends string,
  TField extends string,
> = `unknown field: ${TTool}.${TField}; a contract has purpose, deliverable, methods, aliases, requiredInputs`;

/**
 * What `delegate` shows for a call without a method to a contract that declares methods (the
 * boundary answers it with `unknown_method`).
 *
 * @example
 * ```ts
 * import type { MethodMissingMessage } from 'turngate/outcome';
 * const shown: MethodMissingMessage<'web_fetcher', 'fetch_url'> = 'unknown_method: the call to web_fetcher names no method; use fetch_url';
 * ```
 */
export type MethodMissingMessage<
  TTool extends string,
  TMethods extends string,
> = `unknown_method: the call to ${TTool} names no method; use ${IdList<TMethods>}`;

/**
 * What `delegate` shows for a call whose input lacks a required input, or gives it as `null`,
 * `undefined`, `''` or `[]` (the boundary answers it with `precondition_failed` and does not
 * call the tool).
 *
 * @example
 * ```ts
 * import type { InputMissingMessage } from 'turngate/outcome';
 * const shown: InputMissingMessage<'rss_parser', 'xml'> = 'precondition_failed: rss_parser needs input xml (present, not null or empty)';
 * ```
 */
export type InputMissingMessage<
  TTool extends string,
  TInputs extends string,
> = `precondition_failed: ${TTool} needs input ${IdList<TInputs>} (present, not null or empty)`;

/**
 * What `delegate` shows when the tool's `run` returns something that is not an `Outcome` (the
 * boundary answers it with `contract_violation`, rule `not_an_outcome`).
 *
 * @example
 * ```ts
 * import type { NotAnOutcomeMessage } from 'turngate/outcome';
 * const shown: NotAnOutcomeMessage = 'contract_violation: not_an_outcome: run returns Outcome.ok(value) or Outcome.error(errorType, message)';
 * ```
 */
export type NotAnOutcomeMessage =
  'contract_violation: not_an_outcome: run returns Outcome.ok(value) or Outcome.error(errorType, message)';

/**
 * What `delegate` shows when the tool's `run` returns a promise (the boundary answers it with
 * `contract_violation`, rule `not_an_outcome`).
 *
 * @example
 * ```ts
 * import type { PromiseOutcomeMessage } from 'turngate/outcome';
 * const shown: PromiseOutcomeMessage = 'contract_violation: not_an_outcome: run returned a promise; delegate it with delegateAsync';
 * ```
 */
export type PromiseOutcomeMessage =
  'contract_violation: not_an_outcome: run returned a promise; delegate it with delegateAsync';

/**
 * What `delegate` shows for a request field other than `method` and `input` (the boundary reads
 * only those two, so a misspelled one is lost).
 *
 * @example
 * ```ts
 * import type { RequestFieldMessage } from 'turngate/outcome';
 * const shown: RequestFieldMessage<'inputs'> = 'unknown field: inputs; a delegated request has method and input';
 * ```
 */
export type RequestFieldMessage<TField extends string> =
  `unknown field: ${TField}; a delegated request has method and input`;
