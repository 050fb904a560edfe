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
  type AISDKMessage,
  type AnthropicMessage,
  type ChatMessage,
  type GeminiContent,
  type OpenAIChatMessage,
  type ResponsesInputItem,
  type RuleOf,
  type SendableTranscript,
  type TranscriptMessage,
  type TranscriptReport,
  type TranscriptRuleInfo,
  TRANSCRIPT_RULES,
} from 'turngate/transcripts';

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
// @ts-expect-error -- Chat Completions messages are not Anthropic messages (role 'tool', 'developer')
checkTranscript(openaiChat, { format: 'anthropic' });
// @ts-expect-error -- Gemini contents are not AI SDK messages
checkTranscript(gemini, { format: 'aisdk' });
// @ts-expect-error -- carried open calls are a chat option only
checkTranscript(openaiChat, { format: 'openai-chat', openToolCalls: [] });
// The model a rule may hold for (Gemini 3's thought signatures): a model id.
checkTranscript(gemini, { format: 'gemini', model: 'gemini-3-pro-preview' });
repairTranscript(gemini, { format: 'gemini', model: 'gemini-3-pro-preview' });
// @ts-expect-error -- the model is its id, a string
checkTranscript(gemini, { format: 'gemini', model: 3 });
// @ts-expect-error -- the model is its id, a string
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
// @ts-expect-error -- every rule says whether repair fixes it
expectAssignable<TranscriptRuleInfo>({
  class: 'tool.result_missing',
  summary: 's',
  fix: 'f.',
  source: 'doc',
  kind: 'doc',
});
declare const unknownValue: unknown;
// @ts-expect-error -- a value of unknown shape goes through checkTranscriptJson
checkTranscript(unknownValue, { format: 'gemini' });
checkTranscriptJson(unknownValue, { format: 'gemini' });
// `any` and `never` inputs are accepted, as by any typed function.
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an `any` input on purpose
declare const anyValue: any;
checkTranscript(anyValue, { format: 'chat' });
declare const nothing: never[];
checkTranscript(nothing, { format: 'chat' });
// @ts-expect-error -- a string is not a transcript (checkTranscriptJson takes any value)
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
// @ts-expect-error -- an unchecked history is not a SendableTranscript
send(anthropic);
// @ts-expect-error -- a look-alike object literal has no brand
send({ format: 'anthropic', messages: anthropic });
// @ts-expect-error -- the transcript exists only on an accepted report
send(report.transcript);
const chatReport = checkTranscript([{ role: 'user', content: 'hi' }], { format: 'chat' });
if (chatReport.result === 'accepted') {
  // @ts-expect-error -- a transcript checked as chat does not go to an Anthropic call
  send(chatReport.transcript);
}
const received = checkTranscript(anthropic, { format: 'anthropic', expect: 'received' });
if (received.result === 'accepted') expectType<undefined>(received.transcript);

// Failures name rules of their own format.
if (report.result === 'rejected') for (const failure of report.failures) expectType<RuleOf<'anthropic'>>(failure.rule);
expectAssignable<RuleOf<'gemini'>>('gemini.function_call_unanswered');
// @ts-expect-error -- not a Gemini rule
expectAssignable<RuleOf<'gemini'>>('anthropic.tool_use_unanswered');
expectAssignable<TranscriptReport<'aisdk'>>(checkTranscript(aisdk, { format: 'aisdk' }));

// Repair keeps the caller's message type; conversion gives ChatMessages.
const repaired = repairTranscript(openaiChat, { format: 'openai-chat' });
if (repaired.ok) expectType<readonly OpenAI.ChatCompletionMessageParam[]>(repaired.value.messages);
const converted = toChatMessages(aisdk, { format: 'aisdk' });
if (converted.ok) expectType<ChatMessage[]>(converted.value.messages);
