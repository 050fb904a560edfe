/**
 * Type-level queries: what a turn's type knows, for a user's own type tests (tsd, `expectType`)
 * and for hovers. Each takes the type of a value (`typeof turn`, `typeof closed`, `typeof Tools`).
 *
 * @module
 */
import type { Branded } from '../typestate/index.ts';
import type { ToolsOf } from '../typestate/index.ts';
import type { ToolFailed, ToolOk } from '../typestate/index.ts';
import type { ParsedToolInput, ToolName, ToolOutput } from '../typestate/index.ts';

type Calls<T> = T extends { readonly '~calls'?: infer TCalls } ? TCalls : never;

/**
 * The ids a builder has requested.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { callSpec, defineTools, turn } from 'turngate';
 * import type { RequestedCalls } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'm', actionMode: 'code' });
 * if (spec.ok) {
 *   const t = turn(spec.value, Tools).request('tc-1', 'read_file', { path: 'a' });
 *   const ids: RequestedCalls<typeof t> = 'tc-1';
 * }
 * ```
 */
export type RequestedCalls<T> = Calls<T> extends { readonly requested: infer TIds extends string } ? TIds : never;

/**
 * The ids a builder has recorded a result for.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { AnsweredCalls, TurnBuilder } from 'turngate/types';
 * const none: [AnsweredCalls<TurnBuilder<ToolDefinitions, 'code', {}, never, never>>] extends [never] ? true : false = true;
 * ```
 */
export type AnsweredCalls<T> = Calls<T> extends { readonly resulted: infer TIds extends string } ? TIds : never;

/**
 * The ids a builder has recorded a disposition for.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { UsedCalls, TurnBuilder } from 'turngate/types';
 * const used: UsedCalls<TurnBuilder<ToolDefinitions, 'code', { 'tc-1': string }, 'tc-1', 'tc-1'>> = 'tc-1';
 * ```
 */
export type UsedCalls<T> = Calls<T> extends { readonly used: infer TIds extends string } ? TIds : never;

/**
 * The ids that keep a builder's join open: requested without a result, or with a result but no
 * disposition. `never` when the join is closed.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { callSpec, defineTools, turn } from 'turngate';
 * import type { OpenCalls } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'm', actionMode: 'code' });
 * if (spec.ok) {
 *   const t = turn(spec.value, Tools)
 *     .request('tc-1', 'read_file', { path: 'a' })
 *     .request('tc-2', 'read_file', { path: 'b' })
 *     .result('tc-1', { status: 'ok', output: 'A' });
 *   const open: OpenCalls<typeof t> = 'tc-2'; // 'tc-1' | 'tc-2': tc-1 has no disposition yet
 * }
 * ```
 */
export type OpenCalls<T> = Exclude<RequestedCalls<T>, AnsweredCalls<T>> | Exclude<AnsweredCalls<T>, UsedCalls<T>>;

/**
 * Whether a value's type is join-closed: `true` for a builder with no open call, a `JoinClosed`
 * or a `MutationReady`; `false` for anything else (an open builder, an earlier state).
 *
 * @example
 * ```ts
 * import type { JoinClosed, ToolUse } from 'turngate';
 * import type { IsJoinClosed } from 'turngate/types';
 * const closed: IsJoinClosed<JoinClosed> = true;
 * const notYet: IsJoinClosed<ToolUse> = false;
 * ```
 */
export type IsJoinClosed<T> =
  T extends Branded<'JoinClosed' | 'MutationReady', object>
    ? true
    : [Calls<T>] extends [never]
      ? false
      : [OpenCalls<T>] extends [never]
        ? true
        : false;

/**
 * The typed result (ok or error) of tool `TName`, for a registry, a class extending one, a
 * definitions object, a state or a builder.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolResultOf } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * const result: ToolResultOf<typeof Tools, 'read_file'> = { toolCallId: 't', toolName: 'read_file', status: 'ok', output: { text: '' }, resultDigest: 'sha256:…' };
 * ```
 */
export type ToolResultOf<TTools, TName extends ToolName<ToolsOf<TTools>>> =
  | ToolOk<ToolsOf<TTools>, TName>
  | ToolFailed<ToolsOf<TTools>, TName>;

/**
 * The parsed input of tool `TName` (what its handler receives), for a registry, a class, a
 * definitions object, a state or a builder.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolInputOf } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const input: ToolInputOf<typeof Tools, 'read_file'> = { path: 'README.md' };
 * ```
 */
export type ToolInputOf<TTools, TName extends ToolName<ToolsOf<TTools>>> = ParsedToolInput<ToolsOf<TTools>, TName>;

/**
 * The output of tool `TName`, for a registry, a class, a definitions object, a state or a builder.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolOutputOf } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * const output: ToolOutputOf<typeof Tools, 'read_file'> = { text: '# hi' };
 * ```
 */
export type ToolOutputOf<TTools, TName extends ToolName<ToolsOf<TTools>>> = ToolOutput<ToolsOf<TTools>, TName>;
