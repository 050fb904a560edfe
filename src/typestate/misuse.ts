/**
 * The types a misuse of a transition shows: the expected state, what was passed, and what to
 * call; and the type-level readers of a state (its tools, its action mode).
 *
 * @module
 */
import type { Branded, StateOf } from './brand.ts';
import type { ActionMode } from './call-spec.ts';
import type { RequestedToolCall, UseEvidence } from './inputs.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import type { BrandName } from './states.ts';
import type { MutationToolName, ToolDefinitions, ToolDefinitionsOf, ToolName } from './tools.ts';

/**
 * The type of a method (or argument) that is not allowed here: not callable, not assignable, it
 * says why and what to call instead.
 *
 * @example
 * ```ts
 * import type { TurnMisuse } from 'turngate';
 * type Shown = TurnMisuse<'tool.parallel_policy_violation: json mode allows one tool call per action; tc-1 is already requested'>;
 * ```
 */
export interface TurnMisuse<TMessage extends string> {
  /** Why this call is not allowed. */
  readonly 'not allowed': TMessage;
}

/**
 * The tool definitions a state, a builder, a registry (or a class extending one) or a
 * definitions object is typed by: the registry behind `JoinClosed<Tools>` is `Tools`;
 * `ToolDefinitions` for `any`; `never` for a type that is none of these.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type JoinClosed, type ToolsOf } from 'turngate';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * declare const closed: JoinClosed<Tools>;
 * const same: ToolsOf<typeof closed> extends Tools ? true : false = true;
 * ```
 */
export type ToolsOf<T> = 0 extends 1 & T ? ToolDefinitions : Extract<ToolsIn<T>, ToolDefinitionsOf<ToolsIn<T>>>;

type ToolsIn<T> = T extends { readonly '~tools'?: infer TTools }
  ? TTools
  : T extends { readonly '~calls'?: { readonly tools: infer TTools } }
    ? TTools
    : T extends abstract new () => infer TTools
      ? TTools
      : T;

/**
 * The action mode a `CallSpec` type knows (`ActionMode` when it does not).
 *
 * @example
 * ```ts
 * import type { CallSpec, ModeOf } from 'turngate';
 * const mode: ModeOf<CallSpec<'json'>> = 'json';
 * ```
 */
export type ModeOf<T> = T extends { readonly spec: { readonly actionMode: infer TMode extends ActionMode } }
  ? TMode
  : ActionMode;

/**
 * What a transition takes as its state argument `T`: `T` itself when it is a `TState` minted by
 * its transition; otherwise a sentence that names the expected state, what was passed, and what
 * to call, e.g. `'MutationReady expected, got a JoinClosed: call admitMutation(joinClosed, policy) first'`
 * or `'JoinClosed expected, got a Result: check .ok first, then pass .value'`.
 *
 * @example
 * ```ts
 * import type { JoinClosed, StateArgument } from 'turngate';
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

type CallIssue<TCall, TTools> = TCall extends {
  readonly toolCallId: infer TId extends string;
  readonly toolName: infer TName extends string;
}
  ? string extends TName
    ? never
    : TName extends ToolName<TTools>
      ? TTools[TName] extends { readonly allowedCallers: readonly (infer TAllowed extends string)[] }
        ? TCall extends { readonly callerId: TAllowed }
          ? never
          : `tool.caller_not_allowed: ${TId} calls ${TName}, which may be called only by ${TAllowed}; give callerId`
        : never
      : `tool.unknown_or_disallowed: ${TId} calls ${TName}, which is not in the registry`
  : never;

type FirstIssue<TCalls extends readonly unknown[], TTools> = TCalls extends readonly [infer THead, ...infer TRest]
  ? [CallIssue<THead, TTools>] extends [never]
    ? FirstIssue<TRest, TTools>
    : CallIssue<THead, TTools>
  : never;

/**
 * What `requestTools` takes as its calls: the calls themselves, or, for literal calls (a tuple
 * written in code) with a tool that is not in the registry, a tool with `allowedCallers` called
 * without a `callerId` of that list, two calls on a json-mode spec, or any call on a text-mode
 * spec, a sentence naming the failure class and the id. Calls from model output
 * (`RequestedToolCall[]`) pass: their names are `string`, so the run-time check decides.
 *
 * @example
 * ```ts
 * import type { CallsCheck, ToolDefinitions } from 'turngate';
 * type Shown = CallsCheck<[{ toolCallId: 'a'; toolName: 'x'; input: {} }, { toolCallId: 'b'; toolName: 'x'; input: {} }], ToolDefinitions, 'json'>;
 * ```
 */
export type CallsCheck<TCalls extends readonly RequestedToolCall[], TTools, TMode extends ActionMode> = CheckedArgument<
  TCalls,
  CallsIssue<TCalls, TTools, TMode>
>;

type CallsIssue<TCalls extends readonly RequestedToolCall[], TTools, TMode extends ActionMode> = [ActionMode] extends [
  TMode,
]
  ? FirstIssue<TCalls, TTools>
  : [TMode] extends ['text']
    ? TCalls extends readonly []
      ? never
      : 'tool.schema_invalid: text mode takes no tool calls from code; call adaptText(spec, tools, profile, text)'
    : [TMode] extends ['json']
      ? TCalls extends readonly [unknown, unknown, ...unknown[]]
        ? 'tool.parallel_policy_violation: json mode allows one tool call per action'
        : FirstIssue<TCalls, TTools>
      : FirstIssue<TCalls, TTools>;

/** The argument as given when there is no issue, else the issue's sentence. */
type CheckedArgument<TArgument, TIssue> = [TIssue] extends [never] ? TArgument : TIssue & string;

type NamedEvidence =
  | { readonly summaryRef: string }
  | { readonly handoffRef: string }
  | { readonly mutationInputRef: string };

type UseRowIssue<TRow> = TRow extends {
  readonly toolCallId: infer TId extends string;
  readonly disposition: infer TDisposition;
}
  ? [TDisposition] extends ['consumed']
    ? TRow extends { readonly evidence: NamedEvidence }
      ? never
      : `mutation.use_evidence_missing: ${TId} is consumed without evidence; give evidence.summaryRef, handoffRef or mutationInputRef`
    : [TDisposition] extends ['discarded_with_reason']
      ? TRow extends { readonly reasonCode: string }
        ? never
        : `tool.schema_invalid: ${TId} is discarded_with_reason without a reasonCode`
      : never
  : never;

type FirstUseIssue<TRows extends readonly unknown[]> = TRows extends readonly [infer THead, ...infer TRest]
  ? [UseRowIssue<THead>] extends [never]
    ? FirstUseIssue<TRest>
    : UseRowIssue<THead>
  : never;

/**
 * What `recordUse` takes as its rows: the rows themselves, or, for a literal `consumed` row
 * without evidence naming what it was consumed into or a `discarded_with_reason` row without a
 * `reasonCode`, a sentence naming the failure class and the id.
 *
 * @example
 * ```ts
 * import type { UseRowsCheck } from 'turngate';
 * type Shown = UseRowsCheck<[{ toolCallId: 'tc-1'; disposition: 'consumed' }]>;
 * ```
 */
export type UseRowsCheck<TRows extends readonly unknown[]> = CheckedArgument<TRows, FirstUseIssue<TRows>>;

/**
 * A row a `useAll` decision may be written as (the check {@link UseDecisionCheck} decides
 * whether its disposition has what it needs).
 *
 * @example
 * ```ts
 * import type { UseDecisionRow } from 'turngate';
 * const row: UseDecisionRow = { disposition: 'discarded_with_reason', reasonCode: 'stale' };
 * ```
 */
export interface UseDecisionRow {
  /** What was done with the result. */
  readonly disposition: ToolUseDisposition;
  /** Required for `discarded_with_reason`. */
  readonly reasonCode?: string;
  /** Required for `consumed`. */
  readonly evidence?: UseEvidence;
}

type DecisionIssue<TDecision> = TDecision extends 'consumed'
  ? 'consumed'
  : TDecision extends { readonly disposition: 'consumed' }
    ? TDecision extends { readonly evidence: NamedEvidence }
      ? never
      : 'consumed'
    : TDecision extends 'discarded_with_reason'
      ? 'discarded'
      : TDecision extends { readonly disposition: 'discarded_with_reason' }
        ? TDecision extends { readonly reasonCode: string }
          ? never
          : 'discarded'
        : never;

/**
 * The check on what a `useAll` callback returns: `unknown` when every decision has what its
 * disposition needs; otherwise a `TurnMisuse` naming the failure class (shown on the returned
 * expression).
 *
 * @example
 * ```ts
 * import type { UseDecisionCheck } from 'turngate';
 * type Shown = UseDecisionCheck<'consumed' | 'observed'>;
 * ```
 */
export type UseDecisionCheck<TDecision> = [DecisionIssue<TDecision>] extends [never]
  ? unknown
  : 'consumed' extends DecisionIssue<TDecision>
    ? TurnMisuse<'mutation.use_evidence_missing: a consumed decision needs { evidence: { summaryRef | handoffRef | mutationInputRef } }'>
    : TurnMisuse<'tool.schema_invalid: a discarded_with_reason decision needs { reasonCode }'>;

/**
 * The tool name `performMutationTool` takes: a `mutation: true` tool of the registry; any other
 * name shows a sentence saying so and what runs it instead.
 *
 * @example
 * ```ts
 * import type { MutationToolCheck, ToolDefinitions } from 'turngate';
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
 * import type { UnknownMethodMessage } from 'turngate';
 * type Shown = UnknownMethodMessage<'web_fetcher', 'get', 'fetch_url'>;
 * //=> 'unknown_method: web_fetcher has no method get; use fetch_url'
 * ```
 */
export type UnknownMethodMessage<
  TTool extends string,
  TCalled extends string,
  TMethod extends string,
> = `unknown_method: ${TTool} has no method ${TCalled}; use ${TMethod}`;
