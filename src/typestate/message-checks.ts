/**
 * The argument checks of the transitions, part of the type-level messages (messages.ts holds
 * the sentences of the states and the builder): each check is the argument as given when it is
 * right, or the argument with the sentence (failure class or rule first, then the ids) in place
 * of the offending key, so `tsc` shows the sentence there rather than after the argument's
 * whole type. Literal `requestTools` and `recordUse` rows, `useAll` decisions, `callSpec`'s
 * action mode, and `matchToolResult`'s handler map.
 *
 * @module
 */
import type { RequestedToolCall } from './inputs.ts';
import type {
  Listed,
  MethodMissingMessage,
  NamedEvidence,
  UnknownMethodMessage,
  UnknownToolMessage,
} from './messages.ts';
import type { ActionMode } from './states.ts';
import type { ToolMethodAlias, ToolName } from './tools.ts';

/**
 * What a handler map keyed by tool name takes (`matchToolResult`): the map itself, or, when it
 * has a handler for a name that is not a tool of the registry, the map with that handler's type
 * replaced by {@link UnknownToolMessage} (shown at that handler).
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { HandlerMapCheck } from 'turngate/types';
 * type Shown = HandlerMapCheck<{ nope: () => 1 }, { read_file: ToolDefinitions[string] }>;
 * ```
 */
export type HandlerMapCheck<THandlers, TTools> = [keyof THandlers] extends [ToolName<TTools>]
  ? THandlers
  : { [K in keyof THandlers & string]: K extends ToolName<TTools> ? THandlers[K] : UnknownToolMessage<K> };

/**
 * The rule of a tool's methods (one home: the builder's `.request` and `requestTools`' literal
 * rows): a tool that declares `methods` takes a literal method that is one of them or an alias
 * (a `string` one is left to the run time); `TOk` when it does, else the message. Internal.
 */
export type MethodRule<
  TTools,
  TName extends keyof TTools & string,
  TMethod extends string,
  TOk,
> = TTools[TName] extends {
  readonly methods: infer TMethods extends readonly [string, ...string[]];
}
  ? [TMethod] extends [never]
    ? MethodMissingMessage<TName, TMethods>
    : string extends TMethod
      ? TOk
      : [TMethod] extends [TMethods[number] | ToolMethodAlias<TTools, TName>]
        ? TOk
        : UnknownMethodMessage<TName, TMethod, Listed<TMethods>>
  : TOk;

/** What is wrong with one literal call, as `[key, message]` (the message is shown at that key), or never. */
type CallIssue<TCall, TTools> = TCall extends {
  readonly toolCallId: infer TId extends string;
  readonly toolName: infer TName extends string;
}
  ? string extends TName
    ? never
    : TName extends ToolName<TTools>
      ? TTools[TName] extends { readonly allowedCallers: readonly (infer TAllowed extends string)[] }
        ? TCall extends { readonly callerId: TAllowed }
          ? MethodIssue<TCall, TTools, TName>
          : [
              TCall extends { readonly callerId: string } ? 'callerId' : 'toolName',
              `tool.caller_not_allowed: ${TId} calls ${TName}, which may be called only by ${TAllowed}; give callerId`,
            ]
        : MethodIssue<TCall, TTools, TName>
      : ['toolName', `tool.unknown_or_disallowed: ${TId} calls ${TName}, which is not in the registry`]
  : never;

type MethodIssue<TCall, TTools, TName extends keyof TTools & string> =
  MethodRule<
    TTools,
    TName,
    TCall extends { readonly method: infer TMethod extends string } ? TMethod : never,
    never
  > extends infer TMessage extends string
    ? [TMessage] extends [never]
      ? never
      : [TCall extends { readonly method: string } ? 'method' : 'toolName', TMessage]
    : never;

/** The first issue of literal rows, as `[index, key, message]`, or never. */
type FirstIssue<
  TRows extends readonly unknown[],
  TIssueOf extends 'call' | 'use',
  TTools = unknown,
  TIndex extends unknown[] = [],
> = TRows extends readonly [infer THead, ...infer TRest]
  ? (TIssueOf extends 'call' ? CallIssue<THead, TTools> : UseRowIssue<THead>) extends infer TIssue
    ? [TIssue] extends [never]
      ? FirstIssue<TRest, TIssueOf, TTools, [...TIndex, unknown]>
      : TIssue extends readonly [infer TKey, infer TMessage]
        ? [`${TIndex['length']}`, TKey, TMessage]
        : never
    : never
  : never;

/**
 * Literal rows with the message in place of the offending row's key, so `tsc` shows it there
 * (`Type '"delete_file"' is not assignable to type '"tool.unknown_or_disallowed: ..."'`) rather
 * than after the whole argument's type.
 */
type RowsWithIssue<TRows, TIssue> = TIssue extends readonly [infer TIndex, infer TKey extends string, infer TMessage]
  ? {
      readonly [I in keyof TRows]: I extends TIndex
        ? Omit<TRows[I], TKey> & { readonly [P in TKey]: TMessage }
        : TRows[I];
    }
  : TRows;

/** A whole-argument issue (a json or text mode rule) shown at the first or second row's id. */
type ModeIssue<TCalls extends readonly RequestedToolCall[], TMode extends ActionMode> = [ActionMode] extends [TMode]
  ? never
  : [TMode] extends ['text']
    ? TCalls extends readonly []
      ? never
      : [
          '0',
          'toolCallId',
          'tool.schema_invalid: text mode takes no tool calls from code; call adaptText(spec, tools, profile, text)',
        ]
    : [TMode] extends ['json']
      ? TCalls extends readonly [unknown, unknown, ...unknown[]]
        ? ['1', 'toolCallId', 'tool.parallel_policy_violation: json mode allows one tool call per action']
        : never
      : never;

/**
 * What `requestTools` takes as its calls: the calls themselves, or, for literal calls (a tuple
 * written in code) with a tool that is not in the registry, a tool with `allowedCallers` called
 * without a `callerId` of that list, a tool with `methods` called without one of its methods or
 * aliases, two calls on a json-mode spec, or any call on a text-mode spec, the calls with a
 * sentence naming the failure class and the id in place of the offending key. Calls from model
 * output (`RequestedToolCall[]`) pass: their names are `string`, so the run-time check decides.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { CallsCheck } from 'turngate/types';
 * type Shown = CallsCheck<[{ toolCallId: 'a'; toolName: 'x'; input: {} }, { toolCallId: 'b'; toolName: 'x'; input: {} }], ToolDefinitions, 'json'>;
 * ```
 */
export type CallsCheck<TCalls extends readonly RequestedToolCall[], TTools, TMode extends ActionMode> = [
  ModeIssue<TCalls, TMode>,
] extends [never]
  ? CheckedRows<TCalls, FirstIssue<TCalls, 'call', TTools>>
  : RowsWithIssue<TCalls, ModeIssue<TCalls, TMode>>;

/** The rows as given when there is no issue, else the rows with the issue in place. */
type CheckedRows<TRows, TIssue> = [TIssue] extends [never] ? TRows : RowsWithIssue<TRows, TIssue>;

type Trimmed<T extends string> = T extends ` ${infer R}` | `\n${infer R}` | `\t${infer R}` | `\r${infer R}`
  ? Trimmed<R>
  : T extends `${infer R} ` | `${infer R}\n` | `${infer R}\t` | `${infer R}\r`
    ? Trimmed<R>
    : T;

/**
 * The action mode a literal `actionMode` names, as `callSpec` reads it (any case, trimmed); never
 * for one that names none.
 *
 * @example
 * ```ts
 * import type { ModeNamed } from 'turngate/types';
 * const mode: ModeNamed<' JSON'> = 'json';
 * ```
 */
export type ModeNamed<TMode extends string> = string extends TMode
  ? ActionMode
  : Lowercase<Trimmed<TMode>> & ActionMode;

/**
 * What `callSpec` takes as `actionMode`: the mode as given when it names one (any case), a
 * `string` (the run-time check decides), or else the rule `callSpec` refuses it by
 * (`tool.schema_invalid`), shown at `actionMode`.
 *
 * @example
 * ```ts
 * import type { ActionModeCheck } from 'turngate/types';
 * type Shown = ActionModeCheck<'cod'>;
 * //=> 'tool.schema_invalid: actionMode must be code, json or text (any case), not cod'
 * ```
 */
export type ActionModeCheck<TMode extends string> = TMode extends ActionMode
  ? TMode
  : string extends TMode
    ? TMode
    : [ModeNamed<TMode>] extends [never]
      ? `tool.schema_invalid: actionMode must be code, json or text (any case), not ${TMode}`
      : TMode;

type UseRowIssue<TRow> = TRow extends {
  readonly toolCallId: infer TId extends string;
  readonly disposition: infer TDisposition;
}
  ? [TDisposition] extends ['consumed']
    ? TRow extends { readonly evidence: NamedEvidence }
      ? never
      : [
          'disposition',
          `mutation.use_evidence_missing: ${TId} is consumed without evidence; give evidence.summaryRef, handoffRef or mutationInputRef`,
        ]
    : [TDisposition] extends ['discarded_with_reason']
      ? TRow extends { readonly reasonCode: string }
        ? never
        : ['disposition', `tool.schema_invalid: ${TId} is discarded_with_reason without a reasonCode`]
      : never
  : never;

/**
 * What `recordUse` takes as its rows: the rows themselves, or, for a literal `consumed` row
 * without evidence naming what it was consumed into or a `discarded_with_reason` row without a
 * `reasonCode`, the rows with a sentence naming the failure class and the id in place of that
 * row's `disposition`.
 *
 * @example
 * ```ts
 * import type { UseRowsCheck } from 'turngate/types';
 * type Shown = UseRowsCheck<[{ toolCallId: 'tc-1'; disposition: 'consumed' }]>;
 * ```
 */
export type UseRowsCheck<TRows extends readonly unknown[]> = CheckedRows<TRows, FirstIssue<TRows, 'use'>>;

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
 * What a `useAll` callback returns: its decisions `TDecision` when each has what its disposition
 * needs; otherwise a sentence naming the failure class (shown on the returned expression).
 *
 * @example
 * ```ts
 * import type { UseDecisionCheck } from 'turngate/types';
 * type Shown = UseDecisionCheck<'consumed' | 'observed'>;
 * ```
 */
export type UseDecisionCheck<TDecision> = [DecisionIssue<TDecision>] extends [never]
  ? TDecision
  : 'consumed' extends DecisionIssue<TDecision>
    ? 'mutation.use_evidence_missing: a consumed decision needs { evidence: { summaryRef | handoffRef | mutationInputRef } }'
    : 'tool.schema_invalid: a discarded_with_reason decision needs { reasonCode }';
