/**
 * The OpenAI Responses API rules over `input` items. Calls and outputs pair by `call_id`
 * wherever both stand, the output after the call, each output of its call's own type; items
 * between them are accepted. With `previous_response_id` or `conversation` in the body (or an
 * `item_reference` in the input), earlier items live on the server, so an output without its call
 * in the input is no orphan. Shape errors of items the reader recognizes (an over-long `call_id`,
 * `arguments` that are not a string, an `output` that is no content, an item id without its
 * type's prefix) are rule failures, not input errors.
 *
 * One pass over the items collects what the rules need; the rules then run over what it
 * collected (calls, outputs, and the rare items with a shape error), never over the items again.
 *
 * @module
 */
import { type CallSite, CallTable } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import type { ExtendedCall, Extension } from '../core/driver.ts';
import { contentParts, invalid, type JsonObject } from '../core/input.ts';
import { FailureSink, type OpenToolCall } from '../core/report.ts';
import { RESPONSES_CALL_ITEM_TYPES, RESPONSES_OUTPUT_ITEM_TYPES } from '../core/kinds.ts';
import { ASSISTANT_MESSAGE_ID_PREFIX, RESPONSES_ID_PREFIX } from './kinds.ts';
import { MAX_CALL_ID_LENGTH, OPENAI_RESPONSES_RULES, type OpenAIResponsesRule } from './rules.ts';

/** A client call item as read: a `CallSite` with the index of its type in `RESPONSES_CALL_ITEM_TYPES`. */
export interface ResponsesCall extends CallSite {
  readonly kind: number;
}

/** An output item as read; `kind` is the index of its type in `RESPONSES_OUTPUT_ITEM_TYPES`. */
export interface OutputSite {
  readonly key: string | undefined;
  readonly item: number;
  readonly seq: number;
  readonly kind: number;
  readonly incomplete: boolean;
}

/** An item with a shape error the reader found (rare), with the rule it breaks and the path of the field. */
export interface ItemIssue {
  readonly rule: OpenAIResponsesRule;
  readonly item: number;
  readonly ids: readonly string[];
  readonly field: string;
}

/** The kinds of items, as `ResponsesRead.kinds` codes them. */
export const ITEM = { input: 0, model: 1, reasoning: 2 } as const;

/** What the reader collects. */
export interface ResponsesRead {
  /** Per item, one of {@link ITEM}: a model item, a caller's input (message, output, reference, approval), or reasoning. */
  readonly kinds: Uint8Array;
  readonly calls: readonly ResponsesCall[];
  readonly outputs: readonly OutputSite[];
  /** Items that repeat an item id, by index, with the id. */
  readonly duplicateIds: readonly { readonly item: number; readonly id: string }[];
  /** Items with a shape error, in input order. */
  readonly issues: readonly ItemIssue[];
  /** Calls and outputs whose `call_id` is longer than the API takes: item index and call id. */
  readonly longCallIds: readonly { readonly item: number; readonly key: string }[];
  /** The ids of the `mcp_approval_request` items. */
  readonly approvalRequests: ReadonlySet<string>;
  /** The `mcp_approval_response` items: index and `approval_request_id` (when a string). */
  readonly approvals: readonly { readonly item: number; readonly key: string | undefined }[];
  /** The indices of the reasoning items. */
  readonly reasoning: readonly number[];
  /** Some item refers to an item held by the server. */
  readonly references: boolean;
  /** The item ids, each with the index of the first item carrying it. */
  readonly itemIds: ReadonlyMap<string, number>;
}

const at = (i: number) => `input[${i}]`;
const NO_APPROVALS: ReadonlySet<string> = new Set();

/** The index of a client call type in `RESPONSES_CALL_ITEM_TYPES`, of an output type in `RESPONSES_OUTPUT_ITEM_TYPES`. */
const CALL_KIND: ReadonlyMap<string, number> = new Map(RESPONSES_CALL_ITEM_TYPES.map((type, i) => [type, i]));
const OUTPUT_KIND: ReadonlyMap<string, number> = new Map(RESPONSES_OUTPUT_ITEM_TYPES.map((type, i) => [type, i]));
const FUNCTION = 0;
const CUSTOM = 1;
const LOCAL_SHELL = 3;
const {
  function_call: FUNCTION_ID_PREFIX,
  custom_tool_call: CUSTOM_ID_PREFIX,
  reasoning: REASONING_ID_PREFIX,
} = RESPONSES_ID_PREFIX;

/** Whether `text` starts with `prefix` (a few characters: compared inline, no call into the runtime). */
function hasPrefix(text: string, prefix: string): boolean {
  for (let k = 0; k < prefix.length; k++) if (text.charCodeAt(k) !== prefix.charCodeAt(k)) return false;
  return true;
}

/** Whether `value` is a list of content parts (objects with a string `type`). */
function isContentList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let k = 0; k < value.length; k++) {
    const part: unknown = value[k];
    if (typeof part !== 'object' || part === null || Array.isArray(part)) return false;
    if (typeof (part as JsonObject)['type'] !== 'string') return false;
  }
  return true;
}

/** Reads `input` items: raises a `TranscriptInputError` for input that is not Responses items. */
export function readResponses(items: readonly unknown[]): ResponsesRead {
  const n = items.length;
  const kinds = new Uint8Array(n);
  const calls: ResponsesCall[] = [];
  const outputs: OutputSite[] = [];
  const duplicateIds: { item: number; id: string }[] = [];
  const issues: ItemIssue[] = [];
  const longCallIds: { item: number; key: string }[] = [];
  const approvals: { item: number; key: string | undefined }[] = [];
  const reasoning: number[] = [];
  let approvalRequests: Set<string> | undefined;
  const ids = new Map<string, number>();
  let references = false;
  let seq = 0;
  const issue = (rule: OpenAIResponsesRule, item: number, ids: readonly string[], field: string) =>
    issues.push({ rule, item, ids, field });
  for (let i = 0; i < n; i++) {
    const value = items[i];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(at(i), 'an input item object');
    const item = value as JsonObject;
    const type = item['type'];
    // Client calls and their outputs first (the most frequent items), by the index of their type.
    let callKind = -1;
    let outputKind = -1;
    if (type === 'function_call') callKind = FUNCTION;
    else if (type === 'function_call_output') outputKind = FUNCTION;
    else if (typeof type === 'string' && type !== 'message' && type !== 'reasoning') {
      callKind = CALL_KIND.get(type) ?? -1;
      if (callKind < 0) outputKind = OUTPUT_KIND.get(type) ?? -1;
    }
    // The item's own id (checked against its type's prefix when `prefix` is set), if it has one.
    let ownId: unknown;
    let prefix: string | undefined;
    if (callKind >= 0) {
      const key = item['call_id'];
      if (typeof key !== 'string') invalid(`${at(i)}.call_id`, 'a string');
      let name = type as string;
      if (callKind === FUNCTION || callKind === CUSTOM) {
        const named = item['name'];
        if (typeof named !== 'string') invalid(`${at(i)}.name`, 'a string');
        if (named === '') issue('openai-responses.function_call_name_empty', i, [key], 'name');
        name = named;
        if (callKind === FUNCTION) {
          prefix = FUNCTION_ID_PREFIX;
          const args = item['arguments'];
          if (typeof args !== 'string' && args !== undefined && args !== null)
            issue('openai-responses.function_call_arguments_not_string', i, [key], 'arguments');
        } else prefix = CUSTOM_ID_PREFIX;
      }
      calls.push({
        key,
        name,
        message: i,
        slot: 0,
        seq: seq++,
        server: false,
        answered: false,
        claimed: false,
        kind: callKind,
      });
      if (key.length > MAX_CALL_ID_LENGTH) longCallIds.push({ item: i, key });
      ownId = item['id'];
      kinds[i] = ITEM.model;
    } else if (outputKind >= 0) {
      const callId = item['call_id'];
      let key = typeof callId === 'string' ? callId : undefined;
      let complete = key !== undefined;
      ownId = item['id'];
      if (outputKind === FUNCTION || outputKind === CUSTOM) {
        const output = item['output'];
        if (typeof output !== 'string') {
          if (output === undefined || output === null) complete = false;
          else if (!isContentList(output))
            issue('openai-responses.output_not_content', i, key === undefined ? [] : [key], 'output');
        }
      } else if (outputKind === LOCAL_SHELL && (callId === undefined || callId === null)) {
        // This output names its call by `id` (the call's call_id), not by its own id.
        key = typeof ownId === 'string' ? ownId : undefined;
        complete = key !== undefined;
        ownId = undefined;
      }
      if (key !== undefined && key.length > MAX_CALL_ID_LENGTH) longCallIds.push({ item: i, key });
      outputs.push({ key, item: i, seq: seq++, kind: outputKind, incomplete: !complete });
      kinds[i] = ITEM.input;
    } else if (type === undefined || type === 'message' || (type === null && item['role'] === undefined)) {
      const role = item['role'];
      if (role === undefined && type !== 'message') {
        // An item reference without its `type`.
        if (typeof item['id'] !== 'string') invalid(`${at(i)}.id`, 'a string');
        references = true;
        kinds[i] = ITEM.input;
        continue;
      }
      if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer')
        invalid(`${at(i)}.role`, "'user', 'assistant', 'system' or 'developer'");
      const content = item['content'];
      if (typeof content !== 'string') contentParts(content, `${at(i)}.content`, true);
      ownId = item['id'];
      if (role === 'assistant') {
        prefix = ASSISTANT_MESSAGE_ID_PREFIX;
        kinds[i] = ITEM.model;
      } else kinds[i] = ITEM.input;
    } else if (type === 'reasoning') {
      ownId = item['id'];
      prefix = REASONING_ID_PREFIX;
      kinds[i] = ITEM.reasoning;
      reasoning.push(i);
    } else if (type === 'item_reference') {
      if (item['role'] !== undefined) invalid(`${at(i)}.role`, 'no role (an item reference)');
      if (typeof item['id'] !== 'string') invalid(`${at(i)}.id`, 'a string');
      references = true;
      kinds[i] = ITEM.input;
      continue;
    } else if (typeof type !== 'string') {
      invalid(`${at(i)}.type`, 'a string');
    } else {
      const id = item['id'];
      ownId = typeof id === 'string' ? id : undefined;
      if (type === 'mcp_approval_response') {
        const key = item['approval_request_id'];
        approvals.push({ item: i, key: typeof key === 'string' ? key : undefined });
        kinds[i] = ITEM.input;
      } else {
        if (type === 'mcp_approval_request' && typeof id === 'string') {
          approvalRequests ??= new Set();
          approvalRequests.add(id);
        } else if (type === 'tool_search_call' && typeof item['arguments'] === 'string')
          issue('openai-responses.tool_search_arguments_not_object', i, [], 'arguments');
        kinds[i] = ITEM.model;
      }
    }
    if (ownId === undefined || ownId === null) continue;
    if (typeof ownId !== 'string' || ownId === '' || (prefix !== undefined && !hasPrefix(ownId, prefix))) {
      issue('openai-responses.item_id_invalid', i, typeof ownId === 'string' && ownId !== '' ? [ownId] : [], 'id');
      continue;
    }
    if (ids.has(ownId)) duplicateIds.push({ item: i, id: ownId });
    else ids.set(ownId, i);
  }
  return {
    kinds,
    calls,
    outputs,
    duplicateIds,
    issues,
    longCallIds,
    approvalRequests: approvalRequests ?? NO_APPROVALS,
    approvals,
    reasoning,
    references,
    itemIds: ids,
  };
}

/** Checks Responses `input` items against every Responses rule. */
export function checkResponses(items: readonly unknown[], context: CheckContext): CheckOutcome<OpenAIResponsesRule> {
  const analysis = analyzeResponses(items, context);
  return { ...analysis.outcome, analysis };
}

/** What the check found, with what the reader collected, for repair. */
export interface ResponsesAnalysis {
  readonly outcome: CheckOutcome<OpenAIResponsesRule>;
  readonly read: ResponsesRead;
  /** Earlier items live on the server (`previous_response_id`, `conversation`, an item reference). */
  readonly serverState: boolean;
  /** The call each output paired with, by output position in `read.outputs` (`undefined`: none in the input). */
  readonly pairedCall: readonly (ResponsesCall | undefined)[];
}

/**
 * Whether a reasoning item cannot be resolved under `store: false`: it names an item by `id` but
 * carries no `encrypted_content`, so the server would look the id up among stored items.
 */
export function reasoningNeedsStore(item: JsonObject): boolean {
  const encrypted = item['encrypted_content'];
  return typeof item['id'] === 'string' && (typeof encrypted !== 'string' || encrypted === '');
}

/** The check with what the reader collected (for repair). */
export function analyzeResponses(items: readonly unknown[], context: CheckContext): ResponsesAnalysis {
  const read = readResponses(items);
  const sink = new FailureSink(OPENAI_RESPONSES_RULES);
  const body = context.body;
  const stored =
    body !== undefined && (typeof body['previous_response_id'] === 'string' || body['conversation'] != null);
  const serverState = read.references || stored;
  // A call_id pairs its call with its output across the whole input: two calls under one call_id
  // cannot both be answered, and the second would be dropped without a word.
  const table = CallTable.of(read.calls, (call) =>
    sink.fail('openai-responses.duplicate_call_id', [call.key], `${at(call.message)}.call_id`, call.message),
  );
  for (const { item, id } of read.duplicateIds) sink.fail('openai-responses.duplicate_item_id', [id], at(item), item);
  for (const { rule, item, ids, field } of read.issues) sink.fail(rule, ids, `${at(item)}.${field}`, item);
  for (const { item, key } of read.longCallIds)
    sink.fail('openai-responses.call_id_too_long', [key], `${at(item)}.call_id`, item);

  const pairedCall: (ResponsesCall | undefined)[] = new Array(read.outputs.length);
  for (let o = 0; o < read.outputs.length; o++) {
    const output = read.outputs[o] as OutputSite;
    if (output.incomplete) {
      sink.fail(
        'openai-responses.output_missing_field',
        output.key === undefined ? [] : [output.key],
        at(output.item),
        output.item,
      );
    }
    if (output.key === undefined) continue;
    const call = table.get(output.key) as ResponsesCall | undefined;
    pairedCall[o] = call;
    if (call === undefined) {
      if (!serverState)
        sink.fail('openai-responses.function_call_output_orphan', [output.key], at(output.item), output.item);
    } else if (call.seq > output.seq) {
      sink.fail('openai-responses.function_call_output_before_call', [output.key], at(output.item), output.item);
    } else if (call.kind !== output.kind) {
      // One cause, one failure: the call is not reported unanswered as well.
      sink.fail('openai-responses.output_type_mismatch', [output.key], at(output.item), output.item);
      call.answered = true;
    } else if (!table.claim(call)) {
      sink.fail('openai-responses.duplicate_function_call_output', [output.key], at(output.item), output.item);
    } else {
      call.answered = true;
    }
  }

  if (!serverState) {
    for (const { item, key } of read.approvals) {
      if (key === undefined || !read.approvalRequests.has(key))
        sink.fail('openai-responses.mcp_approval_response_orphan', key === undefined ? [] : [key], at(item), item);
    }
  }

  // The model's last response: the items after the caller's last message or output.
  const kinds = read.kinds;
  let lastInput = kinds.length - 1;
  while (lastInput >= 0 && kinds[lastInput] !== ITEM.input) lastInput--;
  const openToolCalls: OpenToolCall[] = [];
  for (const call of read.calls) {
    if (call.answered) continue;
    if (context.expect === 'received' && call.message > lastInput) {
      openToolCalls.push({ id: call.key, name: call.name, at: at(call.message), messageIndex: call.message });
    } else {
      sink.fail('openai-responses.function_call_unanswered', [call.key], at(call.message), call.message);
    }
  }

  // A reasoning item needs the item it came with right after it; with `store: false` and no
  // stored response to continue, it must carry its encrypted content.
  const storeOff = body !== undefined && body['store'] === false && !stored;
  for (const i of read.reasoning) {
    const item = items[i] as JsonObject;
    if (storeOff && reasoningNeedsStore(item))
      sink.fail('openai-responses.reasoning_not_persisted', [item['id'] as string], at(i), i);
    if (i + 1 >= kinds.length || kinds[i + 1] !== ITEM.model) {
      const id = item['id'];
      sink.fail('openai-responses.reasoning_without_following_item', typeof id === 'string' ? [id] : [], at(i), i);
    }
  }
  if (!storeOff) checkCallReasoning(items, read, context, sink);
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read, serverState, pairedCall };
}

/**
 * Whether the model is an OpenAI reasoning model (the o-series, `gpt-5` and later but not the
 * `-chat` models), whose responses put a reasoning item before their calls.
 */
export function isReasoningModel(model: string | undefined): boolean {
  const name = model?.toLowerCase().replace(/^openai\//, '');
  return name !== undefined && /^(o[1-9]|gpt-[5-9])/.test(name) && !/-chat/.test(name);
}

/**
 * A `function_call` (or `custom_tool_call`) replayed with its item `id` names an item of a
 * stored response; a reasoning model's response put a reasoning item before it, and the API
 * refuses the call without that item. The rule runs when the model reasons: a reasoning model
 * named (`options.model`, the body's `model`), or reasoning items elsewhere in the input (the
 * caller keeps them, and dropped this one). The reasoning item stands before the call in the
 * same response: the model items since the caller's last input item. Under `store: false` no
 * response is stored to look the id up in, and the rule does not run.
 */
function checkCallReasoning(
  items: readonly unknown[],
  read: ResponsesRead,
  context: CheckContext,
  sink: FailureSink,
): void {
  if (read.reasoning.length === 0 && !isReasoningModel(context.model)) return;
  const kinds = read.kinds;
  for (const call of read.calls) {
    const item = items[call.message] as JsonObject;
    const type = item['type'];
    if ((type !== 'function_call' && type !== 'custom_tool_call') || typeof item['id'] !== 'string') continue;
    let j = call.message - 1;
    while (j >= 0 && kinds[j] === ITEM.model) j--;
    if (j >= 0 && kinds[j] === ITEM.reasoning) continue;
    sink.fail('openai-responses.function_call_without_reasoning', [call.key], `${at(call.message)}.id`, call.message);
  }
}

/** The boundary state of a Responses history for its extension (`responsesExtendable`). */
interface ResponsesBoundary {
  /** The history holds a reasoning item (the reasoning rule runs over every call). */
  readonly reasoning: boolean;
  /** The history holds a client call. */
  readonly calls: boolean;
}

/** Keys of item ids among the carried keys: apart from call ids (a clash only sends a tail to the full check). */
const ITEM_ID_KEY = '\u0000item:';

/**
 * The keys of a checked Responses input for its extension by a tail read alone
 * (`FormatDriver.extendable`), or `undefined` when a tail's own check does not decide the whole
 * input. Without a request body (an extension has none) the store rules do not run. What
 * is left reads across the boundary by key, or through the reasoning rule:
 * - calls and outputs pair by `call_id` over the whole input, and item ids are unique over it:
 *   the keys returned are the calls' and outputs' `call_id`s and the item ids, and a tail
 *   repeating one of the history's is checked whole (a tail's output for a history's call is
 *   an orphan in its own check, unless an item reference waives orphans: then its key sends it
 *   whole). An item reference in the history waives orphans of the tail: its own check, which
 *   does not see it, reports them, and the tail is checked whole;
 * - an accepted history does not end in a reasoning item (it needs the item after it), and
 *   an approval response in the tail for a request of the history is an orphan in its own check;
 * - `function_call_without_reasoning` runs when the model reasons (named, or a reasoning item
 *   anywhere): when the history holds reasoning and the tail none, or the tail reasoning and
 *   the history calls, for a model not named a reasoning one, the rule runs over calls the
 *   other part's check did not run it on: the tail is checked whole. When it runs in both, a
 *   tail's call reads back only over the tail's model items, and one whose reasoning stands in
 *   the history fails the tail's own check (checked whole).
 */
export function responsesExtendable(analysis: unknown, context: CheckContext, before: unknown): Extension | undefined {
  if (context.body !== undefined) return undefined;
  const { read } = analysis as ResponsesAnalysis;
  const prior = before as ResponsesBoundary | undefined;
  const reasoning = read.reasoning.length > 0;
  if (prior !== undefined && !isReasoningModel(context.model)) {
    if (prior.reasoning && !reasoning && read.calls.length > 0) return undefined;
    if (!prior.reasoning && reasoning && prior.calls) return undefined;
  }
  const calls: ExtendedCall[] = [...read.calls];
  for (const output of read.outputs)
    if (output.key !== undefined) calls.push({ key: output.key, message: output.item });
  for (const [id, item] of read.itemIds) calls.push({ key: ITEM_ID_KEY + id, message: item });
  const state: ResponsesBoundary = {
    reasoning: reasoning || prior?.reasoning === true,
    calls: read.calls.length > 0 || prior?.calls === true,
  };
  return { calls, state };
}
