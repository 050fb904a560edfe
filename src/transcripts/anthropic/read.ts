/**
 * The reader of Anthropic `messages`: it validates exactly what `AnthropicMessageSchema`
 * validates (a property test holds the two together) in one pass that also collects the calls,
 * the results and the block-level findings the rules (`check.ts`) run over. Internal.
 *
 * Consecutive messages of the same role are one turn (Messages API reference, `messages`):
 * the user turn after an assistant message is every user message that directly follows it.
 * A tool-use loop is one assistant turn ("Thinking", thinking with tool use): it runs on through
 * user turns of tool results.
 *
 * @module
 */
import { CallTable, type CallSite } from '../core/calls.ts';
import { invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { isWordId } from '../core/names.ts';
import { ANTHROPIC_SERVER_CALL_TYPES, isAnthropicServerResultType } from './kinds.ts';

/** A `tool_result` block as read. */
export interface ResultSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
  /** The first non-result content standing before it in its user turn: message, or -1. */
  readonly beforeMessage: number;
  /** ... and its block (-1 for string content). */
  readonly beforeSlot: number;
}

/** A server result block as read. */
export interface ServerResultSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
  /** A client `tool_use` stands before it in its message. */
  readonly afterClientCall: boolean;
}

/** A block the reader flagged: where, and the tool id it carries (if any). */
export interface BlockSite {
  readonly message: number;
  readonly slot: number;
  readonly key: string | undefined;
}

/** A `tool_use` whose `input` is not an object: the object it encodes, if any. */
export interface InputSite extends BlockSite {
  readonly parsed: JsonObject | undefined;
}

/** A block whose tool id is outside the API's grammar. */
export interface IdSite extends BlockSite {
  readonly field: 'id' | 'tool_use_id';
  readonly server: boolean;
}

/** Per-message flag: the message holds a client `tool_use`. */
export const HOLDS_CLIENT_CALL = 1;
/** Per-message flag: the message holds a `tool_result`. */
export const HOLDS_RESULT = 2;

/** What the reader collects. */
export interface AnthropicRead {
  readonly roles: readonly string[];
  /** Per user message: the assistant message directly before its user turn, or -1. */
  readonly owner: Int32Array;
  /** Per message: {@link HOLDS_CLIENT_CALL}, {@link HOLDS_RESULT}. */
  readonly flags: Uint8Array;
  /**
   * Per message: how many messages up to it end an assistant turn for a deferred server call
   * (a user message holding anything but tool_result blocks, a system message). Two assistant
   * messages with the same number stand in one tool-use loop.
   */
  readonly loop: Int32Array;
  /** The first message after the last user turn that holds no tool_result (the final turn starts there). */
  readonly finalTurnStart: number;
  readonly calls: readonly CallSite[];
  /** How many of the calls are server calls. */
  readonly serverCalls: number;
  readonly table: CallTable;
  readonly results: readonly ResultSite[];
  readonly serverResults: readonly ServerResultSite[];
  /** Calls repeating an id, by position. */
  readonly duplicateCalls: readonly CallSite[];
  /** User and assistant messages whose content is `''` or `[]`. */
  readonly emptyMessages: readonly number[];
  readonly emptyTexts: readonly BlockSite[];
  /** The trailing thinking block of assistant messages ending on one. */
  readonly thinkingLast: readonly BlockSite[];
  readonly thinkingCacheControl: readonly BlockSite[];
  readonly inputs: readonly InputSite[];
  /** Calls whose id is outside the grammar (results are judged by the check: most carry a call's id). */
  readonly badIds: readonly IdSite[];
  readonly longNames: readonly BlockSite[];
  readonly badResultContent: readonly BlockSite[];
}

const at = (i: number) => `messages[${i}]`;
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/** `server_tool_use.id`. */
export const SERVER_TOOL_ID = /^srvtoolu_[a-zA-Z0-9_]+$/;
/** The longest `tool_use.name` a request may hold. */
const MAX_NAME = 200;
/** The block types a `tool_result` may hold. */
const RESULT_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'tool_reference',
  'browser_state',
]);

function text(block: JsonObject, key: string, i: number, j: number): string {
  const value = block[key];
  if (typeof value !== 'string') invalid(`${blockAt(i, j)}.${key}`, 'a string');
  return value;
}

/** The object a non-object `input` stands for: parsed JSON text of one; `{}` for nothing at all. */
function encodedObject(input: unknown): JsonObject | undefined {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'string') return undefined;
  if (input.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function resultContentOk(content: unknown): boolean {
  if (content === undefined || typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  for (let k = 0; k < content.length; k++) {
    const part: unknown = content[k];
    if (!isJsonObject(part)) return false;
    const type = part['type'];
    if (typeof type !== 'string' || !RESULT_CONTENT_TYPES.has(type)) return false;
  }
  return true;
}

const SYSTEM_REFUSED = (type: string) =>
  type === 'tool_result' ||
  type === 'tool_use' ||
  type === 'thinking' ||
  type === 'redacted_thinking' ||
  ANTHROPIC_SERVER_CALL_TYPES.has(type) ||
  isAnthropicServerResultType(type);

/**
 * Reads `messages`: raises a `TranscriptInputError` for input that is not Anthropic messages,
 * and collects every call, result and flagged block.
 */
export function readAnthropic(messages: readonly unknown[]): AnthropicRead {
  const n = messages.length;
  const roles: string[] = [];
  const owner = new Int32Array(n).fill(-1);
  const flags = new Uint8Array(n);
  const loop = new Int32Array(n);
  const calls: CallSite[] = [];
  const results: ResultSite[] = [];
  const serverResults: ServerResultSite[] = [];
  const duplicateCalls: CallSite[] = [];
  const emptyMessages: number[] = [];
  const emptyTexts: BlockSite[] = [];
  const thinkingLast: BlockSite[] = [];
  const thinkingCacheControl: BlockSite[] = [];
  const inputs: InputSite[] = [];
  const badIds: IdSite[] = [];
  const longNames: BlockSite[] = [];
  const badResultContent: BlockSite[] = [];
  let seq = 0;
  let serverCalls = 0;
  let turnOwner = -1;
  let beforeMessage = -1;
  let beforeSlot = -1;
  let turnHasResult = false;
  let finalTurnStart = 0;
  let breaks = 0;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'system')
      invalid(`${at(i)}.role`, "'user', 'assistant' or 'system'");
    roles.push(role);
    if (i > 0 && role !== 'user' && roles[i - 1] === 'user' && !turnHasResult) finalTurnStart = i;
    const content = message['content'];
    if (role === 'system') {
      loop[i] = ++breaks;
      if (content === undefined) continue;
    }
    const isString = typeof content === 'string';
    if (!isString && !Array.isArray(content)) invalid(`${at(i)}.content`, 'a string or an array of content blocks');
    if (role === 'user') {
      if (i === 0 || roles[i - 1] !== 'user') {
        turnOwner = i > 0 && roles[i - 1] === 'assistant' ? i - 1 : -1;
        beforeMessage = -1;
        turnHasResult = false;
      }
      owner[i] = turnOwner;
    }
    if (role !== 'system' && (isString ? content === '' : (content as readonly unknown[]).length === 0))
      emptyMessages.push(i);
    if (isString) {
      if (role === 'user') {
        if (beforeMessage < 0) {
          beforeMessage = i;
          beforeSlot = -1;
        }
        loop[i] = ++breaks;
      } else if (role === 'assistant') loop[i] = breaks;
      continue;
    }
    const blocks = content as readonly unknown[];
    // A user message ends a tool-use loop unless it holds tool_result blocks only.
    let resultsOnly = blocks.length > 0;
    let firstClientCall = -1;
    let lastType = '';
    for (let j = 0; j < blocks.length; j++) {
      const block = blocks[j];
      if (!isJsonObject(block)) invalid(blockAt(i, j), 'a content block object');
      const type = block['type'];
      if (typeof type !== 'string') invalid(`${blockAt(i, j)}.type`, 'a string');
      lastType = type;
      if (type === 'text') {
        if (text(block, 'text', i, j) === '' && role !== 'system')
          emptyTexts.push({ message: i, slot: j, key: undefined });
      } else if (role === 'system') {
        if (SYSTEM_REFUSED(type))
          invalid(`${blockAt(i, j)}.type`, 'a block a system message holds (text, not tool or thinking blocks)');
        continue;
      } else if (type === 'tool_result') {
        if (role !== 'user')
          invalid(`${blockAt(i, j)}.type`, 'a block an assistant message holds (tool_result goes in a user message)');
        const key = block['tool_use_id'];
        if (typeof key !== 'string') invalid(`${blockAt(i, j)}.tool_use_id`, 'a string');
        if (block['is_error'] !== undefined && typeof block['is_error'] !== 'boolean')
          invalid(`${blockAt(i, j)}.is_error`, 'a boolean');
        if (!resultContentOk(block['content'])) badResultContent.push({ message: i, slot: j, key });
        results.push({ key, message: i, slot: j, seq: seq++, beforeMessage, beforeSlot });
        turnHasResult = true;
        flags[i] = (flags[i] as number) | HOLDS_RESULT;
        continue;
      } else if (type === 'tool_use' || ANTHROPIC_SERVER_CALL_TYPES.has(type)) {
        if (role !== 'assistant')
          invalid(`${blockAt(i, j)}.type`, `a block a user message holds (${type} goes in an assistant message)`);
        const key = block['id'];
        if (typeof key !== 'string') invalid(`${blockAt(i, j)}.id`, 'a string');
        const name = block['name'];
        if (typeof name !== 'string') invalid(`${blockAt(i, j)}.name`, 'a string');
        const server = type !== 'tool_use';
        const call: CallSite = { key, name, message: i, slot: j, seq: seq++, server, answered: false, claimed: false };
        calls.push(call);
        if (!server) {
          if (firstClientCall < 0) firstClientCall = j;
          flags[i] = (flags[i] as number) | HOLDS_CLIENT_CALL;
          if (!isJsonObject(block['input']))
            inputs.push({ message: i, slot: j, key, parsed: encodedObject(block['input']) });
          if (!isWordId(key)) badIds.push({ message: i, slot: j, key, field: 'id', server: false });
          if (name.length > MAX_NAME) longNames.push({ message: i, slot: j, key });
        } else {
          serverCalls++;
          if (type === 'server_tool_use' && !SERVER_TOOL_ID.test(key))
            badIds.push({ message: i, slot: j, key, field: 'id', server: true });
        }
      } else if (isAnthropicServerResultType(type)) {
        if (role !== 'assistant')
          invalid(`${blockAt(i, j)}.type`, `a block a user message holds (${type} goes in an assistant message)`);
        const key = block['tool_use_id'];
        if (typeof key !== 'string') invalid(`${blockAt(i, j)}.tool_use_id`, 'a string');
        serverResults.push({ key, message: i, slot: j, seq: seq++, afterClientCall: firstClientCall >= 0 });
      } else if (type === 'thinking' || type === 'redacted_thinking') {
        text(block, type === 'thinking' ? 'thinking' : 'data', i, j);
        if (block['cache_control'] !== undefined) thinkingCacheControl.push({ message: i, slot: j, key: undefined });
      }
      if (role === 'user') {
        resultsOnly = false;
        if (beforeMessage < 0) {
          beforeMessage = i;
          beforeSlot = j;
        }
      }
    }
    if (role === 'assistant') {
      if (lastType === 'thinking') thinkingLast.push({ message: i, slot: blocks.length - 1, key: undefined });
      loop[i] = breaks;
    } else if (role === 'user') loop[i] = resultsOnly ? breaks : ++breaks;
  }
  if (n > 0 && roles[n - 1] === 'user' && !turnHasResult) finalTurnStart = n;
  // One hash write per call; the calls repeating an id, in input order, only when one repeats.
  const table = CallTable.of(calls, (call) => duplicateCalls.push(call));
  return {
    roles,
    owner,
    flags,
    loop,
    finalTurnStart,
    calls,
    serverCalls,
    table,
    results,
    serverResults,
    duplicateCalls,
    emptyMessages,
    emptyTexts,
    thinkingLast,
    thinkingCacheControl,
    inputs,
    badIds,
    longNames,
    badResultContent,
  };
}
