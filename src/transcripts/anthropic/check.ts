/**
 * The Anthropic Messages API rules over `messages`. The reader validates exactly what
 * `AnthropicMessageSchema` validates (a property test holds the two together) in one pass that
 * also collects the calls and results; the rules then run over what it collected.
 *
 * Consecutive messages of the same role are one turn (Messages API reference, `messages`):
 * the user turn after an assistant message is every user message that directly follows it.
 *
 * @module
 */
import { CallTable, type CallSite, reportUnanswered } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { ANTHROPIC_RULES } from './rules.ts';
import { FailureSink } from '../core/report.ts';
import { ANTHROPIC_SERVER_CALL_TYPES, isAnthropicServerResultType } from './kinds.ts';

/** A `tool_result` block as read. */
interface ResultSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
  /** Some non-result content stands before it in its user turn. */
  readonly afterContent: boolean;
}

/** What the reader collects. */
export interface AnthropicRead {
  readonly roles: readonly string[];
  /** Per user message: the assistant message directly before its user turn, or -1. */
  readonly owner: Int32Array;
  readonly calls: readonly CallSite[];
  readonly table: CallTable;
  readonly results: readonly ResultSite[];
  readonly serverResults: readonly ResultSite[];
  /** Calls repeating an id, by position. */
  readonly duplicateCalls: readonly CallSite[];
}

const at = (i: number) => `messages[${i}]`;
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

function text(block: JsonObject, key: string, i: number, j: number): void {
  if (typeof block[key] !== 'string') invalid(`${blockAt(i, j)}.${key}`, 'a string');
}

function id(block: JsonObject, key: string, i: number, j: number): string {
  const value = block[key];
  if (typeof value !== 'string') invalid(`${blockAt(i, j)}.${key}`, 'a string');
  return value;
}

/**
 * Reads `messages`: raises a `TranscriptInputError` for input that is not Anthropic messages,
 * and collects every call and result.
 */
export function readAnthropic(messages: readonly unknown[]): AnthropicRead {
  const n = messages.length;
  const roles: string[] = new Array(n);
  const owner = new Int32Array(n).fill(-1);
  const table = new CallTable();
  const calls: CallSite[] = [];
  const results: ResultSite[] = [];
  const serverResults: ResultSite[] = [];
  const duplicateCalls: CallSite[] = [];
  let seq = 0;
  let turnOwner = -1;
  let afterContent = false;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'system')
      invalid(`${at(i)}.role`, "'user', 'assistant' or 'system'");
    roles[i] = role;
    const content = message['content'];
    if (role === 'system' && content === undefined) continue;
    const isString = typeof content === 'string';
    if (!isString && !Array.isArray(content)) invalid(`${at(i)}.content`, 'a string or an array of content blocks');
    if (role === 'user') {
      if (i === 0 || roles[i - 1] !== 'user') {
        turnOwner = i > 0 && roles[i - 1] === 'assistant' ? i - 1 : -1;
        afterContent = false;
      }
      owner[i] = turnOwner;
    }
    if (isString) {
      if (role === 'user') afterContent = true;
      continue;
    }
    const blocks = content as readonly unknown[];
    for (let j = 0; j < blocks.length; j++) {
      const block = blocks[j];
      if (!isJsonObject(block)) invalid(blockAt(i, j), 'a content block object');
      const type = block['type'];
      if (typeof type !== 'string') invalid(`${blockAt(i, j)}.type`, 'a string');
      if (type === 'text') {
        text(block, 'text', i, j);
      } else if (
        role === 'system' &&
        (type === 'tool_result' ||
          type === 'tool_use' ||
          type === 'thinking' ||
          type === 'redacted_thinking' ||
          ANTHROPIC_SERVER_CALL_TYPES.has(type) ||
          isAnthropicServerResultType(type))
      ) {
        invalid(`${blockAt(i, j)}.type`, 'a block a system message holds (text, not tool or thinking blocks)');
      } else if (role === 'system') {
        continue;
      } else if (type === 'tool_result') {
        if (role !== 'user')
          invalid(`${blockAt(i, j)}.type`, 'a block an assistant message holds (tool_result goes in a user message)');
        const key = id(block, 'tool_use_id', i, j);
        const inner = block['content'];
        if (inner !== undefined && typeof inner !== 'string') {
          if (!Array.isArray(inner)) invalid(`${blockAt(i, j)}.content`, 'a string or an array of content blocks');
          for (let k = 0; k < inner.length; k++) {
            const part: unknown = inner[k];
            if (!isJsonObject(part)) invalid(`${blockAt(i, j)}.content[${k}]`, 'a content block object');
            if (typeof part['type'] !== 'string') invalid(`${blockAt(i, j)}.content[${k}].type`, 'a string');
          }
        }
        if (block['is_error'] !== undefined && typeof block['is_error'] !== 'boolean')
          invalid(`${blockAt(i, j)}.is_error`, 'a boolean');
        results.push({ key, message: i, slot: j, seq: seq++, afterContent });
        continue;
      } else if (type === 'tool_use' || ANTHROPIC_SERVER_CALL_TYPES.has(type)) {
        if (role !== 'assistant')
          invalid(`${blockAt(i, j)}.type`, `a block a user message holds (${type} goes in an assistant message)`);
        const call: CallSite = {
          key: id(block, 'id', i, j),
          name: id(block, 'name', i, j),
          message: i,
          slot: j,
          seq: seq++,
          server: type !== 'tool_use',
          answered: false,
          claimed: false,
        };
        calls.push(call);
        if (!table.add(call)) duplicateCalls.push(call);
      } else if (isAnthropicServerResultType(type)) {
        if (role !== 'assistant')
          invalid(`${blockAt(i, j)}.type`, `a block a user message holds (${type} goes in an assistant message)`);
        serverResults.push({
          key: id(block, 'tool_use_id', i, j),
          message: i,
          slot: j,
          seq: seq++,
          afterContent: false,
        });
      } else if (type === 'thinking') {
        text(block, 'thinking', i, j);
      } else if (type === 'redacted_thinking') {
        text(block, 'data', i, j);
      }
      if (role === 'user') afterContent = true;
    }
  }
  return { roles, owner, calls, table, results, serverResults, duplicateCalls };
}

/**
 * Checks Anthropic `messages` (already known to be an array) against every Anthropic rule.
 * Rule sources are in `TRANSCRIPT_RULES`.
 */
export function checkAnthropic(messages: readonly unknown[], context: CheckContext): CheckOutcome {
  return analyzeAnthropic(messages, context).outcome;
}

/** The check with what the reader collected (for repair). */
export function analyzeAnthropic(
  messages: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome; readonly read: AnthropicRead } {
  const read = readAnthropic(messages);
  const { calls, table, owner } = read;
  const sink = new FailureSink(ANTHROPIC_RULES);
  const last = messages.length - 1;

  for (const call of read.duplicateCalls) {
    sink.fail('anthropic.duplicate_tool_use_id', [call.key], blockAt(call.message, call.slot), call.message, call.slot);
  }

  // Each client result is classified once: orphan, answering a server call, in place (then its
  // position inside the turn, or a second result), before its call, a second result, misplaced.
  // A result answers the tool_use of the message right before its turn, so a repeated id pairs
  // with the repeat there ("each tool_result needs a tool_use in the previous message").
  for (const result of read.results) {
    const where = blockAt(result.message, result.slot);
    const call = table.get(result.key);
    const local = table.inMessage(result.key, owner[result.message] ?? -1);
    if (call === undefined) {
      sink.fail('anthropic.tool_result_orphan', [result.key], where, result.message, result.slot);
    } else if (call.server) {
      sink.fail('anthropic.server_tool_answered_by_client', [result.key], where, result.message, result.slot);
    } else if (local !== undefined && !local.server) {
      if (!table.claim(local))
        sink.fail('anthropic.duplicate_tool_result', [result.key], where, result.message, result.slot);
      else {
        local.answered = true;
        if (result.afterContent)
          sink.fail('anthropic.tool_result_not_first', [result.key], where, result.message, result.slot);
      }
    } else if (call.seq > result.seq) {
      sink.fail('anthropic.tool_result_before_call', [result.key], where, result.message, result.slot);
    } else if (!table.claim(call)) {
      sink.fail('anthropic.duplicate_tool_result', [result.key], where, result.message, result.slot);
    } else {
      sink.fail('anthropic.tool_result_not_immediately_after', [result.key], where, result.message, result.slot);
    }
  }

  // Server results answer a server call earlier in the same assistant message.
  for (const result of read.serverResults) {
    const call = table.get(result.key);
    if (call?.server && call.seq < result.seq && call.message === result.message) {
      call.answered = true;
    } else {
      sink.fail(
        'anthropic.server_tool_result_orphan',
        [result.key],
        blockAt(result.message, result.slot),
        result.message,
        result.slot,
      );
    }
  }

  // A paused turn (stop_reason pause_turn) goes back as the last message with its server call open.
  for (const call of calls) {
    if (call.server && !call.answered && call.message !== last)
      sink.fail(
        'anthropic.server_tool_use_unanswered',
        [call.key],
        blockAt(call.message, call.slot),
        call.message,
        call.slot,
      );
  }
  const openToolCalls = reportUnanswered(calls, sink, 'anthropic.tool_use_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => blockAt(call.message, call.slot),
    messageAt: at,
  });

  checkThinking(messages, read, context, sink);
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read };
}

/**
 * With thinking enabled in the request body, the assistant message answered by the final user
 * turn of tool results starts with its thinking block ("Extended thinking", preserving
 * thinking blocks). Only request bodies show whether thinking is on.
 */
function checkThinking(
  messages: readonly unknown[],
  read: AnthropicRead,
  context: CheckContext,
  sink: FailureSink,
): void {
  const thinking = context.body?.['thinking'];
  if (!isJsonObject(thinking) || (thinking['type'] !== 'enabled' && thinking['type'] !== 'adaptive')) return;
  const last = messages.length - 1;
  if (last < 0 || read.roles[last] !== 'user') return;
  const assistant = read.owner[last] ?? -1;
  if (assistant < 0) return;
  const answered = read.results.filter((r) => read.owner[r.message] === assistant);
  if (answered.length === 0) return;
  const content = (messages[assistant] as JsonObject)['content'];
  const first = Array.isArray(content) ? (content[0] as JsonObject | undefined) : undefined;
  if (first !== undefined && (first['type'] === 'thinking' || first['type'] === 'redacted_thinking')) return;
  const ids = read.calls.filter((c) => c.message === assistant && !c.server).map((c) => c.key);
  sink.fail(
    'anthropic.thinking_block_missing',
    ids,
    Array.isArray(content) ? blockAt(assistant, 0) : `${at(assistant)}.content`,
    assistant,
  );
}
