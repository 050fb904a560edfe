/**
 * The dialects of OpenAI Chat Completions: providers that take the `openai-chat` wire format
 * with rules of their own. A dialect is an option of the `openai-chat` check
 * (`checkTranscript(history, { format: 'openai-chat', dialect: 'deepseek' })`), never a format:
 * every `openai-chat` rule still runs, and the dialect's rules (`TRANSCRIPT_RULES[rule].dialects`)
 * run too.
 *
 * @module
 */

/**
 * The `openai-chat` dialects: DeepSeek, Kimi (Moonshot), Groq and xAI.
 *
 * @example
 * ```ts
 * import { OPENAI_CHAT_DIALECTS } from 'turngate/formats';
 * OPENAI_CHAT_DIALECTS.includes('deepseek'); //=> true
 * ```
 */
export const OPENAI_CHAT_DIALECTS = ['deepseek', 'kimi', 'groq', 'xai'] as const;

/**
 * One of {@link OPENAI_CHAT_DIALECTS}: a provider that takes Chat Completions messages with rules
 * of its own (`checkTranscript(..., { format: 'openai-chat', dialect })`).
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * import type { OpenAIChatDialect } from 'turngate/formats';
 * const dialect: OpenAIChatDialect = 'deepseek';
 * checkTranscript([{ role: 'user', content: 'Hi' }], { format: 'openai-chat', dialect }).result; //=> 'accepted'
 * ```
 */
export type OpenAIChatDialect = (typeof OPENAI_CHAT_DIALECTS)[number];

/** Whether `value` names an `openai-chat` dialect. Internal. */
export function isOpenAIChatDialect(value: unknown): value is OpenAIChatDialect {
  return typeof value === 'string' && (OPENAI_CHAT_DIALECTS as readonly string[]).includes(value);
}
