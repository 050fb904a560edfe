/**
 * The compile-time checks of a delegated call: what `delegate` and `delegateAsync` take as the
 * request (a literal method that is neither canonical nor an alias, no method for a contract
 * that declares methods, a required input that is absent or `null`/`undefined`/`''`/`[]`, a
 * field other than `method` and `input`), and what they take back from the tool (an `Outcome`,
 * not a bare value or a promise). Each misuse shows the sentence the boundary's run-time answer
 * would give (messages.ts). A request from model output (`string` method, `unknown` or indexed
 * input) passes: the run-time check decides.
 *
 * @module
 */
import type { IdList, UnknownMethodMessage } from '../typestate/index.ts';
import type { ContractAlias, ContractMethod, ContractRequiredInput, ToolContract } from './contract.ts';
import type { AnyOutcome } from './delegation.ts';
import type {
  InputMissingMessage,
  MethodMissingMessage,
  NotAnOutcomeMessage,
  PromiseOutcomeMessage,
  RequestFieldMessage,
} from './messages.ts';

/**
 * The widest request `delegate` takes: a method and an input, both optional.
 *
 * @example
 * ```ts
 * import type { DelegationRequestShape } from 'turngate/outcome';
 * const request: DelegationRequestShape = { method: 'parse', input: { xml: '<rss/>' } };
 * ```
 */
export interface DelegationRequestShape {
  /** The method, canonical or an alias. */
  readonly method?: string;
  /** The call's input. */
  readonly input?: unknown;
}

type WithoutUnderscores<TName extends string> = TName extends `${infer THead}_${infer TTail}`
  ? WithoutUnderscores<`${THead}${TTail}`>
  : TName;
/** A name folded so that its camelCase and snake_case twins meet (`status_code`, `statusCode`). */
type Folded<TName> = TName extends string ? Lowercase<WithoutUnderscores<TName>> : never;

/** The types the boundary takes for an absent input: `null`, `undefined`, `''`, `[]`. */
type Empty = null | undefined | '' | readonly [];

/** The keys of `TInput` that may carry required input `TName` (the name or a case twin). */
type KeysFor<TInput, TName extends string> = {
  [TKey in keyof TInput & string]: Folded<TKey> extends Folded<TName> ? TKey : never;
}[keyof TInput & string];

type Lacks<TInput, TName extends string> = [KeysFor<TInput, TName>] extends [never]
  ? true
  : [TInput[KeysFor<TInput, TName> & keyof TInput]] extends [Empty]
    ? true
    : false;

/**
 * Whether the type of an input shows its keys: a plain object type without index signatures or
 * symbol keys (not `any`, `unknown`, a `Map` or an array); only then can a missing input be told.
 */
type Judgeable<TInput> = 0 extends 1 & TInput
  ? false
  : TInput extends object
    ? TInput extends ReadonlyMap<unknown, unknown> | readonly unknown[]
      ? false
      : string extends keyof TInput
        ? false
        : [Extract<keyof TInput, symbol | number>] extends [never]
          ? true
          : false
    : false;

/** The required inputs `TInput` lacks or gives empty (`never` when it has them, or cannot tell). */
type LackedInputs<TInput, TRequired extends string> = TInput extends unknown
  ? Judgeable<TInput> extends true
    ? TRequired extends unknown
      ? Lacks<TInput, TRequired> extends true
        ? TRequired
        : never
      : never
    : never
  : never;

type MethodIssue<TContract extends ToolContract, TRequest> =
  string extends ContractMethod<TContract>
    ? never
    : TRequest extends { readonly method: infer TCalled extends string }
      ? string extends TCalled
        ? never
        : TCalled extends ContractMethod<TContract> | ContractAlias<TContract>
          ? never
          : {
              readonly [TKey in keyof TRequest]: TKey extends 'method'
                ? UnknownMethodMessage<TContract['tool'], TCalled, IdList<ContractMethod<TContract>>>
                : TRequest[TKey];
            }
      : MethodMissingMessage<TContract['tool'], ContractMethod<TContract>>;

type InputIssue<TContract extends ToolContract, TRequest> = [ContractRequiredInput<TContract>] extends [never]
  ? never
  : TRequest extends { readonly input: infer TInput }
    ? [LackedInputs<TInput, ContractRequiredInput<TContract>>] extends [never]
      ? never
      : {
          readonly [TKey in keyof TRequest]: TKey extends 'input'
            ? InputMissingMessage<TContract['tool'], LackedInputs<TInput, ContractRequiredInput<TContract>>>
            : TRequest[TKey];
        }
    : 'input' extends keyof TRequest
      ? never
      : InputMissingMessage<TContract['tool'], ContractRequiredInput<TContract>>;

type FieldIssue<TRequest> = [Exclude<keyof TRequest, keyof DelegationRequestShape>] extends [never]
  ? never
  : {
      readonly [TKey in keyof TRequest]: TKey extends keyof DelegationRequestShape
        ? TRequest[TKey]
        : RequestFieldMessage<TKey & string>;
    };

/**
 * What `delegate` and `delegateAsync` take as the request `TRequest` to contract `TContract`:
 * the request itself, or, for a misuse the boundary would refuse, a type whose mismatch names the
 * failure class first: a field other than `method` and `input`; `unknown_method` for a literal
 * method that is neither canonical nor an alias, or no method when the contract declares some;
 * `precondition_failed` for a literal input without a required input (under its name or a
 * camelCase/snake_case twin) or with it `null`, `undefined`, `''` or `[]`. A `string` method and
 * an input typed `unknown`, `any`, a `Map` or an indexed record pass: the run-time check decides.
 *
 * @example
 * ```ts
 * import { defineContracts, type DelegationRequestCheck } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { methods: ['parse'], requiredInputs: ['xml'] } });
 * type Shown = DelegationRequestCheck<typeof rss_parser, { readonly method: 'parse'; readonly input: {} }>;
 * // { readonly method: 'parse'; readonly input: 'precondition_failed: rss_parser needs input xml (present, not null or empty)' }
 * ```
 */
export type DelegationRequestCheck<TContract extends ToolContract, TRequest> = [FieldIssue<TRequest>] extends [never]
  ? [MethodIssue<TContract, TRequest>] extends [never]
    ? [InputIssue<TContract, TRequest>] extends [never]
      ? TRequest
      : InputIssue<TContract, TRequest>
    : MethodIssue<TContract, TRequest>
  : FieldIssue<TRequest>;

/**
 * What a delegated tool's `run` must return: `TReturned` when it is an `Outcome`; otherwise the
 * sentence of the `contract_violation` (rule `not_an_outcome`) the boundary would answer with.
 *
 * @example
 * ```ts
 * import type { OutcomeCheck } from 'turngate/outcome';
 * type Shown = OutcomeCheck<number>;
 * // 'contract_violation: not_an_outcome: run returns Outcome.ok(value) or Outcome.error(errorType, message)'
 * ```
 */
export type OutcomeCheck<TReturned> = TReturned extends AnyOutcome
  ? TReturned
  : TReturned extends PromiseLike<unknown>
    ? PromiseOutcomeMessage
    : NotAnOutcomeMessage;
