/**
 * Type tests of turngate/transcripts: the provider SDKs' own parameter types fit the input
 * types (types only: the SDKs are devDependencies), a provider call guarded by `guardSend`
 * takes only a checked transcript, and reports are typed per format. Negative cases use
 * `@ts-expect-error`, so tsd and TypeScript 7 check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Content } from '@google/genai';
import type { ModelMessage } from 'ai';
import type OpenAI from 'openai';
import { expectAssignable, expectType } from 'tsd';
import {
  checkTranscript,
  checkTranscriptJson,
  guardSend,
  repairTranscript,
  toChatMessages,
  type ChatMessage,
  type SendableTranscript,
  type TranscriptMessage,
  type TranscriptReport,
  type TranscriptRuleInfo,
  TRANSCRIPT_RULES,
} from 'turngate/transcripts';
import type {
  AISDKMessage,
  AnthropicMessage,
  GeminiContent,
  OpenAIChatMessage,
  ResponsesInputItem,
} from 'turngate/formats';
import type { Frozen, FrozenList, RuleOf } from 'turngate/types';

// The SDKs' parameter types are assignable to the input types.
declare const anthropic: Anthropic.MessageParam[];
declare const anthropicBeta: Anthropic.Beta.BetaMessageParam[];
declare const openaiChat: OpenAI.ChatCompletionMessageParam[];
declare const responses: OpenAI.Responses.ResponseInputItem[];
declare const aisdk: ModelMessage[];
declare const gemini: Content[];
expectAssignable<readonly AnthropicMessage[]>(anthropic);
expectAssignable<readonly AnthropicMessage[]>(anthropicBeta);
expectAssignable<readonly OpenAIChatMessage[]>(openaiChat);
expectAssignable<readonly ResponsesInputItem[]>(responses);
expectAssignable<readonly AISDKMessage[]>(aisdk);
expectAssignable<readonly GeminiContent[]>(gemini);
expectType<AnthropicMessage>({} as TranscriptMessage<'anthropic'>);

// Each checks as its own format; a request body works too.
checkTranscript(anthropic, { format: 'anthropic' });
checkTranscript(openaiChat, { format: 'openai-chat', expect: 'received' });
checkTranscript(responses, { format: 'openai-responses' });
checkTranscript({ model: 'gpt-5', input: responses }, { format: 'openai-responses' });
checkTranscript(aisdk, { format: 'aisdk' });
checkTranscript({ contents: gemini }, { format: 'gemini' });
// @ts-expect-error -- "transcript.wrong_format: not anthropic: messages of format"
checkTranscript(openaiChat, { format: 'anthropic' });
// @ts-expect-error -- "transcript.wrong_format: not aisdk: messages of format gemini"
checkTranscript(gemini, { format: 'aisdk' });
// @ts-expect-error -- "transcript.invalid: openToolCalls is an option of format chat only"
checkTranscript(openaiChat, { format: 'openai-chat', openToolCalls: [] });
// The model a rule may hold for (Gemini 3's thought signatures): a model id.
checkTranscript(gemini, { format: 'gemini', model: 'gemini-3-pro-preview' });
repairTranscript(gemini, { format: 'gemini', model: 'gemini-3-pro-preview' });
// @ts-expect-error -- "Type 'number' is not assignable to type 'string'"
checkTranscript(gemini, { format: 'gemini', model: 3 });
// @ts-expect-error -- "Type '{ id: string; }' is not assignable to type 'string'"
repairTranscript(gemini, { format: 'gemini', model: { id: 'gemini-3-pro-preview' } });
// Every rule says whether repair fixes it; the provider's text and the models are optional.
expectType<true>(TRANSCRIPT_RULES['gemini.function_call_missing_thought_signature'].repairable);
expectType<false>(TRANSCRIPT_RULES['anthropic.thinking_block_missing'].repairable);
const described: TranscriptRuleInfo = {
  class: 'tool.result_missing',
  summary: 's',
  fix: 'f.',
  source: 'doc',
  kind: 'doc',
  repairable: true,
};
expectType<string | undefined>(described.providerError);
// @ts-expect-error -- "type 'TranscriptRuleInfo'"
expectAssignable<TranscriptRuleInfo>({
  class: 'tool.result_missing',
  summary: 's',
  fix: 'f.',
  source: 'doc',
  kind: 'doc',
});
declare const unknownValue: unknown;
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format gemini: call checkTranscriptJson"
checkTranscript(unknownValue, { format: 'gemini' });
checkTranscriptJson(unknownValue, { format: 'gemini' });
// `any` and `never` inputs are accepted, as by any typed function.
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an `any` input on purpose
declare const anyValue: any;
checkTranscript(anyValue, { format: 'chat' });
declare const nothing: never[];
checkTranscript(nothing, { format: 'chat' });
// @ts-expect-error -- "transcript.invalid: a string is no transcript of format chat"
checkTranscript('Weather in Oslo?', { format: 'chat' });
// A Responses body's input may be a string, as the API takes it.
checkTranscript({ model: 'gpt-5', input: 'Weather in Oslo?' }, { format: 'openai-responses' });

// A guarded provider call takes only a transcript the check minted, for its format and message type.
const send = guardSend('anthropic', (messages: Anthropic.MessageParam[]) => messages.length);
const report = checkTranscript(anthropic, { format: 'anthropic' });
if (report.result === 'accepted') {
  expectType<SendableTranscript<'anthropic', Anthropic.MessageParam>>(report.transcript);
  expectType<number>(send(report.transcript));
}
// @ts-expect-error -- "is not assignable to parameter of type 'SendableTranscript<"anthropic"
send(anthropic);
// @ts-expect-error -- "is not assignable to parameter of type 'SendableTranscript<"anthropic"
send({ format: 'anthropic', messages: anthropic });
// @ts-expect-error -- "Property 'transcript' does not exist on type 'TranscriptReport<"anthropic"
send(report.transcript);
const chatReport = checkTranscript([{ role: 'user', content: 'hi' }], { format: 'chat' });
if (chatReport.result === 'accepted') {
  // @ts-expect-error -- "SendableTranscript<"chat", { role: "user"; content: string; }>' is not assignable to parameter of type 'SendableTranscript<"anthropic"
  send(chatReport.transcript);
}
// A checked transcript is a frozen snapshot: its messages are read, spread and sent, never changed.
if (report.result === 'accepted') {
  const messages = report.transcript.messages;
  expectType<FrozenList<Anthropic.MessageParam>>(messages);
  expectType<number>(messages.length);
  const copy = [...messages];
  expectType<Frozen<Anthropic.MessageParam>[]>(copy);
  const first = messages[0];
  if (first !== undefined) {
    expectType<Anthropic.MessageParam['role']>(first.role);
    if (typeof first.content !== 'string') expectType<number>(first.content.length);
    // @ts-expect-error -- "Property 'push' does not exist on type 'FrozenList<"
    if (typeof first.content !== 'string') first.content.push({ type: 'text', text: 'and Bergen?' });
    // @ts-expect-error -- "Cannot assign to 'content' because it is a read-only property"
    first.content = 'Weather in Bergen?';
  }
  // @ts-expect-error -- "Property 'push' does not exist on type 'FrozenList<MessageParam>'"
  messages.push({ role: 'user', content: 'Weather in Bergen?' });
  // @ts-expect-error -- "Index signature in type 'FrozenList<MessageParam>' only permits reading"
  messages[0] = { role: 'user', content: 'Weather in Bergen?' };
  // @ts-expect-error -- "Cannot assign to 'messages' because it is a read-only property"
  report.transcript.messages = [];
}
const received = checkTranscript(anthropic, { format: 'anthropic', expect: 'received' });
if (received.result === 'accepted') expectType<undefined>(received.transcript);

// Failures name rules of their own format.
if (report.result === 'rejected') for (const failure of report.failures) expectType<RuleOf<'anthropic'>>(failure.rule);
expectAssignable<RuleOf<'gemini'>>('gemini.function_call_unanswered');
// @ts-expect-error -- "is not assignable to parameter of type 'RuleOf<"gemini">'"
expectAssignable<RuleOf<'gemini'>>('anthropic.tool_use_unanswered');
expectAssignable<TranscriptReport<'aisdk'>>(checkTranscript(aisdk, { format: 'aisdk' }));

// Repair keeps the caller's message type; conversion gives ChatMessages.
const repaired = repairTranscript(openaiChat, { format: 'openai-chat' });
if (repaired.ok) expectType<readonly OpenAI.ChatCompletionMessageParam[]>(repaired.value.messages);
const converted = toChatMessages(aisdk, { format: 'aisdk' });
if (converted.ok) expectType<ChatMessage[]>(converted.value.messages);
