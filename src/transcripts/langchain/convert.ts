/**
 * LangChain.js messages <-> `ChatMessage`, and the one writer of this format's messages.
 *
 * To `ChatMessage`: text, images (`image_url` blocks, and the standard `image` block with a URL
 * or base64 data), tool calls (`tool_calls`, or the raw `additional_kwargs.tool_calls` an
 * AIMessage without `tool_calls` carries), ToolMessages, and reasoning (Anthropic's `thinking`
 * and `redacted_thinking` blocks, the standard `reasoning` block). A `tool_use` or `tool_call`
 * block that repeats one of the message's tool calls is the same call (ChatAnthropic keeps both)
 * and crosses once. Not carried, each with a loss record: other blocks, `invalid_tool_calls`,
 * a ToolMessage's `status: 'error'` and `artifact`, FunctionMessages and ChatMessages (`generic`),
 * the `developer` type (becomes system), tool call args that are not an object. Message ids,
 * names and metadata (`response_metadata`, `usage_metadata`, other `additional_kwargs`) are not
 * carried.
 *
 * From `ChatMessage`: the `toJSON()` form (`{ lc: 1, type: 'constructor', id, kwargs }`), what
 * `JSON.stringify` of LangChain messages writes and `load()` and `coerceMessageLikeToMessage`
 * read; images as `image_url` blocks, thinking as Anthropic's `thinking` blocks.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  ChatBuilder,
  imageFromUrl,
  imageUrl,
  resultText,
  type AssistantContentBlock,
  type ChatMessage,
  type ImageBlock,
  type TextBlock,
  type ToolCall,
} from '../chat/index.ts';
import type { ConversionLoss } from '../core/convert.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { callList, FIELDS_AT, fieldsOf, type LangChainForm, readLangChain } from './check.ts';
import type { LangChainMessage } from './wire.ts';

const CLASS: Readonly<Record<'human' | 'ai' | 'system' | 'tool', string>> = {
  human: 'HumanMessage',
  ai: 'AIMessage',
  system: 'SystemMessage',
  tool: 'ToolMessage',
};

/**
 * A message of kind `kind` with `fields`, in serialized form `form`: the `toJSON()` form (with
 * the empty `additional_kwargs` and `response_metadata` `toJSON()` writes), a `StoredMessage`,
 * or a message-like object. The one writer of this format's messages. Internal.
 */
export function langChainMessage(
  kind: 'human' | 'ai' | 'system' | 'tool',
  fields: JsonObject,
  form: LangChainForm = 'constructor',
): JsonObject {
  if (form === 'like') return { type: kind, ...fields };
  const kwargs = { ...fields, additional_kwargs: {}, response_metadata: {} };
  if (form === 'stored') return { type: kind, data: kwargs };
  return { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', CLASS[kind]], kwargs };
}

/** A message the writer built, as the public type. */
function typed(message: JsonObject): LangChainMessage {
  // biome-ignore lint/plugin: langChainMessage builds one of the three forms LangChainMessage names
  return message as unknown as LangChainMessage;
}

/**
 * A ToolMessage answering the tool call `toolCallId`, in form `form`: the one way this format
 * writes a tool result (repair's synthesized results: `status: 'error'`, which ChatAnthropic
 * sends as `is_error`). Internal.
 */
export function toolResult(toolCallId: string, content: string, form: LangChainForm, status?: 'error'): JsonObject {
  return langChainMessage(
    'tool',
    { content, tool_call_id: toolCallId, ...(status === undefined ? {} : { status }) },
    form,
  );
}

/** An image block of a LangChain content list (`image_url`, or the standard `image`), or `undefined`. */
function imageOf(block: JsonObject): ImageBlock | undefined {
  let url: unknown;
  let detail: unknown;
  if (block['type'] === 'image_url') {
    const image = block['image_url'];
    url = isJsonObject(image) ? image['url'] : image;
    detail = isJsonObject(image) ? image['detail'] : undefined;
  } else if (block['type'] === 'image') {
    const data = block['data'];
    const mime = block['mimeType'] ?? block['mime_type'];
    if (typeof data === 'string' && data !== '' && typeof mime === 'string' && mime !== '')
      return { type: 'image', source: { type: 'inline', base64_data: data }, media_type: mime };
    url = block['url'];
  }
  if (typeof url !== 'string' || url === '') return undefined;
  return imageFromUrl(url, detail);
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The text of a message's content: the string, or its text blocks joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) if (isJsonObject(block) && nonEmpty(block['text'])) texts.push(block['text']);
  return texts.join('\n');
}

/** An AIMessage's tool calls as `ChatMessage` tool calls. */
function callsOf(fields: JsonObject, at: string, form: LangChainForm, out: ChatBuilder): ToolCall[] {
  const { list, raw } = callList(fields);
  const path = `${at}${FIELDS_AT[form]}${raw ? '.additional_kwargs' : ''}.tool_calls`;
  const calls: ToolCall[] = [];
  list.forEach((value, k) => {
    if (!isJsonObject(value)) return;
    const id = value['id'];
    if (!nonEmpty(id)) return; // a rule failure of the check: no id to carry
    let name: unknown = value['name'];
    // `args` is an object; a raw provider call's `function.arguments` is JSON text.
    let args: unknown = isJsonObject(value['args']) ? value['args'] : undefined;
    if (raw) {
      const fn = value['function'];
      if (!isJsonObject(fn)) return;
      name = fn['name'];
      args = typeof fn['arguments'] === 'string' ? fn['arguments'] : undefined;
    }
    calls.push({
      id,
      name: typeof name === 'string' ? name : '',
      arguments: out.callArguments(
        args,
        `${path}[${k}]${raw ? '.function.arguments' : '.args'}`,
        'args that are not an object',
      ),
    });
  });
  return calls;
}

/** An AIMessage's content blocks as `ChatMessage` assistant blocks (blocks repeating a tool call cross once, as the call). */
function assistantBlocks(
  content: unknown,
  ids: ReadonlySet<string>,
  at: string,
  out: ChatBuilder,
): AssistantContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: AssistantContentBlock[] = [];
  content.forEach((value, k) => {
    const block = value as JsonObject;
    const type = block['type'];
    const signature = block['signature'];
    const signed = typeof signature === 'string' ? { signature } : {};
    if (type === 'text' && nonEmpty(block['text'])) blocks.push({ type: 'text', text: block['text'] });
    else if (type === 'thinking' && nonEmpty(block['thinking']))
      blocks.push({ type: 'thinking', text: block['thinking'], ...signed });
    else if (type === 'reasoning' && nonEmpty(block['reasoning']))
      blocks.push({ type: 'thinking', text: block['reasoning'], ...signed });
    else if (type === 'redacted_thinking' && nonEmpty(block['data']))
      blocks.push({ type: 'redacted_thinking', data: block['data'] });
    else if ((type === 'tool_use' || type === 'tool_call') && typeof block['id'] === 'string' && ids.has(block['id'])) {
      // The same call as one of tool_calls.
    } else out.lose(`${at}[${k}]`, `a ${String(type)} block (ChatMessage has no such block)`);
  });
  return blocks;
}

/** LangChain messages as `ChatMessage`s. */
export function langChainToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  const read = readLangChain(messages);
  const out = new ChatBuilder();
  messages.forEach((value, i) => {
    const message = value as JsonObject;
    const form = read.forms[i] as LangChainForm;
    const fields = fieldsOf(message);
    const at = `messages[${i}]`;
    const contentAt = `${at}${FIELDS_AT[form]}.content`;
    const content = fields['content'];
    switch (read.kinds[i]) {
      case 'system': {
        if (form === 'like' && message['type'] === 'developer')
          out.lose(`${at}.type`, 'the developer type (becomes system)');
        const text = textOf(content);
        if (text !== '') out.messages.push({ role: 'system', content: text });
        else out.lose(at, 'an empty system message');
        return;
      }
      case 'human': {
        if (typeof content === 'string' || !Array.isArray(content)) {
          if (nonEmpty(content)) out.messages.push({ role: 'user', content });
          else out.lose(at, 'an empty human message');
          return;
        }
        const blocks: (TextBlock | ImageBlock)[] = [];
        content.forEach((part, k) => {
          const block = part as JsonObject;
          const image = imageOf(block);
          if (block['type'] === 'text' && nonEmpty(block['text'])) blocks.push({ type: 'text', text: block['text'] });
          else if (image !== undefined) blocks.push(image);
          else out.lose(`${contentAt}[${k}]`, `a ${String(block['type'])} block (ChatMessage has no such block)`);
        });
        const [first, ...rest] = blocks;
        if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
        return;
      }
      case 'ai': {
        const calls = callsOf(fields, at, form, out);
        const invalidCalls = fields['invalid_tool_calls'];
        if (Array.isArray(invalidCalls) && invalidCalls.length > 0)
          out.lose(`${at}${FIELDS_AT[form]}.invalid_tool_calls`, 'invalid tool calls (no integration sends them)');
        const blocks = assistantBlocks(content, new Set(calls.map((c) => c.id)), contentAt, out);
        out.assistant(assistantContent(blocks, calls.length > 0), calls, at);
        return;
      }
      case 'tool': {
        const id = fields['tool_call_id'];
        if (!nonEmpty(id)) {
          out.lose(at, 'a ToolMessage without tool_call_id');
          return;
        }
        if (fields['status'] === 'error')
          out.lose(
            `${at}${FIELDS_AT[form]}.status`,
            "status 'error' (a ChatMessage tool message has no error flag; the text stays)",
          );
        if (fields['artifact'] !== undefined && fields['artifact'] !== null)
          out.lose(`${at}${FIELDS_AT[form]}.artifact`, 'the artifact (not sent to the model)');
        if (Array.isArray(content)) out.lose(contentAt, 'content blocks, kept as their text');
        out.messages.push({ role: 'tool', tool_call_id: id, content: resultText(content ?? '') });
        return;
      }
      default:
        out.lose(at, `a ${read.kinds[i] === 'function' ? 'FunctionMessage' : 'ChatMessage (generic)'}`);
    }
  });
  return out;
}

/** An assistant content block as a LangChain content block (thinking as Anthropic's blocks). */
function aiBlock(block: AssistantContentBlock): JsonObject {
  const signed = 'signature' in block && block.signature !== undefined ? { signature: block.signature } : {};
  if (block.type === 'text') return { type: 'text', text: block.text, ...signed };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.text, ...signed };
  return { type: 'redacted_thinking', data: block.data };
}

/** `ChatMessage`s as LangChain messages (the `toJSON()` form). */
export function chatToLangChain(messages: readonly unknown[]): {
  messages: LangChainMessage[];
  losses: ConversionLoss[];
} {
  readChat(messages);
  const losses: ConversionLoss[] = [];
  const out = (messages as readonly ChatMessage[]).map((message, i): JsonObject => {
    switch (message.role) {
      case 'system':
        return langChainMessage('system', { content: message.content });
      case 'tool':
        return toolResult(message.tool_call_id, message.content, 'constructor');
      case 'user':
        return langChainMessage('human', {
          content:
            typeof message.content === 'string'
              ? message.content
              : message.content.map((block) =>
                  block.type === 'text'
                    ? { type: 'text', text: block.text }
                    : {
                        type: 'image_url',
                        image_url:
                          block.detail === undefined
                            ? { url: imageUrl(block) }
                            : { url: imageUrl(block), detail: block.detail },
                      },
                ),
        });
      default: {
        const content = message.content ?? '';
        const blocks = typeof content === 'string' ? content : content.map(aiBlock);
        const only = Array.isArray(blocks) && blocks.length === 1 ? blocks[0] : undefined;
        return langChainMessage('ai', {
          content:
            only !== undefined && only['type'] === 'text' && only['signature'] === undefined ? only['text'] : blocks,
          tool_calls: (message.tool_calls ?? []).map((call, k) => {
            if (call.signature !== undefined)
              losses.push({
                at: `messages[${i}].tool_calls[${k}].signature`,
                what: 'a tool call signature (LangChain tool calls have none)',
              });
            return { id: call.id, name: call.name, args: call.arguments ?? {}, type: 'tool_call' };
          }),
          invalid_tool_calls: [],
        });
      }
    }
  });
  return { messages: out.map(typed), losses };
}
