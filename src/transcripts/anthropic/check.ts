/**
 * The Anthropic Messages API rules over `messages`, run over what the reader (`read.ts`)
 * collected in its one pass.
 *
 * Consecutive messages of the same role are one turn (Messages API reference, `messages`):
 * the user turn after an assistant message is every user message that directly follows it.
 * A tool-use loop is one assistant turn ("Thinking", thinking with tool use): it runs on through
 * user turns of tool results.
 *
 * @module
 */
import { type CallSite, reportUnanswered } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import type { Extension } from '../core/driver.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { isWordId } from '../core/names.ts';
import { FailureSink } from '../core/report.ts';
import {
  type AnthropicRead,
  type BlockSite,
  HOLDS_CLIENT_CALL,
  HOLDS_RESULT,
  type IdSite,
  type ResultSite,
  readAnthropic,
} from './read.ts';
import { ANTHROPIC_RULES, type AnthropicRule } from './rules.ts';

export { type AnthropicRead, readAnthropic } from './read.ts';

const at = (i: number) => `messages[${i}]`;
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/**
 * Checks Anthropic `messages` (already known to be an array) against every Anthropic rule.
 * Rule sources are in `TRANSCRIPT_RULES`.
 */
export function checkAnthropic(messages: readonly unknown[], context: CheckContext): CheckOutcome<AnthropicRule> {
  const analysis = analyzeAnthropic(messages, context);
  return { ...analysis.outcome, analysis };
}

/** The check, what the reader collected, and the rule each `tool_result` broke (for repair). */
export interface AnthropicAnalysis {
  readonly outcome: CheckOutcome<AnthropicRule>;
  readonly read: AnthropicRead;
  /** Every block whose tool id is outside the API grammar (calls, then results). */
  readonly badIds: readonly IdSite[];
  /** The rule each `read.results` entry broke, by its index (none for a result in place). */
  readonly resultRules: ReadonlyMap<number, AnthropicRule>;
}

/** Failures that share one position (the content or message that caused them) collect their ids. */
class Grouped {
  private readonly byAt = new Map<
    string,
    { rule: AnthropicRule; ids: string[]; at: string; message: number; slot: number }
  >();

  add(rule: AnthropicRule, id: string, where: string, message: number, slot: number): void {
    const key = `${rule} ${where}`;
    const entry = this.byAt.get(key);
    if (entry === undefined) this.byAt.set(key, { rule, ids: [id], at: where, message, slot });
    else entry.ids.push(id);
  }

  emit(sink: FailureSink): void {
    for (const entry of this.byAt.values()) sink.fail(entry.rule, entry.ids, entry.at, entry.message, entry.slot);
  }
}

/** The check with what the reader collected (for repair). */
export function analyzeAnthropic(messages: readonly unknown[], context: CheckContext): AnthropicAnalysis {
  const read = readAnthropic(messages);
  const { calls } = read;
  const sink = new FailureSink(ANTHROPIC_RULES);
  const last = messages.length - 1;

  for (const call of read.duplicateCalls) {
    sink.fail('anthropic.duplicate_tool_use_id', [call.key], blockAt(call.message, call.slot), call.message, call.slot);
  }

  const { resultRules, badIds } = classifyResults(read, sink);
  for (const site of badIds)
    sink.fail(
      'anthropic.tool_use_id_invalid',
      [site.key as string],
      `${blockAt(site.message, site.slot)}.${site.field}`,
      site.message,
      site.slot,
    );

  checkServerCalls(read, last, sink);
  const openToolCalls = reportUnanswered(calls, sink, 'anthropic.tool_use_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => blockAt(call.message, call.slot),
    messageAt: at,
  });

  checkBlocks(read, last, sink);
  checkThinking(messages, read, context, sink);
  checkFinalThinking(messages, read, context, sink);
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read, resultRules, badIds };
}

/** The rule each client result broke (by its index in `read.results`), and every id outside the grammar. */
interface ResultFindings {
  readonly resultRules: Map<number, AnthropicRule>;
  readonly badIds: readonly IdSite[];
}

/**
 * The client results (`tool_result` blocks), each classified once; position failures that share
 * a cause are grouped (failed here, with the orphans and repeats).
 */
function classifyResults(read: AnthropicRead, sink: FailureSink): ResultFindings {
  // Each client result is classified once: orphan, answering a server call, in place (then its
  // position inside the turn, or a second result), before its call, a second result, misplaced.
  // A result answers the tool_use of the message right before its turn, so a repeated id pairs
  // with the repeat there ("each tool_result needs a tool_use in the previous message").
  // Position failures point at their cause: the content standing before the results in their
  // turn, or the message standing between the call and its result.
  const { table, owner, flags } = read;
  const resultRules = new Map<number, AnthropicRule>();
  const grouped = new Grouped();
  // A result carrying a call's id shares that call's grammar failure; an orphan's id is tested here.
  const badKeys = read.badIds.length === 0 ? undefined : new Set(read.badIds.map((site) => site.key));
  const badIds: IdSite[] = [...read.badIds];
  for (let index = 0; index < read.results.length; index++) {
    const result = read.results[index] as ResultSite;
    const call = table.get(result.key);
    if (call === undefined ? !isWordId(result.key) : badKeys?.has(result.key) === true)
      badIds.push({ message: result.message, slot: result.slot, key: result.key, field: 'tool_use_id', server: false });
    const ownerMessage = owner[result.message] ?? -1;
    const local =
      call !== undefined && call.message === ownerMessage ? call : table.inMessage(result.key, ownerMessage);
    let rule: AnthropicRule | undefined;
    if (call === undefined) rule = 'anthropic.tool_result_orphan';
    else if (call.server) rule = 'anthropic.server_tool_answered_by_client';
    else if (local !== undefined && !local.server) {
      if (!table.claim(local)) rule = 'anthropic.duplicate_tool_result';
      else {
        local.answered = true;
        if (result.beforeMessage >= 0) {
          resultRules.set(index, 'anthropic.tool_result_not_first');
          const cause =
            result.beforeSlot < 0 ? at(result.beforeMessage) : blockAt(result.beforeMessage, result.beforeSlot);
          grouped.add('anthropic.tool_result_not_first', result.key, cause, result.beforeMessage, result.beforeSlot);
        }
        continue;
      }
    } else if (call.seq > result.seq) rule = 'anthropic.tool_result_before_call';
    else if (!table.claim(call)) rule = 'anthropic.duplicate_tool_result';
    else {
      resultRules.set(index, 'anthropic.tool_result_not_immediately_after');
      const next = call.message + 1;
      if ((flags[next] ?? 0) & HOLDS_RESULT)
        grouped.add(
          'anthropic.tool_result_not_immediately_after',
          result.key,
          blockAt(result.message, result.slot),
          result.message,
          result.slot,
        );
      else grouped.add('anthropic.tool_result_not_immediately_after', result.key, at(next), next, -1);
      continue;
    }
    resultRules.set(index, rule);
    sink.fail(rule, [result.key], blockAt(result.message, result.slot), result.message, result.slot);
  }
  grouped.emit(sink);
  return { resultRules, badIds };
}

/** The server tool calls and their results (`server_tool_use`, `*_tool_result` blocks). */
function checkServerCalls(read: AnthropicRead, last: number, sink: FailureSink): void {
  const { calls, table, flags, loop } = read;
  // Server results answer a server call before them in the same assistant message, or, for a
  // call deferred past a client call, in a later assistant message of the same tool-use loop.
  for (const result of read.serverResults) {
    const call = table.get(result.key);
    const sameMessage = call?.message === result.message;
    if (
      call?.server &&
      call.seq < result.seq &&
      (sameMessage || ((flags[call.message] ?? 0) & HOLDS_CLIENT_CALL && loop[call.message] === loop[result.message]))
    ) {
      call.answered = true;
      if (sameMessage && result.afterClientCall)
        sink.fail(
          'anthropic.server_tool_result_after_client_call',
          [result.key],
          blockAt(result.message, result.slot),
          result.message,
          result.slot,
        );
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

  // A server call may stay open in the last message (a paused turn, stop_reason pause_turn), or
  // when deferred past a client call while its tool-use loop is still open (results only since).
  const loopOpen = last >= 0 ? loop[last] : 0;
  for (let k = 0; read.serverCalls > 0 && k < calls.length; k++) {
    const call = calls[k] as CallSite;
    if (!call.server || call.answered || call.message === last) continue;
    if ((flags[call.message] ?? 0) & HOLDS_CLIENT_CALL && loop[call.message] === loopOpen) continue;
    sink.fail(
      'anthropic.server_tool_use_unanswered',
      [call.key],
      blockAt(call.message, call.slot),
      call.message,
      call.slot,
    );
  }
}

/** The block-level rules: ids, inputs, names, result content, empty messages and text, thinking blocks. */
function checkBlocks(read: AnthropicRead, last: number, sink: FailureSink): void {
  // A failure of one field of a block: its path ends in the field's name.
  const field = (rule: AnthropicRule, site: BlockSite, name: string) =>
    sink.fail(rule, [site.key as string], `${blockAt(site.message, site.slot)}.${name}`, site.message, site.slot);
  for (const site of read.inputs)
    field(
      site.parsed === undefined ? 'anthropic.tool_use_input_not_object' : 'anthropic.tool_use_input_encoded',
      site,
      'input',
    );
  for (const site of read.longNames) field('anthropic.tool_use_name_too_long', site, 'name');
  for (const site of read.badResultContent) field('anthropic.tool_result_content_invalid', site, 'content');
  for (const i of read.emptyMessages) {
    if (i === last && read.roles[i] === 'assistant') continue;
    sink.fail('anthropic.message_content_empty', [], at(i), i);
  }
  for (const site of read.emptyTexts)
    sink.fail('anthropic.text_block_empty', [], blockAt(site.message, site.slot), site.message, site.slot);
  for (const site of read.thinkingLast)
    sink.fail('anthropic.thinking_block_last', [], blockAt(site.message, site.slot), site.message, site.slot);
  for (const site of read.thinkingCacheControl)
    sink.fail(
      'anthropic.thinking_cache_control',
      [],
      `${blockAt(site.message, site.slot)}.cache_control`,
      site.message,
      site.slot,
    );
}

/**
 * With manual extended thinking in the request body (`thinking.type` `enabled`), the final
 * assistant turn, when it is a tool-use loop, starts with a thinking block: its first assistant
 * message (after the last user message that is not a turn of tool results) starts with its
 * thinking or redacted_thinking block. Later messages of the loop need none (without interleaved
 * thinking Claude thinks once, at the start); adaptive thinking relaxes the rule ("Thinking",
 * thinking with tool use). Only request bodies show whether thinking is on.
 */
function checkThinking(
  messages: readonly unknown[],
  read: AnthropicRead,
  context: CheckContext,
  sink: FailureSink,
): void {
  const thinking = context.body?.['thinking'];
  if (!isJsonObject(thinking) || thinking['type'] !== 'enabled') return;
  const { roles } = read;
  let first = read.finalTurnStart;
  while (first < roles.length && roles[first] !== 'assistant') first++;
  let answered = false;
  for (let i = first + 1; i < roles.length && !answered; i++) answered = roles[i] === 'user';
  if (!answered) return;
  const content = (messages[first] as JsonObject)['content'];
  const head = Array.isArray(content) ? (content[0] as JsonObject | undefined) : undefined;
  if (head !== undefined && (head['type'] === 'thinking' || head['type'] === 'redacted_thinking')) return;
  const ids = read.calls.filter((c) => c.message === first && !c.server).map((c) => c.key);
  sink.fail(
    'anthropic.thinking_block_missing',
    ids,
    Array.isArray(content) ? blockAt(first, 0) : `${at(first)}.content`,
    first,
    Array.isArray(content) ? 0 : -1,
  );
}

/**
 * With thinking off (a request body whose `thinking` is absent or `{type: 'disabled'}`), an
 * assistant message in the final position (a prefill being sent) holds no thinking or
 * redacted_thinking block: the API strips such blocks from earlier turns but refuses them there.
 * Bare message arrays do not say whether thinking is on, and a received answer is no prefill:
 * the rule runs for request bodies about to be sent.
 */
function checkFinalThinking(
  messages: readonly unknown[],
  read: AnthropicRead,
  context: CheckContext,
  sink: FailureSink,
): void {
  if (context.body === undefined || context.expect !== 'sendable') return;
  const thinking = context.body['thinking'];
  if (thinking !== undefined && !(isJsonObject(thinking) && thinking['type'] === 'disabled')) return;
  const last = read.roles.length - 1;
  if (last < 0 || read.roles[last] !== 'assistant') return;
  const content = (messages[last] as JsonObject)['content'];
  if (!Array.isArray(content)) return;
  for (let j = 0; j < content.length; j++) {
    const type = (content[j] as JsonObject)['type'];
    if (type === 'thinking' || type === 'redacted_thinking') {
      sink.fail('anthropic.thinking_in_final_assistant', [], blockAt(last, j), last, j);
    }
  }
}

/**
 * The calls of a checked history for its extension by a tail read alone (`FormatDriver.extendable`),
 * or `undefined` when a tail could change what the history's own messages break. Without a
 * request body (an extension has none) the thinking rules do not run, and what is left reads
 * across a boundary only through the history's end: an empty assistant message is allowed only
 * last, and a server call only stays open in the last message or its open tool-use loop; such a
 * history is checked whole with its tail. Every other rule pairs or places a tool result with a
 * call it names (a tail answering the history's call is an orphan in the tail's own check, and a
 * tail's call id is checked against the history's), or reads one message. Consecutive messages
 * of one role are one turn across the boundary too, yet only a turn's results are placed in it,
 * and those the tail's own check places.
 */
export function anthropicExtendable(analysis: unknown, context: CheckContext): Extension | undefined {
  if (context.body !== undefined) return undefined;
  const { read } = analysis as AnthropicAnalysis;
  const last = read.roles.length - 1;
  if (last >= 0 && read.roles[last] === 'assistant' && read.emptyMessages.includes(last)) return undefined;
  for (const call of read.calls) if (call.server && !call.answered) return undefined;
  return { calls: read.calls };
}
