/**
 * Type tests of the `langchain` format: `@langchain/core`'s own serialized types (the
 * `StoredMessage` of `toDict()` / `mapChatMessagesToStoredMessages`, the `SerializedConstructor`
 * of `toJSON()`) compile as its messages; another format's messages do not, and LangChain's do
 * not pass as another format's. Negative cases use `@ts-expect-error`, so tsd and TypeScript 7
 * check the same file.
 */
import type { SerializedConstructor } from '@langchain/core/load/serializable';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage, StoredMessage } from '@langchain/core/messages';
import type OpenAI from 'openai';
import { expectAssignable, expectType } from 'tsd';
import {
  checkTranscript,
  convertTranscript,
  guardSend,
  repairTranscript,
  toChatMessages,
  type SendableTranscript,
  type TranscriptMessage,
} from 'turngate/transcripts';
import type { LangChainInstanceForm, LangChainMessage } from 'turngate/formats';
import type { InputMessage } from 'turngate/types';

declare const stored: StoredMessage[];
declare const serialized: SerializedConstructor[];
declare const openaiChat: OpenAI.ChatCompletionMessageParam[];

// LangChain's own types are this format's messages.
expectType<(t: SendableTranscript<'langchain', StoredMessage>) => number>(
  guardSend('langchain', (m: StoredMessage[]) => m.length),
);
expectType<(t: SendableTranscript<'langchain', SerializedConstructor>) => number>(
  guardSend('langchain', (m: SerializedConstructor[]) => m.length),
);
checkTranscript(stored, { format: 'langchain' });
checkTranscript(serialized, { format: 'langchain' });
checkTranscript({ messages: stored }, { format: 'langchain' });
expectType<LangChainMessage>({} as TranscriptMessage<'langchain'>);

// The three forms, written out.
const history: TranscriptMessage<'langchain'>[] = [
  { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Weather?' } },
  { type: 'ai', data: { content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } }] } },
  { type: 'tool', content: 'Snow', tool_call_id: 'call_1', status: 'error' },
];
checkTranscript(history, { format: 'langchain' });

// A message-like object needs one of the types coerceMessageLikeToMessage takes.
// @ts-expect-error -- "'content' does not exist in type 'LangChainStoredMessage'"
const robot: TranscriptMessage<'langchain'> = { type: 'robot', content: 'Hi' };
// A tool call's args is an object.
// @ts-expect-error -- "Types of property 'tool_calls' are incompatible"
const textArgs: TranscriptMessage<'langchain'> = { type: 'ai', tool_calls: [{ id: 'c', name: 'f', args: '{}' }] };

// Other formats' messages are refused, and LangChain's by other formats.
// @ts-expect-error -- "transcript.wrong_format: not langchain: messages of format openai-chat"
guardSend('langchain', (m: OpenAI.ChatCompletionMessageParam[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format langchain"
guardSend('openai-chat', (m: { type: 'ai'; content: string; additional_kwargs: object }[]) => m.length);
checkTranscript(openaiChat, { format: 'openai-chat' });

// any, unknown, never and string have the answers of every format.
// biome-ignore lint/suspicious/noExplicitAny: the any input is under test
declare const anyValue: any;
declare const unknownValue: unknown;
declare const nothing: never;
checkTranscript(anyValue, { format: 'langchain' });
checkTranscript(nothing, { format: 'langchain' });
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format langchain: call checkTranscriptJson"
checkTranscript(unknownValue, { format: 'langchain' });
// @ts-expect-error -- "transcript.invalid: a string is no transcript of format langchain"
checkTranscript('Weather in Oslo?', { format: 'langchain' });
void robot;
void textArgs;

// LangChain's message instances (BaseMessage[], a LangGraph state's messages) are read through
// their serialized form: check, repair, conversion take them; what comes out is the serialized
// form, typed as this format's messages, never as instances.
declare const instances: BaseMessage[];
const fromInstances = checkTranscript(instances, { format: 'langchain' });
if (fromInstances.result === 'accepted')
  expectAssignable<readonly TranscriptMessage<'langchain'>[]>(fromInstances.transcript.messages);
const repairedInstances = repairTranscript(instances, { format: 'langchain' });
if (repairedInstances.ok) expectAssignable<readonly TranscriptMessage<'langchain'>[]>(repairedInstances.value.messages);
convertTranscript({ messages: instances }, { from: 'langchain', to: 'anthropic' });
toChatMessages(instances, { format: 'langchain' });
// A guarded call sends the serialized form (LangChainInstanceForm, a BaseMessageLike a model's
// invoke takes); a sender typed for instances would be handed none.
declare const model: BaseChatModel;
const invoke = guardSend('langchain', (m: LangChainInstanceForm[]) => model.invoke(m));
if (fromInstances.result === 'accepted') void invoke(fromInstances.transcript);
if (repairedInstances.ok && repairedInstances.value.transcript !== undefined)
  void invoke(repairedInstances.value.transcript);
expectType<LangChainInstanceForm>({} as InputMessage<'langchain', BaseMessage[]>);
// @ts-expect-error -- "transcript.wrong_format: send takes messages that are not format langchain's"
guardSend('langchain', (m: BaseMessage[]) => m.length);
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format langchain"
checkTranscript(instances, { format: 'openai-chat' });
