/**
 * Type tests of the hand-written `ChatMessage` types: what the valibot refinements refuse at run
 * time is a `tsc` error too (an assistant message with neither content nor tool calls, an inline
 * image without `media_type`), and the messages those refinements accept still compile.
 */
import type * as v from 'valibot';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import {
  type ChatMessageSchema,
  validateChatMessage,
  type AssistantMessage,
  type ChatMessage,
  type ImageBlock,
  type ToolCall,
  type UserMessage,
} from 'turngate/transcripts';

const call: ToolCall = { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } };

// Assistant messages: content, tool calls, or both.
expectAssignable<AssistantMessage>({ role: 'assistant', content: 'Snow in Oslo.' });
expectAssignable<AssistantMessage>({ role: 'assistant', content: [{ type: 'text', text: 'Snow.' }] });
expectAssignable<AssistantMessage>({ role: 'assistant', tool_calls: [call] });
expectAssignable<AssistantMessage>({ role: 'assistant', content: [], tool_calls: [call] });
expectAssignable<AssistantMessage>({ role: 'assistant', content: '', tool_calls: [call, { ...call, id: 'call_2' }] });
expectAssignable<AssistantMessage>({ role: 'assistant', content: 'Checking.', tool_calls: [] });
// Neither content nor tool calls (declarations, so the literals are typed in context as users write them).
expectNotAssignable<AssistantMessage>({ role: 'assistant' });
// @ts-expect-error -- "is not assignable to type 'AssistantCalls | AssistantReply'"
const empty: ChatMessage = { role: 'assistant', content: [] };
// @ts-expect-error -- "is not assignable to type 'AssistantCalls | AssistantReply'"
const noCalls: ChatMessage = { role: 'assistant', tool_calls: [] };
// @ts-expect-error -- "is not assignable to type 'AssistantMessage'"
const neither: AssistantMessage = { role: 'assistant', content: [], tool_calls: [] };
void [empty, noCalls, neither];

// Images: an inline image says its media type; a URL image may.
expectAssignable<ImageBlock>({ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } });
expectAssignable<ImageBlock>({
  type: 'image',
  source: { type: 'inline', base64_data: 'iVBORw0KGgo=' },
  media_type: 'image/png',
});
// @ts-expect-error -- "is not assignable to type 'ImageBlock'"
const bare: ImageBlock = { type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' } };
void bare;
const inline: UserMessage = {
  role: 'user',
  // @ts-expect-error -- "is not assignable to type 'string | TextBlock | ImageBlock'"
  content: [{ type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' } }],
};
void inline;
// @ts-expect-error -- "[TextBlock | ImageBlock, ...(TextBlock | ImageBlock)[]]"
const silent: UserMessage = { role: 'user', content: [] };
void silent;

// What the run-time check returns is the hand-written type; the schema's output covers it.
const checked = validateChatMessage({ role: 'user', content: 'hi' });
if (checked.ok) expectType<ChatMessage>(checked.value);
declare const message: ChatMessage;
expectAssignable<v.InferOutput<typeof ChatMessageSchema>>(message);
declare const anything: unknown;
expectNotAssignable<ChatMessage>(anything);
