/**
 * Type tests of the type-level queries a user's own tsd suite can use: each answers for a real
 * turn, and `any`, `never` and `unknown` give a defined answer.
 */
import { expectType } from 'tsd';
import * as v from 'valibot';
import {
  defineTools,
  turn,
  type CallSpec,
  type JoinClosed,
  type MutationReady,
  type ToolDefinitions,
  type ToolUse,
} from 'turngate';
import type { ToolsOf } from 'turngate/types';
import type {
  AnsweredCalls,
  IsJoinClosed,
  OpenCalls,
  RequestedCalls,
  StateOf,
  ToolInputOf,
  ToolOutputOf,
  ToolResultOf,
  UsedCalls,
} from 'turngate/types';

class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  search_web: { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
}) {}
const plain = defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
});

declare const spec: CallSpec<'code'>;
const open = turn(spec, Tools)
  .request('tc-1', 'read_file', { path: 'a' })
  .request('tc-2', 'search_web', { query: 'q' })
  .result('tc-1', { status: 'ok', output: { text: 'A' } });
const done = open
  .result('tc-2', { status: 'ok', output: { hits: 1 } })
  .use('tc-1', 'observed')
  .use('tc-2', 'observed');

expectType<'tc-1' | 'tc-2'>({} as RequestedCalls<typeof open>);
expectType<'tc-1'>({} as AnsweredCalls<typeof open>);
expectType<never>({} as UsedCalls<typeof open>);
expectType<'tc-1' | 'tc-2'>({} as OpenCalls<typeof open>);
expectType<never>({} as OpenCalls<typeof done>);
expectType<false>({} as IsJoinClosed<typeof open>);
expectType<true>({} as IsJoinClosed<typeof done>);
expectType<true>({} as IsJoinClosed<JoinClosed<Tools>>);
expectType<true>({} as IsJoinClosed<MutationReady<Tools>>);
expectType<false>({} as IsJoinClosed<ToolUse<Tools>>);
expectType<'JoinClosed'>({} as StateOf<JoinClosed<Tools>>);

// Tool types from a class, a plain registry, a state or a builder.
expectType<{ text: string }>({} as ToolOutputOf<typeof Tools, 'read_file'>);
expectType<{ text: string }>({} as ToolOutputOf<typeof plain, 'read_file'>);
expectType<{ query: string }>({} as ToolInputOf<JoinClosed<Tools>, 'search_web'>);
expectType<{ query: string }>({} as ToolInputOf<typeof open, 'search_web'>);
expectType<'ok' | 'error'>(({} as ToolResultOf<Tools, 'read_file'>).status);
expectType<Tools>({} as ToolsOf<typeof Tools>);
// @ts-expect-error -- "Type '"delete_file"' does not satisfy the constraint 'ToolName<Tools>'"
type NoSuchTool = ToolResultOf<typeof Tools, 'delete_file'>;

// any, never and unknown.
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any`
type AnyValue = any;
expectType<ToolDefinitions>({} as ToolsOf<AnyValue>);
expectType<never>({} as OpenCalls<never>);
expectType<never>({} as OpenCalls<unknown>);
expectType<false>({} as IsJoinClosed<unknown>);
expectType<never>({} as StateOf<unknown>);
export type { NoSuchTool };
