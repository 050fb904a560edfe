/**
 * Repair of Responses `input` items, driven by the check's classification: outputs standing
 * after their call stay where they are (Responses pairs anywhere after the call); outputs
 * before their call move to the end of the model response holding the call; orphan, repeated
 * and incomplete outputs, items repeating an item id, and reasoning items without their
 * follower are removed; a call without an output gets a synthesized one at the end of its
 * response. A `computer_call` cannot be answered without a screenshot: an unanswered one is
 * removed instead.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { FailureIndex, synthesizedText, type TranscriptRepair } from '../core/repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import { analyzeResponses, ITEM } from './check.ts';
import { toolResult } from './convert.ts';

const at = (i: number) => `input[${i}]`;

const REMOVE_DETAIL: Partial<Record<TranscriptRule, string>> = {
  'openai-responses.duplicate_item_id': 'removed the item: an earlier item has its id',
  'openai-responses.reasoning_without_following_item':
    'removed the reasoning item: the item it came with does not follow it',
  'openai-responses.output_missing_field': 'removed the output item: it lacks its call_id or output',
  'openai-responses.function_call_output_orphan': 'removed the output item: no call in the input has its call_id',
  'openai-responses.duplicate_function_call_output': 'removed the output item: its call already has an output',
};

/** The output item answering a call item with the synthesized text, or `undefined` (computer calls). */
function synthesize(call: JsonObject, readOnlyTools: ReadonlySet<string>): JsonObject | undefined {
  const id = call['call_id'] as string;
  const name = typeof call['name'] === 'string' ? call['name'] : (call['type'] as string);
  const text = synthesizedText(name, readOnlyTools);
  switch (call['type']) {
    case 'function_call':
      return toolResult(id, text);
    case 'custom_tool_call':
      return { type: 'custom_tool_call_output', call_id: id, output: text };
    case 'apply_patch_call':
      return { type: 'apply_patch_call_output', call_id: id, status: 'failed', output: text };
    case 'local_shell_call':
      return { type: 'local_shell_call_output', id, output: text };
    case 'shell_call':
      return {
        type: 'shell_call_output',
        call_id: id,
        output: [{ stdout: '', stderr: text, outcome: { type: 'exit', exit_code: 1 } }],
      };
    default:
      return undefined;
  }
}

/** Checks and, when rejected, repairs Responses `input` items. */
export function repairResponses(items: readonly unknown[], context: RepairContext): FormatRepair {
  const { outcome, read } = analyzeResponses(items, context);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const repairs: TranscriptRepair[] = [];
  const removed = new Set<number>();
  const remove = (i: number, rule: TranscriptRule, ids: readonly string[], detail: string) => {
    if (removed.has(i)) return;
    removed.add(i);
    repairs.push({ action: 'removed', rule, ids, at: at(i), detail, removed: items[i] });
  };
  for (const failure of failures.all) {
    const detail = REMOVE_DETAIL[failure.rule];
    if (detail !== undefined) remove(failure.message, failure.rule, failure.ids, detail);
  }

  // The end of the model response (run of model and reasoning items) holding each item.
  const n = items.length;
  const runEnd = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    runEnd[i] =
      read.kinds[i] !== ITEM.input && i + 1 < n && read.kinds[i + 1] !== ITEM.input ? (runEnd[i + 1] as number) : i;
  }

  const answered = new Set<string>();
  for (const output of read.outputs) {
    if (!removed.has(output.item) && failures.at(output.item).length === 0 && output.key !== undefined)
      answered.add(output.key);
  }
  const after = new Map<number, unknown[]>();
  const place = (call: number, item: unknown) => {
    const end = runEnd[call] as number;
    after.set(end, [...(after.get(end) ?? []), item]);
  };
  const calls = new Map(read.calls.map((call) => [call.key, call]));
  for (const output of read.outputs) {
    const rule = failures.find(output.item, -1, ['openai-responses.function_call_output_before_call'])?.rule;
    if (rule === undefined || removed.has(output.item) || output.key === undefined) continue;
    const call = calls.get(output.key);
    if (call === undefined || answered.has(output.key) || removed.has(call.message)) {
      remove(output.item, rule, [output.key], 'removed the output item: its call already has an output');
      continue;
    }
    answered.add(output.key);
    removed.add(output.item);
    place(call.message, items[output.item]);
    repairs.push({
      action: 'moved_result',
      rule,
      ids: [output.key],
      at: at(output.item),
      detail: `moved the output item after ${at(call.message)}, to the end of that response`,
    });
  }

  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  for (const call of read.calls) {
    if (removed.has(call.message) || answered.has(call.key) || open.has(call.key)) continue;
    answered.add(call.key);
    const output = synthesize(items[call.message] as JsonObject, context.readOnlyTools);
    if (output === undefined) {
      remove(
        call.message,
        'openai-responses.function_call_unanswered',
        [call.key],
        'removed the computer call: it has no output and none can be written without a screenshot',
      );
      continue;
    }
    place(call.message, output);
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
    if (!removed.has(i)) out.push(items[i]);
    const extra = after.get(i);
    if (extra !== undefined) out.push(...extra);
  }
  return { outcome, repaired: { messages: out, repairs } };
}
