/**
 * The message type of each wire format, and the request body that holds a transcript.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { TranscriptMessages } from './formats.ts';
import type { TranscriptField } from './unwrap.ts';

export type { TranscriptMessages };

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
