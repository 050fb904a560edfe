/**
 * Bedrock Converse messages <-> `ChatMessage`.
 *
 * To `ChatMessage`: text, reasoning (`reasoningText` with its signature, `redactedContent`),
 * images given as bytes (base64 text in JSON), tool calls and tool results (their text and `json`
 * content as text). Dropped with a loss record: documents, videos, audio, images in S3, cache
 * points, guard content, citations and other block kinds, a result's `status` and its non-text
 * content, tool input that is not an object.
 *
 * From `ChatMessage`, strict alternation starting with a user message: a system message is a loss
 * (Bedrock takes it in the request's `system` field); consecutive tool messages become one user
 * message of `toolResult` blocks, and the user text right after them joins that message;
 * consecutive messages of one role are joined; a history that starts with an assistant message
 * gets the opening user message {@link OPENING_USER_TEXT} first. Images given by URL are a loss
 * (Converse takes bytes or an S3 location).
 *
 * @module
 */
import {
  readChat,
  assistantContent,
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
import { readBedrock } from './read.ts';
import type { BedrockContentBlock, BedrockMessage } from './wire.ts';

const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/**
 * The text of the user message put first when a history starts with an assistant message (a
 * window cut after a user turn): the one home of this text (conversion from `ChatMessage` and
 * repair write it). Bedrock refuses a conversation that does not start with a user message.
 */
export const OPENING_USER_TEXT = '[turngate:opening-turn] The earlier turns of this conversation are not included.';

/**
 * The text repair puts in a message that has no content (or only blank text) when removing it
 * would leave two messages of one role side by side: the one home of this text.
 */
export const EMPTY_MESSAGE_TEXT = '[turngate:empty-message] This message had no content.';

/** The opening user message (a fresh object each time). */
export function openingUserMessage(): { role: 'user'; content: [{ text: string }] } {
  return { role: 'user', content: [{ text: OPENING_USER_TEXT }] };
}

/**
 * A `toolResult` block answering the `toolUse` `toolUseId`: the one way this format writes a tool
 * result (conversion from `ChatMessage`, repair's synthesized results). Internal.
 *
 * @param toolUseId - The id of the `toolUse` it answers.
 * @param text - The result text.
 * @param isError - Whether the tool failed (`status: 'error'`).
 */
export function toolResult(
  toolUseId: string,
  text: string,
  isError = false,
): { toolResult: { toolUseId: string; content: [{ text: string }]; status?: 'error' } } {
  return {
    toolResult: { toolUseId, content: [{ text }], ...(isError && { status: 'error' as const }) },
  };
}

/** The text of a toolResult's content: text blocks as they are, `json` blocks as JSON text, joined by newlines. */
export function toolResultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (typeof part['text'] === 'string') texts.push(part['text']);
    else if (part['json'] !== undefined) texts.push(JSON.stringify(part['json']));
  }
  return texts.join('\n');
}

const IMAGE_FORMATS: ReadonlySet<string> = new Set(['png', 'jpeg', 'gif', 'webp']);

/** The kind of a block: its first own field (a union has one). */
function kindOf(block: JsonObject): string {
  for (const key in block) return key;
  return 'empty';
}

function userBlock(block: JsonObject, at: string, out: ChatBuilder): TextBlock | ImageBlock | undefined {
  const text = block['text'];
  if (typeof text === 'string') {
    if (text !== '') return { type: 'text', text };
    out.lose(at, 'an empty text block');
    return undefined;
  }
  const image = block['image'];
  if (isJsonObject(image)) {
    const source = image['source'];
    const format = image['format'];
    if (isJsonObject(source) && typeof source['bytes'] === 'string' && typeof format === 'string')
      return { type: 'image', source: { type: 'inline', base64_data: source['bytes'] }, media_type: `image/${format}` };
  }
  const kind = kindOf(block);
  out.lose(at, `a ${kind} block (ChatMessage has no ${kind} block)`);
  return undefined;
}

function assistantBlock(block: JsonObject, at: string, out: ChatBuilder): AssistantContentBlock | undefined {
  const text = block['text'];
  if (typeof text === 'string') return text === '' ? undefined : { type: 'text', text };
  const reasoning = block['reasoningContent'];
  if (isJsonObject(reasoning)) {
    const reasoningText = reasoning['reasoningText'];
    if (isJsonObject(reasoningText) && typeof reasoningText['text'] === 'string' && reasoningText['text'] !== '') {
      const signature = reasoningText['signature'];
      return typeof signature === 'string'
        ? { type: 'thinking', text: reasoningText['text'], signature }
        : { type: 'thinking', text: reasoningText['text'] };
    }
    const redacted = reasoning['redactedContent'];
    if (typeof redacted === 'string' && redacted !== '') return { type: 'redacted_thinking', data: redacted };
  }
  const kind = kindOf(block);
  out.lose(at, `a ${kind} block (ChatMessage has no ${kind} block)`);
  return undefined;
}

/** Converse messages as `ChatMessage`s (input already read as Converse messages). */
export function bedrockToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readBedrock(messages);
  const out = new ChatBuilder();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const blocks = message['content'] as JsonObject[];
    if (message['role'] === 'user') {
      let run: (TextBlock | ImageBlock)[] = [];
      const flush = () => {
        const [first, ...rest] = run;
        // One text block is the plain string content ChatMessage writes it as.
        if (first?.type === 'text' && rest.length === 0) out.messages.push({ role: 'user', content: first.text });
        else if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
        run = [];
      };
      blocks.forEach((block, j) => {
        const result = block['toolResult'];
        if (!isJsonObject(result)) {
          const converted = userBlock(block, blockAt(i, j), out);
          if (converted !== undefined) run.push(converted);
          return;
        }
        flush();
        const content = result['content'] as JsonObject[];
        if (result['status'] !== undefined)
          out.lose(`${blockAt(i, j)}.toolResult.status`, 'the result status (a tool message has none)');
        content.forEach((part, k) => {
          if (typeof part['text'] !== 'string')
            out.lose(`${blockAt(i, j)}.toolResult.content[${k}]`, `a ${kindOf(part)} result block, kept as its text`);
        });
        out.messages.push({
          role: 'tool',
          tool_call_id: result['toolUseId'] as string,
          content: toolResultText(content),
        });
      });
      flush();
      if (blocks.length === 0) out.lose(`messages[${i}]`, 'an empty user message');
      continue;
    }
    const content: AssistantContentBlock[] = [];
    const calls: ToolCall[] = [];
    blocks.forEach((block, j) => {
      const use = block['toolUse'];
      if (!isJsonObject(use)) {
        const converted = assistantBlock(block, blockAt(i, j), out);
        if (converted !== undefined) content.push(converted);
        return;
      }
      if (use['type'] === 'server_tool_use') {
        out.lose(blockAt(i, j), 'a server tool call (ChatMessage has no server tool calls)');
        return;
      }
      const input = use['input'];
      if (!isJsonObject(input) && input !== undefined && input !== null)
        out.lose(`${blockAt(i, j)}.toolUse.input`, 'tool input that is not an object');
      calls.push({
        id: use['toolUseId'] as string,
        name: use['name'] as string,
        arguments: isJsonObject(input) ? { ...input } : null,
      });
    });
    out.assistant(assistantContent(content, calls.length > 0), calls, `messages[${i}]`);
  }
  return out;
}

type Block = BedrockContentBlock;
type Role = 'user' | 'assistant';

/** `ChatMessage`s as Converse messages (input already read as chat messages). */
export function chatToBedrock(messages: readonly unknown[]): { messages: BedrockMessage[]; losses: ConversionLoss[] } {
  readChat(messages);
  const out: { role: Role; content: Block[] }[] = [];
  const losses: ConversionLoss[] = [];
  /** Adds blocks in a message of `role`: joined to the last message when it has that role. */
  const put = (role: Role, blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else {
      if (out.length === 0 && role === 'assistant') out.push(openingUserMessage());
      out.push({ role, content: blocks });
    }
  };
  for (const item of withToolRuns(messages as readonly ChatMessage[])) {
    if ('tools' in item) {
      put(
        'user',
        item.tools.map((t) => toolResult(t.tool_call_id, t.content)),
      );
      continue;
    }
    const { index: i, message } = item;
    if (message.role === 'system') {
      losses.push({
        at: `messages[${i}]`,
        what: "a system message (Converse takes the system prompt in the request's system field)",
      });
      continue;
    }
    const content = message.content ?? '';
    const blocks: Block[] = [];
    const blank = (at: string) => losses.push({ at, what: 'a blank text (Converse refuses blank text blocks)' });
    if (typeof content === 'string') {
      if (content.trim() !== '') blocks.push({ text: content });
      else if (content !== '') blank(`messages[${i}].content`);
    } else
      content.forEach((block, j) => {
        if (block.type === 'text' && block.text.trim() === '') blank(blockAt(i, j));
        else if (block.type === 'text') {
          if (block.signature !== undefined)
            losses.push({
              at: `${blockAt(i, j)}.signature`,
              what: 'a text signature (Converse text blocks have none)',
            });
          blocks.push({ text: block.text });
        } else if (block.type === 'thinking')
          blocks.push({
            reasoningContent: {
              reasoningText: { text: block.text, ...(block.signature !== undefined && { signature: block.signature }) },
            },
          });
        else if (block.type === 'redacted_thinking') blocks.push({ reasoningContent: { redactedContent: block.data } });
        else blocks.push(...imageBlock(block, blockAt(i, j), losses));
      });
    if (message.role === 'assistant')
      (message.tool_calls ?? []).forEach((call, k) => {
        if (call.signature !== undefined)
          losses.push({ at: `messages[${i}].tool_calls[${k}].signature`, what: 'a tool call signature' });
        blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments ?? {} } });
      });
    if (blocks.length === 0) losses.push({ at: `messages[${i}]`, what: 'a message with nothing Converse can hold' });
    put(message.role, blocks);
  }
  return { messages: out, losses };
}

/** A chat image as a Converse image block: inline bytes of a format Converse takes; otherwise a loss. */
function imageBlock(block: ImageBlock, at: string, losses: ConversionLoss[]): Block[] {
  if (block.detail !== undefined)
    losses.push({ at: `${at}.detail`, what: 'the image detail (Converse images have none)' });
  const format = block.media_type?.replace(/^image\//, '');
  if (block.source.type === 'inline' && format !== undefined && IMAGE_FORMATS.has(format))
    return [{ image: { format, source: { bytes: block.source.base64_data } } }];
  losses.push({
    at,
    what:
      block.source.type === 'url'
        ? 'an image given by URL (Converse takes image bytes or an S3 location)'
        : `an image of media type ${String(block.media_type)} (Converse takes png, jpeg, gif and webp)`,
  });
  return [];
}
