/**
 * Gemini `contents` <-> `ChatMessage`.
 *
 * Lossless for text, thought parts (as thinking blocks, with `thoughtSignature`), inline and file
 * images, function calls with ids (the call's `thoughtSignature` as the tool call signature) and
 * responses of the form `{ output: text }`. Calls without ids get the ids `name#1`, `name#2`, ...
 * in their turn, matched to the responses by position and name, and keep them on the way back.
 * Other responses become their JSON text. Not carried (each with a loss record): other part
 * kinds (code execution, audio, video, ...); system messages, which Gemini takes as
 * `systemInstruction`, not in `contents`.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  callNames,
  ChatBuilder,
  withToolRuns,
  type AssistantContentBlock,
  type ChatMessage,
  type ImageBlock,
  type TextBlock,
  type ToolCall,
} from '../chat/index.ts';
import type { ConversionLoss } from '../core/convert.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { callIds, pairGemini } from './pairing.ts';
import { readGemini } from './read.ts';
import type { GeminiContent, GeminiPart } from './wire.ts';

const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

/**
 * The text of a function response value: the `output` string of `{ output: text }`, a string as
 * it is, anything else as JSON. The one reading of a response as text (conversion, and the
 * words repair keeps from a response it removes).
 */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (isJsonObject(response) && Object.keys(response).length === 1 && typeof response['output'] === 'string')
    return response['output'];
  return JSON.stringify(response ?? null);
}

/** Gemini contents as `ChatMessage`s. */
export function geminiToChat(contents: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  const read = readGemini(contents);
  const pairing = pairGemini(read);
  // Calls without an id get `name#k`; a response without one takes the id of the call it pairs with.
  const ids = callIds(read);
  const out = new ChatBuilder();
  let nextCall = 0;
  let nextResponse = 0;
  contents.forEach((value, i) => {
    const content = value as JsonObject;
    const parts = (content['parts'] as JsonObject[] | undefined) ?? [];
    if (content['role'] === 'model') {
      const blocks: AssistantContentBlock[] = [];
      const calls: ToolCall[] = [];
      parts.forEach((part, j) => {
        const call = part['functionCall'];
        const signature = typeof part['thoughtSignature'] === 'string' ? part['thoughtSignature'] : undefined;
        if (part['functionResponse'] !== undefined) nextResponse++;
        if (isJsonObject(call)) {
          const id = ids[nextCall++] as string;
          const args = call['args'];
          const converted: ToolCall = {
            id,
            name: call['name'] as string,
            arguments: isJsonObject(args) ? { ...args } : null,
          };
          calls.push(signature === undefined ? converted : { ...converted, signature });
        } else if (typeof part['text'] === 'string' && part['text'] !== '') {
          if (part['thought'] === true)
            blocks.push(
              signature === undefined
                ? { type: 'thinking', text: part['text'] }
                : { type: 'thinking', text: part['text'], signature },
            );
          else
            blocks.push(
              signature === undefined
                ? { type: 'text', text: part['text'] }
                : { type: 'text', text: part['text'], signature },
            );
        } else out.lose(partAt(i, j), 'a part ChatMessage has no block for');
      });
      out.assistant(assistantContent(blocks, calls.length > 0), calls, `contents[${i}]`);
      return;
    }
    const taken = new Map<string, number>();
    const blocks: (TextBlock | ImageBlock)[] = [];
    parts.forEach((part, j) => {
      const response = part['functionResponse'];
      const inline = part['inlineData'];
      const file = part['fileData'];
      if (part['functionCall'] !== undefined) nextCall++;
      if (isJsonObject(response)) {
        const r = nextResponse++;
        const name = read.responses[r]?.name;
        const paired = pairing.call[r] as number;
        let id = response['id'] as string | undefined;
        if (id === undefined && paired >= 0) id = ids[paired];
        else if (id === undefined && name !== undefined) {
          const k = (taken.get(name) ?? 0) + 1;
          taken.set(name, k);
          id = `${name}#${k}`;
        }
        if (id === undefined) {
          out.lose(partAt(i, j), 'a function response without id or name');
          return;
        }
        out.messages.push({ role: 'tool', tool_call_id: id, content: responseText(response['response']) });
      } else if (part['functionCall'] !== undefined) out.lose(partAt(i, j), 'a function call in a user content');
      else if (typeof part['text'] === 'string' && part['text'] !== '')
        blocks.push({ type: 'text', text: part['text'] });
      else if (isJsonObject(inline) && typeof inline['data'] === 'string' && typeof inline['mimeType'] === 'string')
        blocks.push({
          type: 'image',
          source: { type: 'inline', base64_data: inline['data'] },
          media_type: inline['mimeType'],
        });
      else if (isJsonObject(file) && typeof file['fileUri'] === 'string')
        blocks.push(
          typeof file['mimeType'] === 'string'
            ? { type: 'image', source: { type: 'url', url: file['fileUri'] }, media_type: file['mimeType'] }
            : { type: 'image', source: { type: 'url', url: file['fileUri'] } },
        );
      else out.lose(partAt(i, j), 'a part ChatMessage has no block for');
    });
    const [first, ...rest] = blocks;
    if (first !== undefined)
      out.messages.push({
        role: 'user',
        content: first.type === 'text' && rest.length === 0 ? first.text : [first, ...rest],
      });
  });
  return out;
}

/** `ChatMessage`s as Gemini contents (system messages are left out: they go to `systemInstruction`). */
export function chatToGemini(messages: readonly unknown[]): { messages: GeminiContent[]; losses: ConversionLoss[] } {
  readChat(messages);
  const chat = messages as readonly ChatMessage[];
  const names = callNames(chat);
  const losses: ConversionLoss[] = [];
  const out: GeminiContent[] = [];
  for (const item of withToolRuns(chat)) {
    if ('tools' in item) {
      const parts = item.tools.map(
        (t): GeminiPart => toolResult(t.tool_call_id, names.get(t.tool_call_id) ?? 'unknown', { output: t.content }),
      );
      out.push({ role: 'user', parts });
      continue;
    }
    const { index: i, message } = item;
    if (message.role === 'system')
      losses.push({ at: `messages[${i}]`, what: 'a system message (Gemini takes it as systemInstruction)' });
    else if (message.role === 'user') {
      const blocks =
        typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      out.push({
        role: 'user',
        parts: blocks.map(
          (block): GeminiPart =>
            block.type === 'text'
              ? { text: block.text }
              : block.source.type === 'inline'
                ? ({ inlineData: { mimeType: block.media_type, data: block.source.base64_data } } as GeminiPart)
                : ({
                    fileData:
                      block.media_type === undefined
                        ? { fileUri: block.source.url }
                        : { fileUri: block.source.url, mimeType: block.media_type },
                  } as GeminiPart),
        ),
      });
    } else if (message.role === 'assistant') {
      const parts: GeminiPart[] = [];
      const content = message.content ?? '';
      if (typeof content === 'string') {
        if (content !== '') parts.push({ text: content });
      } else
        content.forEach((block, j) => {
          if (block.type === 'redacted_thinking')
            losses.push({ at: `messages[${i}].content[${j}]`, what: 'a redacted thinking block (Gemini has none)' });
          else {
            const part: GeminiPart =
              block.type === 'thinking' ? { text: block.text, thought: true } : { text: block.text };
            parts.push(block.signature === undefined ? part : { ...part, thoughtSignature: block.signature });
          }
        });
      for (const call of message.tool_calls ?? []) {
        const part: GeminiPart = { functionCall: { id: call.id, name: call.name, args: call.arguments ?? {} } };
        parts.push(call.signature === undefined ? part : { ...part, thoughtSignature: call.signature });
      }
      out.push({ role: 'model', parts });
    }
  }
  return { messages: out, losses };
}

/**
 * A `functionResponse` part answering a function call: the one way this format writes a
 * function's result (conversion from `ChatMessage`, repair's synthesized results, the Gemini
 * adapter's answers). A call without an id is answered without one (by position and name).
 * Internal.
 *
 * @param id - The call's id, or `undefined` for a call that has none.
 * @param name - The function's name.
 * @param response - The response object (`{ output }`, `{ error }`).
 */
export function toolResult<TResponse extends JsonObject>(
  id: string | undefined,
  name: string,
  response: TResponse,
): { functionResponse: { id?: string; name: string; response: TResponse } } {
  return { functionResponse: { ...(id === undefined ? {} : { id }), name, response } };
}
