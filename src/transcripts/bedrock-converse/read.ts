/**
 * The reader of Bedrock Converse `messages`: one pass that refuses what is not Converse messages
 * (a message that is not an object, a role other than `user` and `assistant`, `content` that is
 * not a list of block objects, a `toolUse` without its id and name, a `toolResult` without its
 * id or its content list, a `toolUse` in a user message) and collects, for the rules, the calls,
 * the results and the blocks whose shape the API refuses. Blocks are untyped unions told by
 * their one field (`text`, `toolUse`, `toolResult`, `reasoningContent`, ...); unknown block
 * kinds are kept. Internal.
 *
 * Source: Bedrock API reference, `Message`, `ContentBlock`, `ToolUseBlock`, `ToolResultBlock`.
 *
 * @module
 */
import { CallTable, type CallSite } from '../core/calls.ts';
import { invalid, isJsonObject } from '../core/input.ts';
import { isToolName, isWordId } from '../core/names.ts';

/** A `toolResult` block of a user message, as read. */
export interface ResultSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
}

/** A block the reader flagged: where, and the tool id it carries (if any). */
export interface BlockSite {
  readonly message: number;
  readonly slot: number;
  readonly key: string | undefined;
}

/** A `json` part of a `toolResult` whose value is not an object. */
export interface JsonSite extends BlockSite {
  /** Its index in the result's `content`. */
  readonly part: number;
}

/** Bits of {@link BedrockRead.flags}, one byte per message. */
export const MESSAGE = {
  /** An assistant message (else user). */
  assistant: 1,
  /** It holds a client `toolUse`. */
  call: 2,
  /** It holds a `toolResult`. */
  result: 4,
  /** It holds a block that is no `toolResult` (a user message that is a turn of its own). */
  other: 8,
  /** Its first block is a `reasoningContent` block. */
  reasoningFirst: 16,
} as const;

/** What the reader collects. */
export interface BedrockRead {
  /** {@link MESSAGE} bits per message. */
  readonly flags: Uint8Array;
  /** The calls, in input order (server tool calls marked `server`). */
  readonly calls: readonly CallSite[];
  readonly table: CallTable;
  /** The results of user messages, in input order. */
  readonly results: readonly ResultSite[];
  /** Messages whose `content` is `[]`. */
  readonly emptyMessages: readonly number[];
  /** Text blocks that are empty or whitespace only. */
  readonly blankTexts: readonly BlockSite[];
  /** Calls whose id is outside the grammar (results are judged by the check: most carry a call's id). */
  readonly badIds: readonly BlockSite[];
  /** The toolUse blocks whose `name` is outside the API grammar (1 to 64 of `a-z A-Z 0-9 _ -`). */
  readonly badNames: readonly BlockSite[];
  /** Results whose `status` is neither `success` nor `error`. */
  readonly badStatus: readonly BlockSite[];
  readonly badJson: readonly JsonSite[];
  /** The first `toolUse` or `toolResult` block, for the request-level rule; `undefined` for none. */
  readonly firstTool: BlockSite | undefined;
  /** The last user message holding a block that is no `toolResult` (-1 for none): the current turn starts after it. */
  readonly lastUserTurn: number;
}

const at = (i: number) => `messages[${i}]`;
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/** Reads `messages`: raises a `TranscriptInputError` for input that is not Converse messages. */
export function readBedrock(messages: readonly unknown[]): BedrockRead {
  const n = messages.length;
  const flags = new Uint8Array(n);
  const calls: CallSite[] = [];
  const results: ResultSite[] = [];
  const emptyMessages: number[] = [];
  const blankTexts: BlockSite[] = [];
  const badIds: BlockSite[] = [];
  const badNames: BlockSite[] = [];
  const badStatus: BlockSite[] = [];
  const badJson: JsonSite[] = [];
  let firstTool: BlockSite | undefined;
  let lastUserTurn = -1;
  let seq = 0;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant')
      invalid(`${at(i)}.role`, "'user' or 'assistant' (the system prompt goes in the request's system field)");
    const assistant = role === 'assistant';
    const blocks = message['content'];
    if (!Array.isArray(blocks)) invalid(`${at(i)}.content`, 'an array of content blocks');
    if (blocks.length === 0) emptyMessages.push(i);
    let f: number = assistant ? MESSAGE.assistant : 0;
    for (let j = 0; j < blocks.length; j++) {
      const block: unknown = blocks[j];
      if (!isJsonObject(block)) invalid(blockAt(i, j), 'a content block object');
      const use = block['toolUse'];
      const result = block['toolResult'];
      const text = block['text'];
      if (text !== undefined && typeof text !== 'string') invalid(`${blockAt(i, j)}.text`, 'a string');
      if (use !== undefined && result !== undefined)
        invalid(blockAt(i, j), 'a content block with one member (toolUse or toolResult, not both)');
      if (use !== undefined) {
        if (!assistant)
          invalid(`${blockAt(i, j)}.toolUse`, 'a block a user message holds (toolUse goes in an assistant message)');
        if (!isJsonObject(use)) invalid(`${blockAt(i, j)}.toolUse`, 'an object');
        const key = use['toolUseId'];
        if (typeof key !== 'string') invalid(`${blockAt(i, j)}.toolUse.toolUseId`, 'a string');
        const name = use['name'];
        if (typeof name !== 'string') invalid(`${blockAt(i, j)}.toolUse.name`, 'a string');
        const server = use['type'] === 'server_tool_use';
        calls.push({ key, name, message: i, slot: j, seq: seq++, server, answered: false, claimed: false });
        if (!server) f |= MESSAGE.call;
        if (!isWordId(key, 64)) badIds.push({ message: i, slot: j, key });
        if (!isToolName(name)) badNames.push({ message: i, slot: j, key });
        firstTool ??= { message: i, slot: j, key };
      } else if (result !== undefined) {
        if (!isJsonObject(result)) invalid(`${blockAt(i, j)}.toolResult`, 'an object');
        const key = result['toolUseId'];
        if (typeof key !== 'string') invalid(`${blockAt(i, j)}.toolResult.toolUseId`, 'a string');
        const content = result['content'];
        if (!Array.isArray(content))
          invalid(`${blockAt(i, j)}.toolResult.content`, 'an array of tool result content blocks');
        firstTool ??= { message: i, slot: j, key };
        for (let k = 0; k < content.length; k++) {
          const part: unknown = content[k];
          if (!isJsonObject(part)) invalid(`${blockAt(i, j)}.toolResult.content[${k}]`, 'a content block object');
          const json = part['json'];
          if (!assistant && json !== undefined && !isJsonObject(json))
            badJson.push({ message: i, slot: j, key, part: k });
        }
        // An assistant message's toolResult answers a server tool the API ran: not a client result.
        if (assistant) continue;
        const status = result['status'];
        if (status !== undefined && status !== 'success' && status !== 'error')
          badStatus.push({ message: i, slot: j, key });
        results.push({ key, message: i, slot: j, seq: seq++ });
        f |= MESSAGE.result;
        continue;
      } else if (text !== undefined) {
        if (text.trim() === '') blankTexts.push({ message: i, slot: j, key: undefined });
      } else if (j === 0 && block['reasoningContent'] !== undefined) f |= MESSAGE.reasoningFirst;
      f |= MESSAGE.other;
    }
    flags[i] = f;
    if (!assistant && ((f & MESSAGE.result) === 0 || (f & MESSAGE.other) !== 0)) lastUserTurn = i;
  }
  const table = CallTable.of(calls);
  return {
    flags,
    calls,
    table,
    results,
    emptyMessages,
    blankTexts,
    badIds,
    badNames,
    badStatus,
    badJson,
    firstTool,
    lastUserTurn,
  };
}
