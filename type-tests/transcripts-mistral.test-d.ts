/**
 * Type tests of the `mistral` format and the `openai-chat` dialects. The Mistral SDK's wire
 * types (`*$Outbound`, snake_case: what it sends) are `MistralMessage`s; its camelCase
 * TypeScript objects (`toolCalls`, `toolCallId`) are not the wire shape and are refused. The
 * `dialect` option takes the four dialects, with `openai-chat` only. Negative cases use
 * `@ts-expect-error`, so tsd and TypeScript 7 check the same file.
 */
import type { Mistral } from '@mistralai/mistralai';
import type {
  AssistantMessage,
  AssistantMessage$Outbound,
  ChatCompletionRequestMessage,
  SystemMessage$Outbound,
  ToolMessage,
  ToolMessage$Outbound,
  UserMessage$Outbound,
} from '@mistralai/mistralai/models/components';
import type OpenAI from 'openai';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import { checkTranscript, guardSend, repairTranscript, type TranscriptMessage } from 'turngate/transcripts';
import { fromMistralSdk, type MistralMessage, type OpenAIChatDialect, toMistralSdk } from 'turngate/formats';

type Outbound = SystemMessage$Outbound | UserMessage$Outbound | AssistantMessage$Outbound | ToolMessage$Outbound;
declare const wire: Outbound[];
declare const mistral: MistralMessage[];

// The SDK's wire types are Mistral messages; its camelCase objects are not.
expectAssignable<MistralMessage>({} as AssistantMessage$Outbound);
expectAssignable<MistralMessage>({} as ToolMessage$Outbound);
expectAssignable<readonly TranscriptMessage<'mistral'>[]>(wire);
expectNotAssignable<MistralMessage>({} as AssistantMessage);
expectNotAssignable<MistralMessage>({} as ToolMessage);
checkTranscript(wire, { format: 'mistral' });
checkTranscript({ messages: mistral }, { format: 'mistral', expect: 'received' });
repairTranscript(mistral, { format: 'mistral' });
// @ts-expect-error -- "transcript.wrong_format"
checkTranscript([{ role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'f', input: {} }] }], {
  format: 'mistral',
});

// Mistral's wire messages and Chat Completions messages overlap (roles, tool_calls,
// tool_call_id), yet a guard for one format does not take the other's call.
guardSend('mistral', (m: Outbound[]) => m.length);
guardSend('openai-chat', (m: OpenAI.ChatCompletionMessageParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: send takes messages that are not format openai-chat's"
guardSend('openai-chat', (m: Outbound[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not mistral: messages of format openai-chat"
guardSend('mistral', (m: OpenAI.ChatCompletionMessageParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not mistral: messages of format"
guardSend('mistral', (m: TranscriptMessage<'openai-chat'>[]) => m.length);

// Dialects: openai-chat only, one of the four.
declare const chat: OpenAI.ChatCompletionMessageParam[];
checkTranscript(chat, { format: 'openai-chat', dialect: 'deepseek' });
repairTranscript(chat, { format: 'openai-chat', dialect: 'groq' });
checkTranscript(chat, { format: 'openai-chat', dialect: 'kimi' as OpenAIChatDialect });
// biome-ignore lint/suspicious/noExplicitAny: the any input the option must take
declare const anyDialect: any;
checkTranscript(chat, { format: 'openai-chat', dialect: anyDialect });
// biome-ignore lint/plugin: never is assignable to every type: the option takes it, as every other option does
checkTranscript(chat, { format: 'openai-chat', dialect: 'xai' as never });
// @ts-expect-error -- "Type '"mistral"' is not assignable to type '"deepseek" |"
checkTranscript(chat, { format: 'openai-chat', dialect: 'mistral' });
// @ts-expect-error -- "Type 'string' is not assignable to type '"deepseek" |"
checkTranscript(chat, { format: 'openai-chat', dialect: 'deepseek' as string });
// @ts-expect-error -- "Type 'unknown' is not assignable to type '"deepseek" |"
checkTranscript(chat, { format: 'openai-chat', dialect: 'deepseek' as unknown });
// @ts-expect-error -- "transcript.invalid: dialect is an option of format openai-chat only"
checkTranscript(mistral, { format: 'mistral', dialect: 'deepseek' });
// @ts-expect-error -- "transcript.invalid: dialect is an option of format openai-chat only"
repairTranscript(mistral, { format: 'mistral', dialect: 'groq' });

// The SDK's own objects: fromMistralSdk takes them (the request's messages, a standalone
// AssistantMessage without its role) and gives the wire messages the check reads; toMistralSdk
// gives a wire history (a repaired or converted one) back as messages the client takes.
declare const sdkHistory: ChatCompletionRequestMessage[];
declare const reply: AssistantMessage;
declare const client: Mistral;
expectType<MistralMessage[]>(fromMistralSdk(sdkHistory));
checkTranscript(fromMistralSdk([...sdkHistory, reply]), { format: 'mistral' });
const repaired = repairTranscript(fromMistralSdk(sdkHistory), { format: 'mistral' });
if (repaired.ok) {
  const messages: ChatCompletionRequestMessage[] = toMistralSdk(repaired.value.messages);
  void client.chat.complete({ model: 'mistral-large-latest', messages });
}
void client.chat.complete({ model: 'mistral-large-latest', messages: toMistralSdk(mistral) });
// A guarded call: the SDK's history checked on its wire form, sent back as the SDK's objects.
const sendMistral = guardSend('mistral', (m: readonly MistralMessage[]) =>
  client.chat.complete({ model: 'mistral-large-latest', messages: toMistralSdk(m) }),
);
const checkedSdk = checkTranscript(fromMistralSdk(sdkHistory), { format: 'mistral' });
if (checkedSdk.result === 'accepted') void sendMistral(checkedSdk.transcript);
// @ts-expect-error -- "Type '"model"' is not assignable to type"
fromMistralSdk([{ role: 'model', parts: [] }]);
// @ts-expect-error -- "Type 'ToolMessage' is not assignable to type 'MistralMessage'"
toMistralSdk([{} as ToolMessage]);
