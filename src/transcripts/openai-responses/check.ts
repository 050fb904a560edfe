/**
 * The OpenAI Responses API rules over `input` items. Calls and outputs pair by `call_id`
 * wherever both stand, the output after the call; items between them are accepted. With
 * `previous_response_id` or `conversation` in the body (or an `item_reference` in the input),
 * earlier items live on the server, so an output without its call in the input is no orphan.
 *
 * @module
 */
import { CallTable, type CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { contentParts, invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { OPENAI_RESPONSES_RULES } from './rules.ts';
import { FailureSink, type OpenToolCall } from '../core/report.ts';
import { RESPONSES_CALL_TYPES, RESPONSES_OUTPUT_TYPES } from './kinds.ts';

/** An output item as read. */
interface OutputSite {
  readonly key: string | undefined;
  readonly item: number;
  readonly seq: number;
  readonly incomplete: boolean;
}

/** The kinds of items, as `ResponsesRead.kinds` codes them. */
export const ITEM = { input: 0, model: 1, reasoning: 2 } as const;

/** What the reader collects. */
export interface ResponsesRead {
  /** Per item: `model` (an item the model produced), `input` (a message from the caller, an output) or `reasoning`. */
  /** Per item, one of {@link ITEM}: a model item, a caller's input (message, output, reference), or reasoning. */
  readonly kinds: Uint8Array;
  readonly calls: readonly CallSite[];
  readonly outputs: readonly OutputSite[];
  /** Items that repeat an item id, by index, with the id. */
  readonly duplicateIds: readonly { readonly item: number; readonly id: string }[];
  /** Some item refers to an item held by the server. */
  readonly references: boolean;
}

const at = (i: number) => `input[${i}]`;
const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function nullishString(item: JsonObject, key: string, i: number): string | undefined {
  const value = item[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(`${at(i)}.${key}`, 'a string');
  return value;
}

function string(item: JsonObject, key: string, i: number): string {
  const value = item[key];
  if (typeof value !== 'string') invalid(`${at(i)}.${key}`, 'a string');
  return value;
}

/** Reads `input` items: raises a `TranscriptInputError` for input that is not Responses items. */
export function readResponses(items: readonly unknown[]): ResponsesRead {
  const kinds = new Uint8Array(items.length);
  const calls: CallSite[] = [];
  const outputs: OutputSite[] = [];
  const duplicateIds: { item: number; id: string }[] = [];
  const ids = new Set<string>();
  let references = false;
  let seq = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!isJsonObject(item)) invalid(at(i), 'an input item object');
    const type = item['type'];
    let ownId: string | undefined;
    if (type === undefined || type === 'message' || (type === null && item['role'] === undefined)) {
      if (item['role'] === undefined && type !== 'message') {
        string(item, 'id', i);
        references = true;
        kinds[i] = ITEM.input;
        continue;
      }
      const role = item['role'];
      if (typeof role !== 'string' || !ROLES.has(role))
        invalid(`${at(i)}.role`, "'user', 'assistant', 'system' or 'developer'");
      contentParts(item['content'], `${at(i)}.content`, true);
      ownId = nullishString(item, 'id', i);
      kinds[i] = role === 'assistant' ? ITEM.model : ITEM.input;
    } else if (type === 'item_reference') {
      if (item['role'] !== undefined) invalid(`${at(i)}.role`, 'no role (an item reference)');
      string(item, 'id', i);
      references = true;
      kinds[i] = ITEM.input;
      continue;
    } else if (typeof type !== 'string') {
      invalid(`${at(i)}.type`, 'a string');
    } else if (type === 'reasoning') {
      ownId = nullishString(item, 'id', i);
      kinds[i] = ITEM.reasoning;
    } else if (RESPONSES_CALL_TYPES.has(type)) {
      const key = string(item, 'call_id', i);
      const name = type === 'function_call' || type === 'custom_tool_call' ? string(item, 'name', i) : type;
      ownId = nullishString(item, 'id', i);
      calls.push({ key, name, message: i, slot: 0, seq: seq++, server: false, answered: false, claimed: false });
      kinds[i] = ITEM.model;
    } else if (RESPONSES_OUTPUT_TYPES.has(type)) {
      const callId = nullishString(item, 'call_id', i);
      ownId = nullishString(item, 'id', i);
      let key = callId;
      let complete = callId !== undefined;
      if (type === 'function_call_output' || type === 'custom_tool_call_output') {
        if (!contentParts(item['output'], `${at(i)}.output`, false)) complete = false;
      } else if (type === 'local_shell_call_output') {
        // This output names its call by `id` (the call's call_id), not by its own id.
        key = callId ?? ownId;
        complete = key !== undefined;
        ownId = undefined;
      }
      outputs.push({ key, item: i, seq: seq++, incomplete: !complete });
      kinds[i] = ITEM.input;
    } else {
      ownId = typeof item['id'] === 'string' ? item['id'] : undefined;
      kinds[i] = ITEM.model;
    }
    if (ownId !== undefined) {
      const size = ids.size;
      if (ids.add(ownId).size === size) duplicateIds.push({ item: i, id: ownId });
    }
  }
  return { kinds, calls, outputs, duplicateIds, references };
}

/** Checks Responses `input` items against every Responses rule. */
export function checkResponses(items: readonly unknown[], context: CheckContext): CheckOutcome {
  return analyzeResponses(items, context).outcome;
}

/** The check with what the reader collected (for repair). */
export function analyzeResponses(
  items: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome; readonly read: ResponsesRead; readonly serverState: boolean } {
  const read = readResponses(items);
  const sink = new FailureSink(OPENAI_RESPONSES_RULES);
  const serverState =
    read.references ||
    (context.body !== undefined &&
      (typeof context.body['previous_response_id'] === 'string' || context.body['conversation'] != null));
  const table = new CallTable();
  for (const call of read.calls) table.add(call);
  for (const { item, id } of read.duplicateIds) sink.fail('openai-responses.duplicate_item_id', [id], at(item), item);

  for (const output of read.outputs) {
    const where = at(output.item);
    if (output.incomplete) {
      sink.fail(
        'openai-responses.output_missing_field',
        output.key === undefined ? [] : [output.key],
        where,
        output.item,
      );
    }
    if (output.key === undefined) continue;
    const call = table.get(output.key);
    if (call === undefined) {
      if (!serverState) sink.fail('openai-responses.function_call_output_orphan', [output.key], where, output.item);
    } else if (call.seq > output.seq) {
      sink.fail('openai-responses.function_call_output_before_call', [output.key], where, output.item);
    } else if (!table.claim(call)) {
      sink.fail('openai-responses.duplicate_function_call_output', [output.key], where, output.item);
    } else {
      call.answered = true;
    }
  }

  // The model's last response: the items after the caller's last message or output.
  let lastInput = read.kinds.length - 1;
  while (lastInput >= 0 && read.kinds[lastInput] !== ITEM.input) lastInput--;
  const openToolCalls: OpenToolCall[] = [];
  for (const call of read.calls) {
    if (call.answered) continue;
    if (context.expect === 'received' && call.message > lastInput) {
      openToolCalls.push({ id: call.key, name: call.name, at: at(call.message), messageIndex: call.message });
    } else {
      sink.fail('openai-responses.function_call_unanswered', [call.key], at(call.message), call.message);
    }
  }

  // A reasoning item needs the item it came with right after it.
  for (let i = 0; i < read.kinds.length; i++) {
    if (read.kinds[i] !== ITEM.reasoning) continue;
    if (i + 1 >= read.kinds.length || read.kinds[i + 1] !== ITEM.model) {
      const id = (items[i] as JsonObject)['id'];
      sink.fail('openai-responses.reasoning_without_following_item', typeof id === 'string' ? [id] : [], at(i), i);
    }
  }
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read, serverState };
}
