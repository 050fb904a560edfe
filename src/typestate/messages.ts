/**
 * The type-level messages of the typestate and the builder: what a misuse shows in a `tsc`
 * error. Each names the expected state or the failure class and the ids first, then what to call
 * instead. One home for every such sentence, so the builder, `settle` and the transitions word a
 * failure the same way (the argument checks that place them in the transitions' parameters are in
 * message-checks.ts).
 *
 * @module
 */
import type { FailureClass } from '../failures/index.ts';
import type { Branded, StateOf } from './brand.ts';
import type { BrandName } from './states.ts';
import type { MutationToolName } from './tools.ts';

/**
 * The type of a method (or argument) that is not allowed here: not callable, not assignable, it
 * says why and what to call instead.
 *
 * @example
 * ```ts
 * import type { TurnMisuse } from 'turngate/types';
 * type Shown = TurnMisuse<'tool.parallel_policy_violation: json mode allows one tool call per action; tc-1 is already requested'>;
 * ```
 */
export interface TurnMisuse<TMessage extends string> {
  /** Why this call is not allowed. */
  readonly 'not allowed': TMessage;
}

/**
 * What a transition takes as its state argument `T`: `T` itself when it is a `TState` minted by
 * its transition; otherwise a sentence that names the expected state, what was passed, and what
 * to call, e.g. `'MutationReady expected, got a JoinClosed: call admitMutation(joinClosed, policy) first'`
 * or `'JoinClosed expected, got a Result: check .ok first, then pass .value'`.
 *
 * @example
 * ```ts
 * import type { JoinClosed } from 'turngate';
 * import type { StateArgument } from 'turngate/types';
 * type Shown = StateArgument<{ ok: false }, 'JoinClosed', 'call closeJoin(use, context) first'>;
 * //=> 'JoinClosed expected, got a Result: check .ok first, then pass .value'
 * ```
 */
export type StateArgument<T, TState extends BrandName, TNext extends string> =
  T extends Branded<TState, object>
    ? T
    : T extends { readonly ok: boolean }
      ? `${TState} expected, got a Result: check .ok first, then pass .value`
      : [StateOf<T>] extends [never]
        ? `${TState} expected: ${TNext}`
        : T extends Branded<StateOf<T>, object>
          ? `${TState} expected, got a ${StateOf<T>}: ${TNext}`
          : `${TState} expected, got a copy of a ${StateOf<T>} (a spread, rest or literal has no brand): pass the value its transition returned`;

/**
 * The message of a name that is not a tool of the registry: a handler in `matchToolResult`'s map
 * (as `settle`'s map, whose keys are the registry's tool names, refuses one).
 *
 * @example
 * ```ts
 * import type { UnknownToolMessage } from 'turngate/types';
 * const shown: UnknownToolMessage<'delete_file'> = 'tool.unknown_or_disallowed: delete_file is not in the registry';
 * ```
 */
export type UnknownToolMessage<TName extends string> = `tool.unknown_or_disallowed: ${TName} is not in the registry`;

/** The evidence a `consumed` row or decision names: at least one of the three refs. Internal. */
export type NamedEvidence =
  | { readonly summaryRef: string }
  | { readonly handoffRef: string }
  | { readonly mutationInputRef: string };

/**
 * The tool name `performMutationTool` takes: a `mutation: true` tool of the registry; any other
 * name shows a sentence saying so and what runs it instead.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { MutationToolCheck } from 'turngate/types';
 * type Shown = MutationToolCheck<ToolDefinitions, 'read_file'>;
 * ```
 */
export type MutationToolCheck<TTools, TName extends string> =
  TName extends MutationToolName<TTools>
    ? TName
    : `${TName} is not a mutation tool (mutation: true): settle runs it with its handler`;

/**
 * The message a call to an undeclared method shows at compile time (a literal method name that is
 * neither a canonical method nor an alias): in the builder's `.request` and in `delegate`
 * (`turngate/outcome`). `TMethod` is the canonical methods, as one string or a union.
 *
 * @example
 * ```ts
 * import type { UnknownMethodMessage } from 'turngate/outcome';
 * type Shown = UnknownMethodMessage<'web_fetcher', 'get', 'fetch_url'>;
 * //=> 'unknown_method: web_fetcher has no method get; use fetch_url'
 * ```
 */
export type UnknownMethodMessage<
  TTool extends string,
  TCalled extends string,
  TMethod extends string,
> = `unknown_method: ${TTool} has no method ${TCalled}; use ${TMethod}`;

type LastOf<TUnion> = (TUnion extends unknown ? (x: () => TUnion) => void : never) extends (x: infer TLast) => void
  ? TLast extends () => infer TMember
    ? TMember
    : never
  : never;

/**
 * A union of string literals written as one string, `'tc-1, tc-2, tc-3'`, so a message shows
 * every id instead of `... 7 more ...`; at most 24 ids, then `, ...`.
 *
 * @example
 * ```ts
 * import type { IdList } from 'turngate/types';
 * const ids: IdList<'tc-1'> = 'tc-1';
 * ```
 */
export type IdList<TIds extends string> = JoinIds<TIds, '', []>;

type JoinIds<TIds extends string, TText extends string, TSeen extends unknown[]> = [TIds] extends [never]
  ? TText
  : TSeen['length'] extends 24
    ? `${TText}, ...`
    : JoinIds<
        Exclude<TIds, LastOf<TIds>>,
        TText extends '' ? LastOf<TIds> & string : `${LastOf<TIds> & string}, ${TText}`,
        [...TSeen, unknown]
      >;

/**
 * What to call to close a join that fails with `TFailureClass`.
 *
 * @example
 * ```ts
 * import type { NextStep } from 'turngate/types';
 * const step: NextStep<'tool.use_missing'> = 'call .use(id, disposition) for each id';
 * ```
 */
export type NextStep<TFailureClass extends FailureClass> = TFailureClass extends 'tool.result_missing'
  ? 'call .result(id, outcome) for each id'
  : TFailureClass extends 'tool.use_missing'
    ? 'call .use(id, disposition) for each id'
    : 'see the failure class';

/**
 * The type of `.close` on a turn whose join is open: not callable, and its name carries the
 * failure class, the ids and what to call, e.g.
 * `JoinIncomplete<'tool.result_missing', 'tc-2', 'call .result(id, outcome) for each id'>`.
 *
 * @example
 * ```ts
 * import type { JoinIncomplete } from 'turngate/types';
 * // What the editor shows for .close on a turn whose call tc-2 has no result:
 * type Shown = JoinIncomplete<'tool.result_missing', 'tc-2'>;
 * ```
 */
export interface JoinIncomplete<
  TFailureClass extends FailureClass,
  TIds extends string,
  TNext extends string = NextStep<TFailureClass>,
> {
  /** The failure class `close` would fail with. */
  readonly 'turn is not join-closed': TFailureClass;
  /** The ids that keep the join open, as one string. */
  readonly ids: TIds;
  /** What to call. */
  readonly next: TNext;
}

/**
 * What a builder method shows for a `string` (not literal) tool call id.
 *
 * @example
 * ```ts
 * import type { NonLiteralIdMessage } from 'turngate/types';
 * type Shown = NonLiteralIdMessage;
 * ```
 */
export type NonLiteralIdMessage =
  'toolCallId is a string, not a literal: for ids from model output call requestTools, then settle and useAll';

/**
 * The message a `.result` for an unrequested id shows.
 *
 * @example
 * ```ts
 * import type { ResultOrphanMessage } from 'turngate/types';
 * const shown: ResultOrphanMessage<'tc-9'> = 'tool.result_orphan: tc-9 was never requested';
 * ```
 */
export type ResultOrphanMessage<TId extends string> = `tool.result_orphan: ${TId} was never requested`;

/**
 * The message a `.use` for an id without a result shows.
 *
 * @example
 * ```ts
 * import type { UseWithoutResultMessage } from 'turngate/types';
 * const shown: UseWithoutResultMessage<'tc-2'> = 'tool.use_without_result: tc-2 has no result';
 * ```
 */
export type UseWithoutResultMessage<TId extends string> = `tool.use_without_result: ${TId} has no result`;

/**
 * The message a second `.request`, `.result` or `.use` for one id shows.
 *
 * @example
 * ```ts
 * import type { RepeatedIdMessage } from 'turngate/types';
 * const shown: RepeatedIdMessage<'tc-1', 'a result'> = 'tool.schema_invalid: tc-1 already has a result (one per id)';
 * ```
 */
export type RepeatedIdMessage<
  TId extends string,
  TWhat extends string,
> = `tool.schema_invalid: ${TId} already has ${TWhat} (one per id)`;

// The builder's `.request` and `.use` messages (internal names: the builder's types show them as
// the sentences they are).

/** A tuple of names as one string, in its order: `fetch_url, head_url`. Internal. */
export type Listed<TNames extends readonly string[]> = TNames extends readonly [
  infer THead extends string,
  ...infer TRest extends readonly string[],
]
  ? TRest extends readonly []
    ? THead
    : `${THead}, ${Listed<TRest>}`
  : string;

/** A `.request` of a tool with `allowedCallers` without a `callerId`. Internal. */
export type CallerMissingMessage<
  TName extends string,
  TAllowed extends string,
> = `tool.caller_not_allowed: ${TName} may be called only by ${IdList<TAllowed>}; pass { callerId }`;

/** A `.request` of a tool with `allowedCallers` by a caller not in the list. Internal. */
export type CallerNotAllowedMessage<
  TName extends string,
  TAllowed extends string,
  TCaller extends string,
> = `tool.caller_not_allowed: ${TName} may be called only by ${IdList<TAllowed>}, not ${TCaller}`;

/** A `.request` of a tool with `methods` that names no method. Internal. */
export type MethodMissingMessage<
  TName extends string,
  TMethods extends readonly string[],
> = `unknown_method: ${TName} needs { method }: one of ${Listed<TMethods>}`;

/** A second `.request` on a json-mode turn. Internal. */
export type JsonParallelMessage<TIds extends string> =
  `tool.parallel_policy_violation: json mode allows one tool call per action; ${IdList<TIds>} is already requested`;

/** Any `.request` on a text-mode turn. Internal. */
export type TextRequestMessage =
  'tool.schema_invalid: text mode takes tool calls only from adaptText(spec, tools, profile, text), never from raw text';

/** A `.use(id, 'consumed')` without evidence. Internal. */
export type ConsumedWithoutEvidenceMessage =
  'mutation.use_evidence_missing: consumed needs evidence (summaryRef, handoffRef or mutationInputRef)';

/** A `.use(id, 'discarded_with_reason')` without a reason code. Internal. */
export type DiscardedWithoutReasonMessage = 'tool.schema_invalid: discarded_with_reason needs { reasonCode }';

/**
 * The message a key of an approval policy's rules shows when it is not a mutation tool of the
 * registry (misspelled, or a read tool: approvals gate mutations only).
 *
 * @example
 * ```ts
 * import type { ApprovalRuleKeyMessage } from 'turngate/types';
 * const shown: ApprovalRuleKeyMessage<'read_file'> = 'tool.unknown_or_disallowed: read_file is not a mutation tool of the registry; approvals gate mutations';
 * ```
 */
export type ApprovalRuleKeyMessage<TName extends string> =
  `tool.unknown_or_disallowed: ${TName} is not a mutation tool of the registry; approvals gate mutations`;

/**
 * The message `expectClearance` shows for a clearance that does not let tool `TName` run: a
 * `not_required` one where the policy's rule is `'always'`, or another tool's.
 *
 * @example
 * ```ts
 * import type { ApprovalClearanceMessage } from 'turngate/types';
 * const shown: ApprovalClearanceMessage<'send_email'> = "approval.missing: send_email needs the approved clearance beginGated returns (policy 'always')";
 * ```
 */
export type ApprovalClearanceMessage<TName extends string> =
  `approval.missing: ${TName} needs the approved clearance beginGated returns (policy 'always')`;
