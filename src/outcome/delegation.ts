/**
 * What a delegation takes and gives: the call (its method, its inputs), the errors of the
 * boundary (`contract_violation`, `precondition_failed`, `unknown_method`), the validation
 * record, and the delegation itself.
 *
 * Source: ADR 0014, Decision §1-4; Rollout Phase 1 (violation metadata for repairability).
 *
 * @module
 */
import type { MethodAlias, UnknownMethodMessage } from '../typestate/index.ts';
import type {
  ContractAlias,
  ContractDeliverable,
  ContractMethod,
  ContractRequiredInput,
  ToolContract,
} from './contract.ts';
import type { Outcome, OutcomeError } from './outcome.ts';
import type { KeyAlias, Mismatch, MismatchFocus } from './shape-check.ts';

/**
 * The details of a `contract_violation`: which tool and method delivered the value, where the
 * first mismatch is (`path`, `''` for the root) and what was expected and found there, and every
 * mismatch. Field names are ADR 0014's violation metadata in camelCase.
 *
 * @example
 * ```ts
 * import type { ContractViolationDetails } from 'turngate/outcome';
 * const details: ContractViolationDetails = {
 *   tool: 'web_fetcher', method: 'fetch_url', path: '',
 *   expectedShape: 'object', actualShape: 'object', expectedKeys: ['body'], actualKeys: ['Body'],
 *   mismatch: [{ path: 'body', rule: 'missing_key', message: 'missing required key "body" (keys present: Body)' }],
 * };
 * ```
 */
export interface ContractViolationDetails extends MismatchFocus {
  /** The tool that delivered the value (ADR 0014's role). */
  readonly tool: string;
  /** The canonical method that delivered it, or `null` when the contract has none and the call named none. */
  readonly method: string | null;
  /** Every way the value missed its contract. */
  readonly mismatch: readonly Mismatch[];
}

/**
 * A delegated value that does not meet its contract, or a delegated call that returned no
 * `Outcome` at all: never a silent success. Not retryable (the same call delivers the same shape).
 *
 * @example
 * ```ts
 * import type { ContractViolation } from 'turngate/outcome';
 * function repairHint(violation: ContractViolation): string {
 *   return `${violation.details.tool} must deliver ${violation.details.expectedKeys.join(', ')}`;
 * }
 * ```
 */
export type ContractViolation = OutcomeError<'contract_violation', ContractViolationDetails>;

/**
 * The details of a `precondition_failed`: the tool, method, the contract's required inputs and
 * one `missing_input` or `empty_input` mismatch per bad input.
 *
 * @example
 * ```ts
 * import type { PreconditionFailedDetails } from 'turngate/outcome';
 * const details: PreconditionFailedDetails = {
 *   tool: 'rss_parser', method: 'parse', requiredInputs: ['xml'],
 *   mismatch: [{ path: 'xml', rule: 'empty_input', message: 'required input "xml" is an empty string' }],
 * };
 * ```
 */
export interface PreconditionFailedDetails {
  readonly tool: string;
  readonly method: string | null;
  /** The contract's required inputs. */
  readonly requiredInputs: readonly string[];
  readonly mismatch: readonly Mismatch[];
}

/**
 * A contracted call whose required input is absent or empty; the tool was not called.
 *
 * @example
 * ```ts
 * import type { PreconditionFailed } from 'turngate/outcome';
 * const inputs = (failure: PreconditionFailed) => failure.details.mismatch.map((m) => m.path);
 * ```
 */
export type PreconditionFailed = OutcomeError<'precondition_failed', PreconditionFailedDetails>;

/**
 * The details of an `unknown_method`: the name the call used (`null` when it named none) and the
 * tool's canonical methods.
 *
 * @example
 * ```ts
 * import type { UnknownMethodDetails } from 'turngate/outcome';
 * const details: UnknownMethodDetails = { tool: 'web_fetcher', method: 'get', methods: ['fetch_url'] };
 * ```
 */
export interface UnknownMethodDetails {
  readonly tool: string;
  readonly method: string | null;
  /** The canonical methods, sorted. */
  readonly methods: readonly string[];
}

/**
 * A call to a method that is neither canonical nor an alias; the tool was not called.
 *
 * @example
 * ```ts
 * import type { UnknownMethod } from 'turngate/outcome';
 * const hint = (failure: UnknownMethod) => `use one of ${failure.details.methods.join(', ')}`;
 * ```
 */
export type UnknownMethod = OutcomeError<'unknown_method', UnknownMethodDetails>;

/** Whether a contract's type shows it declares a non-empty `TField` (a widened contract may). */
type Declares<TContract extends ToolContract, TField extends string> = TField extends keyof TContract['definition']
  ? TContract['definition'][TField] extends readonly [] | undefined
    ? false
    : true
  : false;

/**
 * The errors the boundary itself can return for contract `TContract`: always
 * {@link ContractViolation}; {@link PreconditionFailed} unless the contract's type shows no
 * required inputs; {@link UnknownMethod} unless it shows no methods (a contract typed as plain
 * `ToolContract` may have both).
 *
 * @example
 * ```ts
 * import { defineContracts, type DelegationError } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { requiredInputs: ['xml'] } });
 * type Errors = DelegationError<typeof rss_parser>; // ContractViolation | PreconditionFailed
 * ```
 */
export type DelegationError<TContract extends ToolContract> =
  | ContractViolation
  | (Declares<TContract, 'requiredInputs'> extends false ? never : PreconditionFailed)
  | (Declares<TContract, 'methods'> extends false ? never : UnknownMethod);

/**
 * An alias a delegation used: a method alias, or a key of the deliverable or the input found
 * under another spelling.
 *
 * @example
 * ```ts
 * import type { AliasUse } from 'turngate/outcome';
 * const used: AliasUse[] = [
 *   { kind: 'method', alias: 'fetch', method: 'fetch_url' },
 *   { kind: 'deliverable_key', path: 'body', key: 'body', source: 'symbol_key', spelling: 'body' },
 * ];
 * ```
 */
export type AliasUse = MethodAlias | KeyAlias;

/**
 * What a delegation's validation found, for logs, trajectories and the tool result row: the tool,
 * the canonical method, the contract's digest, the result, every alias used and every mismatch.
 * Plain frozen JSON.
 *
 * - `result`: `ok`, one of the boundary's error types, or `producer_error` (the tool returned
 *   its own error, passed on unchanged).
 * - `errorType`: the outcome's error type (`null` when `ok`).
 * - `deliverableChecked`: whether an `ok` value was checked (`false` when the contract declares
 *   no deliverable or the call never delivered).
 *
 * Source: ADR 0014, Scope 5 (observability fields for contract validation outcomes).
 *
 * @example
 * ```ts
 * import type { ValidationRecord } from 'turngate/outcome';
 * const record: ValidationRecord = {
 *   tool: 'web_fetcher', method: 'fetch_url', contract: 'sha256:…', result: 'ok', errorType: null,
 *   deliverableChecked: true, aliases: [{ kind: 'method', alias: 'fetch', method: 'fetch_url' }], mismatch: [],
 * };
 * ```
 */
export interface ValidationRecord {
  readonly tool: string;
  readonly method: string | null;
  /** The contract's digest. */
  readonly contract: string;
  readonly result: 'ok' | 'contract_violation' | 'precondition_failed' | 'unknown_method' | 'producer_error';
  readonly errorType: string | null;
  readonly deliverableChecked: boolean;
  readonly aliases: readonly AliasUse[];
  readonly mismatch: readonly Mismatch[];
}

/**
 * What a delegation returns: the outcome the caller reads, and its validation record.
 *
 * @example
 * ```ts
 * import type { Delegation } from 'turngate/outcome';
 * const log = (delegation: Delegation<unknown>) => `${delegation.record.tool}: ${delegation.record.result}`;
 * ```
 */
export interface Delegation<TValue, TError extends OutcomeError<string, unknown> = OutcomeError<string, unknown>> {
  /** The value in the contract's spelling, or a typed error. */
  readonly outcome: Outcome<TValue, TError>;
  /** What the boundary checked and found. */
  readonly record: ValidationRecord;
}

/**
 * The input a delegated tool receives: with the contract's required inputs present (in the
 * contract's spelling) and non-empty; the input as given when the contract requires none.
 *
 * @example
 * ```ts
 * import type { DelegatedInput } from 'turngate/outcome';
 * const input: DelegatedInput<'xml'> = { xml: '<rss/>' };
 * ```
 */
export type DelegatedInput<TRequired extends string> = [TRequired] extends [never]
  ? unknown
  : { readonly [TInput in TRequired]: NonNullable<unknown> } & { readonly [input: string]: unknown };

/**
 * The call a delegated tool receives: the tool, the canonical method (an alias already resolved;
 * `undefined` only when the contract has no methods and the call named none) and the checked input.
 *
 * @example
 * ```ts
 * import { defineContracts, type DelegatedCall } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { methods: ['parse'], requiredInputs: ['xml'] } });
 * const call: DelegatedCall<typeof rss_parser> = { tool: 'rss_parser', method: 'parse', input: { xml: '<rss/>' } };
 * ```
 */
export interface DelegatedCall<TContract extends ToolContract> {
  readonly tool: TContract['tool'];
  readonly method: string extends ContractMethod<TContract> ? string | undefined : ContractMethod<TContract>;
  readonly input: DelegatedInput<ContractRequiredInput<TContract>>;
}

type CheckedMethod<TContract extends ToolContract, TCalled extends string> = string extends TCalled
  ? TCalled
  : TCalled extends ContractMethod<TContract> | ContractAlias<TContract>
    ? TCalled
    : UnknownMethodMessage<TContract['tool'], TCalled, ContractMethod<TContract>>;

/**
 * What a caller asks of a delegated tool: the method (canonical or alias; required when the
 * contract declares methods, and a literal that names neither is a compile error) and the input.
 *
 * @example
 * ```ts
 * import type { DelegationRequest, ToolContract } from 'turngate/outcome';
 * const request: DelegationRequest<ToolContract, 'parse'> = { method: 'parse', input: { xml: '<rss/>' } };
 * ```
 */
export type DelegationRequest<
  TContract extends ToolContract,
  TCalled extends string,
> = (string extends ContractMethod<TContract>
  ? { readonly method?: TCalled }
  : { readonly method: CheckedMethod<TContract, TCalled> }) & {
  /** The call's input; an object (or `Map`) carrying the required inputs when the contract declares any. */
  readonly input?: unknown;
};

/** Any outcome a delegated call may return. Internal. */
export type AnyOutcome = Outcome<unknown, OutcomeError<string, unknown>>;

/**
 * What {@link delegate} and {@link delegateAsync} return for contract `TContract` when its tool
 * returns `TReturned`: the contract's deliverable type, and the boundary's errors with the tool's
 * own.
 *
 * @example
 * ```ts
 * import { defineContracts, type DelegationOf, type Outcome, type OutcomeError } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { deliverable: { type: 'array' }, requiredInputs: ['xml'] } });
 * type Parsed = DelegationOf<typeof rss_parser, Outcome<string[], OutcomeError<'feed_malformed'>>>;
 * ```
 */
export type DelegationOf<TContract extends ToolContract, TReturned extends AnyOutcome> = Delegation<
  ContractDeliverable<TContract>,
  DelegationError<TContract> | Extract<TReturned, OutcomeError<string, unknown>>
>;
