/**
 * Type tests of a transcript's format: `guardSend(format, send)` and `checkTranscript(history,
 * { format })` take that format's messages (each SDK's own type compiles) and refuse another
 * format's, where the SDKs' types tell the formats apart, with a `transcript.wrong_format`
 * misuse naming what the messages hold and the format. `any`, `never`, `unknown` and `string`
 * each have a defined answer. Negative cases use `@ts-expect-error`, so tsd and TypeScript 7
 * check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Message as BedrockSdkMessage } from '@aws-sdk/client-bedrock-runtime';
import type { Content } from '@google/genai';
import type { ModelMessage } from 'ai';
import type OpenAI from 'openai';
import { expectType } from 'tsd';
import {
  type ChatMessage,
  checkTranscript,
  guardSend,
  repairTranscript,
  type SendableTranscript,
  type TranscriptMessage,
} from 'turngate/transcripts';

type AnthropicParam = Anthropic.MessageParam;
type ChatParam = OpenAI.ChatCompletionMessageParam;
type ResponsesItem = OpenAI.Responses.ResponseInputItem;
declare const anthropic: AnthropicParam[];
declare const openaiChat: ChatParam[];
declare const responses: ResponsesItem[];
declare const aisdk: ModelMessage[];
declare const gemini: Content[];
declare const chat: ChatMessage[];
declare const bedrock: BedrockSdkMessage[];

// Each format's own SDK type: the guarded send compiles and takes that format's transcript.
expectType<(t: SendableTranscript<'anthropic', AnthropicParam>) => number>(
  guardSend('anthropic', (m: AnthropicParam[]) => m.length),
);
expectType<(t: SendableTranscript<'anthropic', Anthropic.Beta.BetaMessageParam>) => number>(
  guardSend('anthropic', (m: Anthropic.Beta.BetaMessageParam[]) => m.length),
);
expectType<(t: SendableTranscript<'openai-chat', ChatParam>) => number>(
  guardSend('openai-chat', (m: ChatParam[]) => m.length),
);
expectType<(t: SendableTranscript<'openai-responses', ResponsesItem>) => number>(
  guardSend('openai-responses', (m: ResponsesItem[]) => m.length),
);
expectType<(t: SendableTranscript<'aisdk', ModelMessage>) => number>(
  guardSend('aisdk', (m: ModelMessage[]) => m.length),
);
expectType<(t: SendableTranscript<'gemini', Content>) => number>(guardSend('gemini', (m: Content[]) => m.length));
expectType<(t: SendableTranscript<'chat', ChatMessage>) => number>(guardSend('chat', (m: ChatMessage[]) => m.length));
expectType<(t: SendableTranscript<'bedrock-converse', BedrockSdkMessage>) => number>(
  guardSend('bedrock-converse', (m: BedrockSdkMessage[]) => m.length),
);
expectType<(t: SendableTranscript<'bedrock-converse', TranscriptMessage<'bedrock-converse'>>) => number>(
  guardSend('bedrock-converse', (m) => m.length),
);
// Bedrock's untyped blocks (toolUse, toolResult) and Anthropic's typed ones tell the formats apart.
// @ts-expect-error -- "transcript.wrong_format: not anthropic: messages of format bedrock-converse"
guardSend('anthropic', (m: BedrockSdkMessage[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not bedrock-converse: messages of format anthropic"
guardSend('bedrock-converse', (m: AnthropicParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format bedrock-converse"
guardSend('openai-chat', (m: BedrockSdkMessage[]) => m.length);
// An untyped parameter is the format's message type.
expectType<(t: SendableTranscript<'gemini', TranscriptMessage<'gemini'>>) => number>(
  guardSend('gemini', (m) => m.length),
);

// The mix-up that sent a dangling tool_use: an Anthropic call guarded as openai-chat.
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
guardSend('openai-chat', (m: AnthropicParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-responses: messages of format anthropic"
guardSend('openai-responses', (m: AnthropicParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not aisdk: messages of format anthropic"
guardSend('aisdk', (m: AnthropicParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not gemini: messages of format anthropic"
guardSend('gemini', (m: AnthropicParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
guardSend('openai-chat', (m: Anthropic.Beta.BetaMessageParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not anthropic: messages of format"
guardSend('anthropic', (m: ChatParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not aisdk: messages of format"
guardSend('aisdk', (m: ChatParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format openai-responses"
guardSend('openai-chat', (m: ResponsesItem[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not anthropic: messages of format aisdk"
guardSend('anthropic', (m: ModelMessage[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format aisdk"
guardSend('openai-chat', (m: ModelMessage[]) => m.length);
// Gemini's Content has every field optional, so it takes any message with a role; it is still refused.
// @ts-expect-error -- "transcript.wrong_format: not anthropic: messages of format gemini"
guardSend('anthropic', (m: Content[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not chat: messages of format gemini"
guardSend('chat', (m: Content[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not gemini: messages of format"
guardSend('gemini', (m: ChatMessage[]) => m.length);
// openai-chat and chat share tool_calls and tool_call_id; their tool call shapes differ, so the types still do.
// @ts-expect-error -- "transcript.wrong_format: send takes messages that are not format openai-chat's"
guardSend('openai-chat', (m: ChatMessage[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not chat: messages of format openai-chat"
guardSend('chat', (m: ChatParam[]) => m.length);

// `any` and `unknown` senders take any message: the transcript is the format's. A `never` sender
// takes no transcript at all; `string` is no message.
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an `any` sender on purpose
const anySend = guardSend('anthropic', (m: any[]) => m.length);
expectType<(t: SendableTranscript<'anthropic', TranscriptMessage<'anthropic'>>) => number>(anySend);
expectType<(t: SendableTranscript<'anthropic', TranscriptMessage<'anthropic'>>) => number>(
  guardSend('anthropic', (m: unknown[]) => m.length),
);
const neverSend = guardSend('anthropic', (m: never[]) => m.length);
expectType<(t: SendableTranscript<'anthropic', never>) => number>(neverSend);
// @ts-expect-error -- "transcript.wrong_format: send takes messages that are not format anthropic's"
guardSend('anthropic', (m: string[]) => m.length);

// checkTranscript (and repairTranscript) take the format's messages, arrays and request bodies alike.
checkTranscript(anthropic, { format: 'anthropic' });
checkTranscript(openaiChat, { format: 'openai-chat' });
checkTranscript(responses, { format: 'openai-responses' });
checkTranscript(aisdk, { format: 'aisdk' });
checkTranscript(gemini, { format: 'gemini' });
checkTranscript(chat, { format: 'chat' });
checkTranscript(bedrock, { format: 'bedrock-converse' });
checkTranscript({ messages: bedrock }, { format: 'bedrock-converse' });
repairTranscript(bedrock, { format: 'bedrock-converse', readOnlyTools: ['get_weather'] });
// @ts-expect-error -- "transcript.wrong_format: not bedrock-converse: messages of format gemini"
checkTranscript(gemini, { format: 'bedrock-converse' });
// @ts-expect-error -- "transcript.wrong_format: not gemini: messages of format bedrock-converse"
checkTranscript(bedrock, { format: 'gemini' });
repairTranscript(anthropic, { format: 'anthropic', readOnlyTools: ['get_weather'] });
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
checkTranscript(anthropic, { format: 'openai-chat' });
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format"
checkTranscript({ model: 'gpt-5', messages: anthropic }, { format: 'openai-chat' });
// @ts-expect-error -- "transcript.wrong_format: not openai-responses: messages of format anthropic"
checkTranscript(anthropic, { format: 'openai-responses' });
// Anthropic messages are no AI SDK messages: the error names the blocks that tell them apart.
// @ts-expect-error -- "transcript.wrong_format: not aisdk: messages of format anthropic"
checkTranscript(anthropic, { format: 'aisdk' });
// @ts-expect-error -- "transcript.wrong_format: not aisdk: messages of format anthropic"
repairTranscript(anthropic, { format: 'aisdk' });
// @ts-expect-error -- "transcript.wrong_format: not gemini: messages of format aisdk"
checkTranscript(aisdk, { format: 'gemini' });
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an `any` history on purpose
declare const anyHistory: any;
checkTranscript(anyHistory, { format: 'openai-chat' });
declare const nothing: never[];
checkTranscript(nothing, { format: 'openai-chat' });
declare const unknownHistory: unknown;
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format openai-chat: call checkTranscriptJson"
checkTranscript(unknownHistory, { format: 'openai-chat' });
// @ts-expect-error -- "transcript.invalid: a string is no transcript of format openai-chat"
checkTranscript('Weather in Oslo?', { format: 'openai-chat' });
// A text-only message type is the same in several formats: it compiles, and the check decides at run time.
declare const texts: { role: 'user' | 'assistant'; content: string }[];
checkTranscript(texts, { format: 'openai-chat' });
checkTranscript(texts, { format: 'anthropic' });
