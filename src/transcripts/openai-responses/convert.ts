/**
 * Responses `input` items <-> `ChatMessage`.
 *
 * The items of one model response (assistant messages and function calls) become one assistant
 * message; each `function_call_output` a tool message. Lossless for text, function calls
 * (`arguments` parsed and written back with `JSON.stringify`) and text outputs. Not kept: item
 * ids and statuses, `developer` roles (become `system`), and with a loss record reasoning items,
 * custom, computer, shell and hosted tool items and their outputs, image and file parts.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  assistantTexts,
  ChatBuilder,
  imageUrl,
  resultText,
  type AssistantContentBlock,
  type ChatMessage,
  type ImageBlock,
  type TextBlock,
  type ToolCall,
} from '../chat/index.ts';
import type { ConversionLoss } from '../core/convert.ts';
import type { JsonObject } from '../core/input.ts';
import { readResponses } from './check.ts';
import type { ResponsesInputItem } from './wire.ts';

/** Responses items as `ChatMessage`s. */
export function responsesToChat(items: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readResponses(items);
  const out = new ChatBuilder();
  let texts: AssistantContentBlock[] = [];
  let calls: ToolCall[] = [];
  let started = -1;
  const flush = () => {
    if (started >= 0) out.assistant(assistantContent(texts, calls.length > 0), calls, `input[${started}]`);
    texts = [];
    calls = [];
    started = -1;
  };
  items.forEach((value, i) => {
    const item = value as JsonObject;
    const at = `input[${i}]`;
    const type = item['type'];
    const role = item['role'];
    if ((type === undefined || type === 'message') && role === 'assistant') {
      if (started < 0) started = i;
      const content = item['content'];
      if (typeof content === 'string') {
        if (content !== '') texts.push({ type: 'text', text: content });
      } else
        (content as JsonObject[]).forEach((part, k) => {
          if (typeof part['text'] === 'string' && part['text'] !== '') texts.push({ type: 'text', text: part['text'] });
          else out.lose(`${at}.content[${k}]`, `a ${String(part['type'])} part`);
        });
      return;
    }
    if (type === 'function_call') {
      if (started < 0) started = i;
      // `arguments` is JSON text in Responses: any other value is lost.
      const text = typeof item['arguments'] === 'string' ? item['arguments'] : undefined;
      calls.push({
        id: item['call_id'] as string,
        name: item['name'] as string,
        arguments: out.callArguments(text, `${at}.arguments`),
      });
      return;
    }
    if (type === 'reasoning') {
      out.lose(at, 'a reasoning item (ChatMessage keeps no encrypted reasoning)');
      return;
    }
    flush();
    if (type === 'function_call_output' && typeof item['call_id'] === 'string') {
      if (typeof item['output'] !== 'string') out.lose(`${at}.output`, 'output parts, kept as their text');
      out.messages.push({ role: 'tool', tool_call_id: item['call_id'], content: resultText(item['output'] ?? '') });
    } else if ((type === undefined || type === 'message') && typeof role === 'string') {
      const content = item['content'];
      if (role === 'system' || role === 'developer') {
        if (role === 'developer') out.lose(`${at}.role`, 'the developer role (becomes system)');
        const text = resultText(content);
        if (text !== '') out.messages.push({ role: 'system', content: text });
        else out.lose(at, 'an empty system message');
      } else if (typeof content === 'string') {
        if (content !== '') out.messages.push({ role: 'user', content });
        else out.lose(at, 'an empty user message');
      } else {
        const blocks: (TextBlock | ImageBlock)[] = [];
        (content as JsonObject[]).forEach((part, k) => {
          if (typeof part['text'] === 'string' && part['text'] !== '')
            blocks.push({ type: 'text', text: part['text'] });
          else if (part['type'] === 'input_image' && typeof part['image_url'] === 'string')
            blocks.push({ type: 'image', source: { type: 'url', url: part['image_url'] } });
          else out.lose(`${at}.content[${k}]`, `a ${String(part['type'])} part`);
        });
        const [first, ...rest] = blocks;
        if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
      }
    } else out.lose(at, `a ${String(type ?? 'item_reference')} item (ChatMessage has no such message)`);
  });
  flush();
  return out;
}

/** `ChatMessage`s as Responses items. */
export function chatToResponses(messages: readonly unknown[]): {
  messages: ResponsesInputItem[];
  losses: ConversionLoss[];
} {
  readChat(messages);
  const losses: ConversionLoss[] = [];
  const out: ResponsesInputItem[] = [];
  (messages as readonly ChatMessage[]).forEach((message, i) => {
    if (message.role === 'system') out.push({ role: 'system', content: message.content });
    else if (message.role === 'tool') out.push(toolResult(message.tool_call_id, message.content));
    else if (message.role === 'user') {
      if (typeof message.content === 'string') out.push({ role: 'user', content: message.content });
      else
        out.push({
          role: 'user',
          content: message.content.map((block) =>
            block.type === 'text'
              ? ({ type: 'input_text', text: block.text } as { type: string })
              : ({
                  type: 'input_image',
                  detail: block.detail ?? 'auto',
                  image_url: imageUrl(block),
                } as { type: string }),
          ),
        });
    } else {
      const texts = assistantTexts(message, i, losses, 'a Responses message holds text');
      if (texts.length > 0) out.push({ type: 'message', role: 'assistant', content: texts.join('\n') });
      for (const call of message.tool_calls ?? [])
        out.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.arguments ?? {}),
        });
    }
  });
  return { messages: out, losses };
}

/**
 * A `function_call_output` item answering the function call `callId`: the one way this format
 * writes a function's result (conversion from `ChatMessage`, repair's synthesized results, the
 * Responses adapter's answers; there is no error flag, so a failure is told in the text). Internal.
 *
 * @param callId - The `call_id` of the call it answers.
 * @param output - The result text.
 */
export function toolResult(
  callId: string,
  output: string,
): { type: 'function_call_output'; call_id: string; output: string } {
  return { type: 'function_call_output', call_id: callId, output };
}
