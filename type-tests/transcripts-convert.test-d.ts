/**
 * Type tests of `convertTranscript(history, { from, to })`: the history is `from`'s (an SDK's
 * own messages compile), the outcome's messages are `to`'s, and a history of another format or a
 * format outside `TRANSCRIPT_FORMATS` does not compile. `any`, `never`, `unknown` and `string`
 * each have a defined answer. Negative cases use `@ts-expect-error`, so tsd and TypeScript 7
 * check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { expectType } from 'tsd';
import {
  type ConvertResult,
  type ConvertedTranscript,
  convertTranscript,
  convertTranscriptJson,
  type ToolCallIdPair,
  type TranscriptChange,
  type TranscriptMessage,
} from 'turngate/transcripts';

declare const anthropic: Anthropic.MessageParam[];
declare const openaiChat: OpenAI.ChatCompletionMessageParam[];

// The right calls: the target's messages come out.
const converted = convertTranscript(openaiChat, { from: 'openai-chat', to: 'anthropic' });
expectType<ConvertResult<'anthropic'>>(converted);
if (converted.ok) {
  expectType<readonly TranscriptMessage<'anthropic'>[]>(converted.value.messages);
  expectType<readonly TranscriptChange[]>(converted.value.changes);
  expectType<readonly ToolCallIdPair[]>(converted.value.toolCallIds);
  expectType<ConvertedTranscript<'anthropic'>>(converted.value);
  convertTranscript(anthropic, { from: 'anthropic', to: 'openai-chat', toolCallIds: converted.value.toolCallIds });
}
convertTranscript({ model: 'gpt-5', messages: openaiChat }, { from: 'openai-chat', to: 'gemini', reasoning: 'keep' });
expectType<ConvertResult<'chat'>>(convertTranscriptJson(JSON.parse('[]') as unknown, { from: 'gemini', to: 'chat' }));

// A change is told apart by its kind.
declare const change: TranscriptChange;
if (change.kind === 'tool_call_id_remapped') expectType<string>(change.target);
if (change.kind === 'repaired') expectType<'source' | 'chat' | 'target'>(change.stage);

// The wrong calls.
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
convertTranscript(anthropic, { from: 'openai-chat', to: 'gemini' });
// @ts-expect-error -- "Type '"bedrock"' is not assignable to type '""
convertTranscript(openaiChat, { from: 'openai-chat', to: 'bedrock' });
// @ts-expect-error -- "Type '"maybe"' is not assignable to type '"drop" | "keep"'"
convertTranscript(openaiChat, { from: 'openai-chat', to: 'anthropic', reasoning: 'maybe' });
convertTranscript(anthropic, { from: 'anthropic', to: 'openai-chat', dialect: 'kimi' });
// @ts-expect-error -- "transcript.invalid: dialect is an option of format openai-chat only"
convertTranscript(anthropic, { from: 'anthropic', to: 'gemini', dialect: 'kimi' });
// @ts-expect-error -- "Property 'to' is missing"
convertTranscript(openaiChat, { from: 'openai-chat' });

// any, never, unknown and string.
// biome-ignore lint/suspicious/noExplicitAny: the any input is under test
declare const anyValue: any;
declare const neverValue: never;
declare const unknownValue: unknown;
expectType<ConvertResult<'chat'>>(convertTranscript(anyValue, { from: 'anthropic', to: 'chat' }));
expectType<ConvertResult<'chat'>>(convertTranscript(neverValue, { from: 'anthropic', to: 'chat' }));
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format anthropic: call convertTranscriptJson"
convertTranscript(unknownValue, { from: 'anthropic', to: 'chat' });
// @ts-expect-error -- "transcript.invalid: a string is no transcript of format anthropic"
convertTranscript('Hello', { from: 'anthropic', to: 'chat' });
expectType<ConvertResult<'chat'>>(convertTranscriptJson(unknownValue, { from: 'anthropic', to: 'chat' }));
