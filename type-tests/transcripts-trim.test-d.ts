/**
 * Type tests of trimming: `cutPoints` and `trimTranscript` take the format's messages (an SDK's
 * own type, a request body) and refuse another format's with the same `transcript.wrong_format`
 * misuse as the check; a value of type `unknown` is sent to `trimTranscriptJson`. The result is
 * typed by the input's message type. Negative cases use `@ts-expect-error`, so tsd and
 * TypeScript 7 check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { expectType } from 'tsd';
import {
  cutPoints,
  type SendableTranscript,
  type TrimRefusal,
  trimTranscript,
  trimTranscriptJson,
  type TranscriptMessage,
} from 'turngate/transcripts';

declare const anthropic: Anthropic.MessageParam[];
declare const openaiChat: OpenAI.ChatCompletionMessageParam[];

expectType<readonly number[]>(cutPoints(anthropic, { format: 'anthropic' }));
expectType<readonly number[]>(
  cutPoints({ model: 'gpt-5', messages: openaiChat }, { format: 'openai-chat', dialect: 'groq' }),
);

const trimmed = trimTranscript(anthropic, { format: 'anthropic', keepLast: 10, summary: 'Earlier: Oslo, snow.' });
if (trimmed.ok) {
  expectType<readonly Anthropic.MessageParam[]>(trimmed.value.messages);
  expectType<SendableTranscript<'anthropic', Anthropic.MessageParam>>(trimmed.value.transcript);
  expectType<Anthropic.MessageParam | undefined>(trimmed.value.removed[0]?.message);
} else {
  expectType<readonly TrimRefusal<'anthropic'>[]>(trimmed.failures);
}
const parsed = trimTranscriptJson(JSON.parse('[]') as unknown, { format: 'gemini', keepLast: 4 });
if (parsed.ok) expectType<readonly TranscriptMessage<'gemini'>[]>(parsed.value.messages);

// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
cutPoints(anthropic, { format: 'openai-chat' });
// @ts-expect-error -- "transcript.wrong_format: not openai-chat: messages of format anthropic"
trimTranscript(anthropic, { format: 'openai-chat', keepLast: 4 });
declare const unknownHistory: unknown;
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format anthropic: call trimTranscriptJson"
trimTranscript(unknownHistory, { format: 'anthropic', keepLast: 4 });
// @ts-expect-error -- "transcript.invalid: dialect is an option of format openai-chat only"
trimTranscript(anthropic, { format: 'anthropic', keepLast: 4, dialect: 'groq' });
