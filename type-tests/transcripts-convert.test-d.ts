/**
 * Type tests of `convertTranscript(history, { from, to })`: the history is `from`'s (an SDK's
 * own messages compile), the outcome's messages are `to`'s, and a history of another format or a
 * format outside `TRANSCRIPT_FORMATS` does not compile. `any`, `never`, `unknown` and `string`
 * each have a defined answer. Negative cases use `@ts-expect-error`, so tsd and TypeScript 7
 * check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Message as BedrockMessage } from '@aws-sdk/client-bedrock-runtime';
import type { Content, GoogleGenAI } from '@google/genai';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Mistral } from '@mistralai/mistralai';
import type { ModelMessage } from 'ai';
import type OpenAI from 'openai';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import {
  type ConvertResult,
  type ConvertedTranscript,
  checkTranscript,
  convertTranscript,
  convertTranscriptJson,
  guardSend,
  type SendableTranscript,
  type SystemPrompts,
  type ToolCallIdPair,
  type TranscriptChange,
  type WrittenMessages,
} from 'turngate/transcripts';
import { type BedrockWrittenBlock, toMistralSdk } from 'turngate/formats';

declare const anthropic: Anthropic.MessageParam[];
declare const openaiChat: OpenAI.ChatCompletionMessageParam[];

// The right calls: the target's messages come out.
const converted = convertTranscript(openaiChat, { from: 'openai-chat', to: 'anthropic' });
expectType<ConvertResult<'anthropic'>>(converted);
if (converted.ok) {
  expectType<WrittenMessages['anthropic'][]>(converted.value.messages);
  expectType<string | undefined>(converted.value.system);
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
// `format` (what checkTranscript takes) written for `from` names the option to write.
// @ts-expect-error -- "transcript.invalid: convertTranscript takes from (the source format) and to, not format"
convertTranscript(openaiChat, { format: 'openai-chat', to: 'anthropic' });
// @ts-expect-error -- "transcript.invalid: convertTranscript takes from (the source format) and to, not format"
convertTranscript(openaiChat, { from: 'openai-chat', format: 'openai-chat', to: 'anthropic' });

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

// What comes out goes to the target SDK as it is: messages, and the system prompt where the
// target takes it outside them.
declare const anthropicClient: Anthropic;
declare const openaiClient: OpenAI;
declare const gemini: GoogleGenAI;
declare const mistralClient: Mistral;
declare const langchainModel: BaseChatModel;
const toAnthropic = convertTranscript(openaiChat, { from: 'openai-chat', to: 'anthropic' });
if (toAnthropic.ok) {
  const { messages, system } = toAnthropic.value;
  void anthropicClient.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages,
    ...(system === undefined ? {} : { system }),
  });
}
const toChat = convertTranscript(anthropic, { from: 'anthropic', to: 'openai-chat' });
if (toChat.ok) void openaiClient.chat.completions.create({ model: 'gpt-5', messages: toChat.value.messages });
const toResponses = convertTranscript(anthropic, { from: 'anthropic', to: 'openai-responses' });
if (toResponses.ok) void openaiClient.responses.create({ model: 'gpt-5', input: toResponses.value.messages });
const toAISDK = convertTranscript(anthropic, { from: 'anthropic', to: 'aisdk' });
if (toAISDK.ok) expectAssignable<ModelMessage[]>(toAISDK.value.messages);
const toGemini = convertTranscript(anthropic, { from: 'anthropic', to: 'gemini' });
if (toGemini.ok) {
  const { messages, system } = toGemini.value;
  expectType<SystemPrompts['gemini'] | undefined>(system);
  void gemini.models.generateContent({
    model: 'gemini-2.5-pro',
    contents: messages,
    ...(system === undefined ? {} : { config: { systemInstruction: system } }),
  });
}
const toMistral = convertTranscript(anthropic, { from: 'anthropic', to: 'mistral' });
if (toMistral.ok)
  void mistralClient.chat.complete({ model: 'mistral-large-latest', messages: toMistralSdk(toMistral.value.messages) });
const toLangChain = convertTranscript(anthropic, { from: 'anthropic', to: 'langchain' });
if (toLangChain.ok) void langchainModel.invoke(toLangChain.value.messages);
// Bedrock: what the AWS SDK takes, but for image bytes and redacted reasoning (base64 text on
// the JSON wire, Uint8Array in the SDK).
type Bytes = Extract<BedrockWrittenBlock, { image: unknown }> | { reasoningContent: { redactedContent: string } };
expectAssignable<BedrockMessage[]>(
  [] as (Omit<WrittenMessages['bedrock-converse'], 'content'> & { content: Exclude<BedrockWrittenBlock, Bytes>[] })[],
);
expectNotAssignable<BedrockMessage[]>([] as WrittenMessages['bedrock-converse'][]);
// Within one format, the input's own type comes back too.
const same = convertTranscript(anthropic, { from: 'anthropic', to: 'anthropic' });
if (same.ok) expectAssignable<Anthropic.MessageParam[]>(same.value.messages);
expectAssignable<Content[]>([] as WrittenMessages['gemini'][]);
// Never the system role Anthropic refuses among its messages.
const written = (message: WrittenMessages['anthropic']) => message;
// @ts-expect-error -- "Type '"system"' is not assignable to type"
written({ role: 'system', content: 'Be brief.' });

// A converted history, and the same history checked again, go to a send typed with the target
// SDK's own message type, without a cast; another format's send does not take them.
const sendChat = guardSend('openai-chat', (m: OpenAI.ChatCompletionMessageParam[]) =>
  openaiClient.chat.completions.create({ model: 'gpt-5', messages: m }),
);
const sendAnthropic = guardSend('anthropic', (m: Anthropic.MessageParam[]) =>
  anthropicClient.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: m }),
);
const sendResponses = guardSend('openai-responses', (m: OpenAI.Responses.ResponseInputItem[]) =>
  openaiClient.responses.create({ model: 'gpt-5', input: m }),
);
const sendGemini = guardSend('gemini', (m: Content[]) =>
  gemini.models.generateContent({ model: 'gemini-2.5-pro', contents: m }),
);
const sendAISDK = guardSend('aisdk', (m: ModelMessage[]) => m.length);
if (toChat.ok && toChat.value.transcript !== undefined) {
  expectType<SendableTranscript<'openai-chat', WrittenMessages['openai-chat']>>(toChat.value.transcript);
  void sendChat(toChat.value.transcript);
  const again = checkTranscript(toChat.value.messages, { format: 'openai-chat' });
  if (again.result === 'accepted') void sendChat(again.transcript);
  // @ts-expect-error -- "Argument of type 'SendableTranscript<"openai-chat", OpenAIChatWrittenMessage>' is not assignable to parameter of type 'SendableTranscript<"anthropic", MessageParam>'"
  void sendAnthropic(toChat.value.transcript);
}
if (toAnthropic.ok && toAnthropic.value.transcript !== undefined) void sendAnthropic(toAnthropic.value.transcript);
if (toResponses.ok && toResponses.value.transcript !== undefined) void sendResponses(toResponses.value.transcript);
if (toGemini.ok && toGemini.value.transcript !== undefined) void sendGemini(toGemini.value.transcript);
if (toAISDK.ok && toAISDK.value.transcript !== undefined) void sendAISDK(toAISDK.value.transcript);
// Within one format the transcript is typed by the input's messages as well.
if (same.ok && same.value.transcript !== undefined) void sendAnthropic(same.value.transcript);
// From an `any` or `never` history too.
const fromAny = convertTranscript(anyValue, { from: 'anthropic', to: 'openai-chat' });
if (fromAny.ok && fromAny.value.transcript !== undefined) void sendChat(fromAny.value.transcript);
const fromNever = convertTranscript(neverValue, { from: 'anthropic', to: 'openai-chat' });
if (fromNever.ok && fromNever.value.transcript !== undefined) void sendChat(fromNever.value.transcript);
// The messages type of an `unknown` conversion is the format's own.
declare const unknownConverted: ConvertedTranscript<'openai-chat', unknown>;
expectType<SendableTranscript<'openai-chat'> | undefined>(unknownConverted.transcript);
