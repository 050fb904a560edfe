/**
 * Repair of AI SDK `ModelMessage[]`, driven by the check's classification: each `tool-result`
 * is kept, renamed with a repeated call, moved into the tool message right after its call, or
 * removed; approval parts that point at nothing are removed; each client call without a result
 * gets a synthesized one (`output: { type: 'error-text' }`, text starting
 * `[turngate:synthesized]`) in the tool message right after its assistant message.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { applyBlockEdits, BlockRepairs, FailureIndex, FreshIds, slotKey, synthesizedText } from '../core/repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import { analyzeAISDK } from './check.ts';
import { toolResult } from './convert.ts';

const partAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

const REMOVE_DETAIL: Partial<Record<TranscriptRule, string>> = {
  'aisdk.tool_result_orphan': 'removed the tool-result: no tool-call in the messages has its toolCallId',
  'aisdk.duplicate_tool_result': 'removed the tool-result: its call already has a result',
  'aisdk.approval_response_unknown': 'removed the approval response: no earlier approval request has its approvalId',
  'aisdk.approval_request_unknown_call':
    'removed the approval request: no tool-call in the messages has its toolCallId',
};

/** Checks and, when rejected, repairs AI SDK messages. */
export function repairAISDK(messages: readonly unknown[], context: RepairContext): FormatRepair {
  const { outcome, read } = analyzeAISDK(messages, context);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const { drop, replace: rename, repairs } = edits;
  const remove = edits.remove.bind(edits);

  const fresh = new FreshIds(read.calls.map((call) => call.key));
  const repeats: { key: string; id: string; seq: number; segment: number; taken: boolean }[] = [];
  const outId = new Map<string, string>();
  for (const call of read.calls) {
    if (failures.find(call.message, call.slot, ['aisdk.duplicate_tool_call_id']) === undefined) continue;
    const id = fresh.next(call.key);
    outId.set(slotKey(call.message, call.slot), id);
    repeats.push({ key: call.key, id, seq: call.seq, segment: read.segment[call.message] ?? 0, taken: false });
    rename.set(slotKey(call.message, call.slot), { ...edits.block(call.message, call.slot), toolCallId: id });
    repairs.push({
      action: 'renamed_call',
      rule: 'aisdk.duplicate_tool_call_id',
      ids: [call.key, id],
      at: partAt(call.message, call.slot),
      detail: `gave the repeated toolCallId ${call.key} the fresh id ${id}`,
    });
  }

  const first = new Map<string, (typeof read.calls)[number]>();
  for (const call of read.calls)
    if (!outId.has(slotKey(call.message, call.slot)) && !first.has(call.key)) first.set(call.key, call);
  const answered = new Set<string>();
  const extra = new Map<number, JsonObject[]>();
  const pending: (typeof read.results)[number][] = [];
  for (const result of read.results) {
    const problem = failures.at(result.message, result.slot)[0];
    if (problem === undefined) {
      answered.add(result.key);
      continue;
    }
    if (problem.rule === 'aisdk.duplicate_tool_result') {
      const repeat = repeats.find(
        (r) => r.key === result.key && !r.taken && r.seq < result.seq && r.segment === read.segment[result.message],
      );
      if (repeat !== undefined) {
        repeat.taken = true;
        answered.add(repeat.id);
        rename.set(slotKey(result.message, result.slot), {
          ...edits.block(result.message, result.slot),
          toolCallId: repeat.id,
        });
        continue;
      }
    }
    if (problem.rule === 'aisdk.tool_result_before_call' || problem.rule === 'aisdk.tool_result_separated')
      pending.push(result);
    else
      remove(
        result.message,
        result.slot,
        problem.rule,
        [result.key],
        REMOVE_DETAIL[problem.rule] ?? 'removed the tool-result',
      );
  }
  for (const result of pending) {
    const rule = (failures.at(result.message, result.slot)[0] as { rule: TranscriptRule }).rule;
    const call = first.get(result.key);
    if (call === undefined || answered.has(result.key)) {
      remove(
        result.message,
        result.slot,
        rule,
        [result.key],
        'removed the misplaced tool-result: its call already has a result',
      );
      continue;
    }
    answered.add(result.key);
    drop.add(slotKey(result.message, result.slot));
    extra.set(call.message, [...(extra.get(call.message) ?? []), edits.block(result.message, result.slot)]);
    repairs.push({
      action: 'moved_result',
      rule,
      ids: [result.key],
      at: partAt(result.message, result.slot),
      detail: `moved the tool-result into the tool message after messages[${call.message}]`,
    });
  }
  for (const failure of [
    ...failures.of('aisdk.approval_response_unknown'),
    ...failures.of('aisdk.approval_request_unknown_call'),
  ]) {
    remove(failure.message, failure.slot, failure.rule, failure.ids, REMOVE_DETAIL[failure.rule] as string);
  }
  // A removed request takes the responses that answer it along.
  for (const failure of failures.of('aisdk.approval_request_unknown_call')) {
    const approvalId = edits.block(failure.message, failure.slot)['approvalId'];
    for (const response of read.responses) {
      if (response.key !== approvalId || drop.has(slotKey(response.message, response.slot))) continue;
      remove(
        response.message,
        response.slot,
        failure.rule,
        failure.ids,
        'removed the approval response to a removed approval request',
      );
    }
  }

  // Calls still unsettled (a tool-result kept, or an approval response in the final message).
  const settled = new Set([...first.values()].filter((call) => call.answered).map((call) => call.key));
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  for (const call of read.calls) {
    if (call.server) continue;
    const id = outId.get(slotKey(call.message, call.slot)) ?? call.key;
    const repeat = id !== call.key;
    if (answered.has(id) || open.has(id) || (!repeat && settled.has(id))) continue;
    answered.add(id);
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      toolResult(id, call.name, { type: 'error-text', value: synthesizedText(call.name, context.readOnlyTools) }),
    ]);
    repairs.push({
      action: 'synthesized_result',
      rule: 'aisdk.tool_call_unanswered',
      ids: [id],
      at: partAt(call.message, call.slot),
      detail: `wrote an error tool-result for tool call ${id}: it had none`,
    });
  }

  const appendTo = new Map<number, JsonObject[]>();
  for (const [assistant, parts] of extra) {
    if (read.roles[assistant + 1] === 'tool') appendTo.set(assistant + 1, parts);
    else {
      const ids = parts.map((part) => part['toolCallId'] as string);
      edits.insert(
        assistant,
        { role: 'tool', content: parts },
        'aisdk.tool_call_unanswered',
        ids,
        'a tool message with the tool results',
      );
    }
  }

  const out = applyBlockEdits(messages, 'content', {
    drop,
    replace: rename,
    append: appendTo,
    insertAfter: edits.insertAfter,
  });
  return { outcome, repaired: { messages: out, repairs } };
}
