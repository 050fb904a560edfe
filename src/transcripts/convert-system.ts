/**
 * Where a conversion puts the system prompt: the formats whose APIs take it outside the
 * messages (Anthropic's top-level `system`, Gemini's `systemInstruction`, Bedrock Converse's
 * `system`) get it as a part of the result of its own, in the shape that field takes; a request
 * body of those formats gives its system prompt to the conversion as the leading system message.
 * The one home of these fields for `convertTranscript`.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { ChatMessage } from './chat/message.ts';
import type { ConversionLoss } from './core/convert.ts';
import { invalid, isJsonObject, type JsonObject } from './core/input.ts';

/**
 * The system prompt of each format that carries it outside its messages, in the shape its
 * request field takes (so it goes to the SDK as it is):
 *
 * - `anthropic`: the Messages API's top-level `system` (a string);
 * - `gemini`: `systemInstruction` (`config.systemInstruction` in `@google/genai`), a `Content`
 *   of text parts;
 * - `bedrock-converse`: the `Converse` request's `system`, `SystemContentBlock[]` of text blocks.
 *
 * Sources: https://docs.anthropic.com/en/api/messages (system),
 * https://ai.google.dev/api/generate-content (systemInstruction),
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html (system).
 *
 * @example
 * ```ts
 * import type { SystemPrompts } from 'turngate/transcripts';
 * const system: SystemPrompts['gemini'] = { parts: [{ text: 'You answer in one sentence.' }] };
 * ```
 */
export interface SystemPrompts {
  readonly anthropic: string;
  readonly gemini: { parts: { text: string }[] };
  readonly 'bedrock-converse': { text: string }[];
}

/** The formats that carry the system prompt outside their messages. */
export type SystemPromptFormat = keyof SystemPrompts;

/**
 * The system part of a conversion's result into format `G`: the prompt in the shape of `G`'s
 * field ({@link SystemPrompts}), or `undefined` (no system message, or a format that keeps
 * system messages among its messages).
 *
 * @example
 * ```ts
 * import type { SystemPrompt } from 'turngate/transcripts';
 * const none: SystemPrompt<'openai-chat'> = undefined;
 * const some: SystemPrompt<'anthropic'> = 'You answer in one sentence.';
 * ```
 */
export type SystemPrompt<G extends TranscriptFormat> = G extends SystemPromptFormat
  ? SystemPrompts[G] | undefined
  : undefined;

/** Where each format's request body holds the system prompt (the body's field name). */
export const SYSTEM_FIELDS: Readonly<Record<SystemPromptFormat, string>> = {
  anthropic: 'system',
  gemini: 'systemInstruction',
  'bedrock-converse': 'system',
};

/** Whether `format` carries the system prompt outside its messages. */
export function hasSystemField(format: TranscriptFormat): format is SystemPromptFormat {
  return Object.hasOwn(SYSTEM_FIELDS, format);
}

/** The texts of text blocks (`{ text }`, or Anthropic's `{ type: 'text', text }`), the rest recorded as lost. */
function blockTexts(blocks: readonly unknown[], at: string, losses: ConversionLoss[]): string[] {
  const texts: string[] = [];
  blocks.forEach((block, i) => {
    if (!isJsonObject(block)) invalid(`${at}[${i}]`, 'a block of the system prompt (an object)');
    const type = block['type'];
    const text = block['text'];
    if (typeof text === 'string' && (type === undefined || type === 'text')) {
      if (text !== '') texts.push(text);
    } else
      losses.push({
        at: `${at}[${i}]`,
        what: `a ${type === undefined ? 'non-text' : String(type)} block of the system prompt`,
      });
  });
  return texts;
}

/**
 * The system prompt a request body of `format` holds, as text (blocks joined by a newline), with
 * what could not cross; `undefined` text when the body holds none.
 *
 * @throws TranscriptInputError when the field is there but is no system prompt of the format.
 */
export function readSystem(
  format: TranscriptFormat,
  body: JsonObject | undefined,
): { readonly text: string | undefined; readonly losses: ConversionLoss[] } {
  const losses: ConversionLoss[] = [];
  if (body === undefined || !hasSystemField(format)) return { text: undefined, losses };
  let field = SYSTEM_FIELDS[format];
  let value = body[field];
  // `@google/genai` takes it in the request's `config`.
  const config = body['config'];
  if (value === undefined && format === 'gemini' && isJsonObject(config)) {
    field = 'config.systemInstruction';
    value = config['systemInstruction'];
  }
  if (value === undefined || value === null) return { text: undefined, losses };
  let texts: string[] | undefined;
  if (typeof value === 'string' && format !== 'bedrock-converse') texts = value === '' ? [] : [value];
  else if (Array.isArray(value)) texts = blockTexts(value, field, losses);
  else if (format === 'gemini' && isJsonObject(value))
    texts = Array.isArray(value['parts'])
      ? blockTexts(value['parts'], `${field}.parts`, losses)
      : blockTexts([value], field, losses);
  if (texts === undefined)
    invalid(
      field,
      format === 'anthropic'
        ? 'a string or an array of text blocks (the system prompt)'
        : format === 'gemini'
          ? 'a Content of text parts, an array of parts or a string (the system instruction)'
          : 'an array of system content blocks ({ text })',
    );
  return { text: texts.length === 0 ? undefined : texts.join('\n'), losses };
}

/** The system prompt `text` in the shape of `format`'s field. */
export function writeSystem<G extends SystemPromptFormat>(format: G, text: string): SystemPrompts[G];
export function writeSystem(format: SystemPromptFormat, text: string): SystemPrompts[SystemPromptFormat] {
  if (format === 'anthropic') return text;
  if (format === 'gemini') return { parts: [{ text }] };
  return [{ text }];
}

/**
 * The system messages of a `ChatMessage` history taken out for a format that carries them
 * outside its messages: their texts joined by a blank line, the rest of the history, and the
 * positions they held.
 */
export function takeSystem(messages: readonly ChatMessage[]): {
  readonly text: string | undefined;
  readonly rest: ChatMessage[];
  readonly taken: readonly { readonly index: number; readonly leading: boolean }[];
} {
  const texts: string[] = [];
  const rest: ChatMessage[] = [];
  const taken: { index: number; leading: boolean }[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'system') {
      rest.push(message);
      return;
    }
    texts.push(message.content);
    taken.push({ index, leading: rest.length === 0 });
  });
  return { text: texts.length === 0 ? undefined : texts.join('\n\n'), rest, taken };
}

/**
 * Anthropic messages of role `system` taken out of a history (the Messages API refuses the role
 * in `messages`): their texts, the rest of the history, the positions they held and what could
 * not cross. A message whose content is neither text nor blocks stays, for the check to refuse.
 */
export function takeAnthropicSystem(messages: readonly unknown[]): {
  readonly texts: string[];
  readonly rest: unknown[];
  readonly taken: readonly { readonly index: number; readonly leading: boolean }[];
  readonly losses: ConversionLoss[];
} {
  const texts: string[] = [];
  const rest: unknown[] = [];
  const taken: { index: number; leading: boolean }[] = [];
  const losses: ConversionLoss[] = [];
  messages.forEach((message, index) => {
    const content = isJsonObject(message) && message['role'] === 'system' ? message['content'] : null;
    if (typeof content === 'string' || Array.isArray(content)) {
      const text =
        typeof content === 'string' ? content : blockTexts(content, `messages[${index}].content`, losses).join('\n');
      if (text !== '') texts.push(text);
      taken.push({ index, leading: rest.length === 0 });
    } else rest.push(message);
  });
  return { texts, rest, taken, losses };
}
