/**
 * The message type of each wire format, and the request body that holds a transcript.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { AISDKMessage } from './aisdk/wire.ts';
import type { AnthropicMessage } from './anthropic/wire.ts';
import type { ChatMessage } from './chat-message.ts';
import type { TranscriptField } from './core/unwrap.ts';
import type { GeminiContent } from './gemini/wire.ts';
import type { OpenAIChatMessage } from './openai-chat/wire.ts';
import type { ResponsesInputItem } from './openai-responses/wire.ts';

/**
 * The message (item, content) type of each format.
 *
 * @example
 * ```ts
 * import type { TranscriptMessages } from 'turngate/transcripts';
 * const item: TranscriptMessages['openai-responses'] = { type: 'function_call_output', call_id: 'call_01', output: 'Snow' };
 * ```
 */
export interface TranscriptMessages {
  readonly anthropic: AnthropicMessage;
  readonly 'openai-chat': OpenAIChatMessage;
  readonly 'openai-responses': ResponsesInputItem;
  readonly aisdk: AISDKMessage;
  readonly gemini: GeminiContent;
  readonly chat: ChatMessage;
}

/**
 * One message of format `F` (e.g. `TranscriptMessage<'anthropic'>` is `AnthropicMessage`).
 *
 * @example
 * ```ts
 * import type { TranscriptMessage } from 'turngate/transcripts';
 * const message: TranscriptMessage<'gemini'> = { role: 'user', parts: [{ text: 'Hello' }] };
 * ```
 */
export type TranscriptMessage<F extends TranscriptFormat> = TranscriptMessages[F];

/**
 * A request body holding a transcript of format `F` in its field (`messages`, `input` or
 * `contents`; a Responses `input` may also be a string). Other fields are allowed, and some
 * inform the check (Anthropic `thinking`, Responses `previous_response_id` and `conversation`).
 *
 * @example
 * ```ts
 * import type { TranscriptRequestBody } from 'turngate/transcripts';
 * const body: TranscriptRequestBody<'anthropic'> = { messages: [{ role: 'user', content: 'Hello' }] };
 * ```
 */
export type TranscriptRequestBody<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> = {
  readonly [K in TranscriptField<F>]: F extends 'openai-responses' ? string | readonly M[] : readonly M[];
};

/**
 * The message type a request body `B` of format `F` holds.
 *
 * @example
 * ```ts
 * import type { BodyMessage } from 'turngate/transcripts';
 * type M = BodyMessage<'chat', { messages: { role: 'user'; content: string }[] }>; //=> { role: 'user'; content: string }
 * ```
 */
export type BodyMessage<F extends TranscriptFormat, B> = B extends {
  readonly [K in TranscriptField<F>]: string | readonly (infer M)[];
}
  ? M extends TranscriptMessage<F>
    ? M
    : TranscriptMessage<F>
  : TranscriptMessage<F>;
