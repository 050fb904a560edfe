/**
 * Repair of Responses `input` items, driven by the check's analysis (what the reader collected,
 * the call each output paired with, and the located failures); it never reads the items again on
 * its own:
 * - outputs standing after their call stay where they are (Responses pairs anywhere after the
 *   call); outputs before their call move to the end of the model response holding the call;
 * - an output of another type than its call is given its call's type when the two hold the same
 *   fields (function and custom tool outputs); otherwise it goes like an orphan and its call gets a
 *   synthesized output;
 * - orphan outputs (no call in the input, or no `call_id`) are removed, and the text they carried
 *   stays as a user message in their place (`orphanedResultText`); repeated outputs, outputs
 *   without `output`, items repeating an item id, approval responses without their request, and
 *   reasoning items without their follower or, under `store: false`, without their encrypted
 *   content are removed;
 * - an over-long `call_id` is replaced, on the call and its outputs alike, by a shorter one derived
 *   from it (deterministic, unused elsewhere in the input);
 * - `arguments` that are not a string are serialized, a `tool_search_call`'s string arguments
 *   parsed, an output that is no content given its JSON text, an invalid item id left out (a
 *   reasoning item, which needs its id, is removed);
 * - a call without an output gets a synthesized one at the end of its response. A `computer_call`
 *   cannot be answered without a screenshot: an unanswered one is removed instead.
 *
 * Items before the first change are the input's own objects; a changed item is a copy.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { FailureIndex, orphanedResultText, type TranscriptRepair } from '../core/repair.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import { type analyzeResponses, ITEM, type OutputSite, type ResponsesCall } from './check.ts';
import { RESPONSES_OUTPUT_ITEM_TYPES } from './kinds.ts';
import { outputText, shortCallId, synthesize, without } from './repair-items.ts';
import { MAX_CALL_ID_LENGTH } from './rules.ts';

const at = (i: number) => `input[${i}]`;

/** Rules whose failing item repair removes, with what the record says. */
const REMOVE_DETAIL: Partial<Record<TranscriptRule, string>> = {
  'openai-responses.duplicate_item_id': 'removed the item: an earlier item has its id',
  'openai-responses.reasoning_without_following_item':
    'removed the reasoning item: the item it came with does not follow it',
  'openai-responses.reasoning_not_persisted':
    'removed the reasoning item: under store: false it names a stored item and carries no encrypted_content',
  'openai-responses.duplicate_function_call_output': 'removed the output item: its call already has an output',
  'openai-responses.mcp_approval_response_orphan':
    'removed the approval response: no mcp_approval_request in the input has its approval_request_id',
};

/** Rules of an output item that keep it from answering its call. */
const PAIRING_FAILURES: readonly TranscriptRule[] = [
  'openai-responses.function_call_output_orphan',
  'openai-responses.function_call_output_before_call',
  'openai-responses.output_type_mismatch',
  'openai-responses.duplicate_function_call_output',
  'openai-responses.output_missing_field',
];

const FUNCTION = 0;
const CUSTOM = 1;

/** Checks and, when rejected, repairs Responses `input` items. */
export function repairResponses(
  items: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome,
): FormatRepair {
  const { outcome, read, pairedCall } = analysisOf<ReturnType<typeof analyzeResponses>>(checked);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const n = items.length;
  const repairs: TranscriptRepair[] = [];
  const removed = new Set<number>();
  // Orphan outputs replaced by a user message holding their text.
  const orphaned = new Set<number>();
  const replaced = new Map<number, JsonObject>();
  const current = (i: number) => replaced.get(i) ?? (items[i] as JsonObject);
  const remove = (i: number, rule: TranscriptRule, ids: readonly string[], detail: string) => {
    if (removed.has(i) || orphaned.has(i)) return;
    removed.add(i);
    replaced.delete(i);
    repairs.push({ action: 'removed', rule, ids, at: at(i), detail, removed: items[i] });
  };
  // An output whose call is not in the input: removed, its text kept as a user message in its place.
  const removeOrphan = (i: number, rule: TranscriptRule, ids: readonly string[], detail: string) => {
    if (removed.has(i) || orphaned.has(i)) return;
    const kept = orphanedResultText(outputText(items[i] as JsonObject));
    if (kept === undefined) {
      remove(i, rule, ids, detail);
      return;
    }
    orphaned.add(i);
    replaced.set(i, { role: 'user', content: kept });
    repairs.push({
      action: 'removed',
      rule,
      ids,
      at: at(i),
      detail: `${detail}; its text stays as a user message in its place`,
      removed: items[i],
    });
  };
  const gone = (i: number) => removed.has(i) || orphaned.has(i);
  const rewrite = (i: number, next: JsonObject, rule: TranscriptRule, ids: readonly string[], detail: string) => {
    if (gone(i)) return;
    repairs.push({ action: 'rewrote_field', rule, ids, at: at(i), detail, removed: current(i) });
    replaced.set(i, next);
  };

  // Removals first, so no field is rewritten on an item that goes.
  for (const { rule, ids, message: i } of failures.all) {
    const detail = REMOVE_DETAIL[rule];
    if (detail !== undefined) remove(i, rule, ids, detail);
    else if (rule === 'openai-responses.function_call_output_orphan')
      removeOrphan(i, rule, ids, 'removed the output item: no call in the input has its call_id');
    else if (rule === 'openai-responses.output_missing_field') {
      if (ids.length === 0) removeOrphan(i, rule, ids, 'removed the output item: it has no call_id');
      else remove(i, rule, ids, 'removed the output item: it has no output');
    } else if (rule === 'openai-responses.item_id_invalid' && read.kinds[i] === ITEM.reasoning)
      remove(i, rule, ids, 'removed the reasoning item: its id is not a reasoning item id');
  }

  const renames: string[] = [];
  for (const { rule, ids, message: i } of failures.all) {
    const item = current(i);
    switch (rule) {
      case 'openai-responses.item_id_invalid':
        rewrite(i, without(item, 'id'), rule, ids, 'left out the item id: it is not an id of its type');
        break;
      case 'openai-responses.function_call_arguments_not_string':
        rewrite(
          i,
          { ...item, arguments: JSON.stringify(item['arguments']) },
          rule,
          ids,
          'wrote the arguments as their JSON string',
        );
        break;
      case 'openai-responses.tool_search_arguments_not_object': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(item['arguments'] as string);
        } catch {
          parsed = undefined;
        }
        if (isJsonObject(parsed))
          rewrite(i, { ...item, arguments: parsed }, rule, ids, 'parsed the arguments string into its JSON object');
        break;
      }
      case 'openai-responses.output_not_content':
        rewrite(i, { ...item, output: JSON.stringify(item['output']) }, rule, ids, 'wrote the output as its JSON text');
        break;
      case 'openai-responses.call_id_too_long':
        if (ids[0] !== undefined && !renames.includes(ids[0])) renames.push(ids[0]);
        break;
      default:
        break;
    }
  }

  // Over-long call ids: one shorter id per key, on its calls and outputs alike. A key whose call
  // is not in the input (held by the server) cannot be renamed on one side only: it stays.
  if (renames.length > 0) {
    const used = new Set<string>();
    for (const call of read.calls) used.add(call.key);
    for (const output of read.outputs) if (output.key !== undefined) used.add(output.key);
    for (const key of renames) {
      const first = read.calls.find((call) => call.key === key);
      if (first === undefined) continue;
      const next = shortCallId(key, used);
      for (const call of read.calls)
        if (call.key === key && !gone(call.message))
          replaced.set(call.message, { ...current(call.message), call_id: next });
      for (const output of read.outputs) {
        if (output.key !== key || gone(output.item)) continue;
        const item = current(output.item);
        const field = item['call_id'] === key ? 'call_id' : 'id';
        replaced.set(output.item, { ...item, [field]: next });
      }
      repairs.push({
        action: 'renamed_call',
        rule: 'openai-responses.call_id_too_long',
        ids: [key, next],
        at: at(first.message),
        detail: `renamed call ${key} to ${next} (at most ${MAX_CALL_ID_LENGTH} characters), with its outputs`,
      });
    }
  }

  // The end of the model response (run of model and reasoning items) holding each item.
  const runEnd = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    runEnd[i] =
      read.kinds[i] !== ITEM.input && i + 1 < n && read.kinds[i + 1] !== ITEM.input ? (runEnd[i + 1] as number) : i;
  }
  const after = new Map<number, JsonObject[]>();
  const place = (call: ResponsesCall, item: JsonObject) => {
    const end = runEnd[call.message] as number;
    const list = after.get(end);
    if (list === undefined) after.set(end, [item]);
    else list.push(item);
  };

  // The calls an output answers where it stands, and the calls some output names.
  const answered = new Set<ResponsesCall>();
  const named = new Set<ResponsesCall>();
  for (let o = 0; o < read.outputs.length; o++) {
    const call = pairedCall[o];
    if (call === undefined) continue;
    named.add(call);
    const output = read.outputs[o] as OutputSite;
    if (!gone(output.item) && failures.find(output.item, -1, PAIRING_FAILURES) === undefined) answered.add(call);
  }
  for (let o = 0; o < read.outputs.length; o++) {
    const output = read.outputs[o] as OutputSite;
    const call = pairedCall[o];
    if (call === undefined || output.key === undefined || gone(output.item)) continue;
    const rule = failures.find(output.item, -1, [
      'openai-responses.function_call_output_before_call',
      'openai-responses.output_type_mismatch',
    ])?.rule;
    if (rule === undefined) continue;
    const ids = [output.key];
    if (gone(call.message)) {
      removeOrphan(output.item, rule, ids, 'removed the output item: its call was removed');
    } else if (answered.has(call)) {
      remove(output.item, rule, ids, 'removed the output item: its call already has an output');
    } else if (rule === 'openai-responses.function_call_output_before_call') {
      answered.add(call);
      removed.add(output.item);
      place(call, current(output.item));
      repairs.push({
        action: 'moved_result',
        rule,
        ids,
        at: at(output.item),
        detail: `moved the output item after ${at(call.message)}, to the end of that response`,
      });
    } else if (
      (call.kind === FUNCTION || call.kind === CUSTOM) &&
      (output.kind === FUNCTION || output.kind === CUSTOM)
    ) {
      answered.add(call);
      const type = RESPONSES_OUTPUT_ITEM_TYPES[call.kind] as string;
      rewrite(
        output.item,
        { ...without(current(output.item), 'id'), type },
        rule,
        ids,
        `made the output a ${type}, the type of its call`,
      );
    } else {
      removeOrphan(output.item, rule, ids, "removed the output item: it is not of its call's output type");
    }
  }

  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  for (const call of read.calls) {
    if (gone(call.message) || answered.has(call) || open.has(call.key)) continue;
    // A repeated call id counts as answered without an output of its own: only uniqueness concerns it.
    if (call.answered && !named.has(call)) continue;
    const output = synthesize(current(call.message), context.readOnlyTools);
    answered.add(call);
    if (output === undefined) {
      remove(
        call.message,
        'openai-responses.function_call_unanswered',
        [call.key],
        'removed the computer call: it has no output and none can be written without a screenshot',
      );
      continue;
    }
    place(call, output);
    repairs.push({
      action: 'synthesized_result',
      rule: 'openai-responses.function_call_unanswered',
      ids: [call.key],
      at: at(call.message),
      detail: `wrote an error output for call ${call.key}: it had none`,
    });
  }

  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    if (!removed.has(i)) out.push(replaced.get(i) ?? items[i]);
    const extra = after.get(i);
    if (extra !== undefined) out.push(...extra);
  }
  return { outcome, repaired: { messages: out, repairs } };
}
