/**
 * Repair of Anthropic `messages`, driven by the check's own classification: each `tool_result`
 * is kept, moved to the front of the user turn after its `tool_use`, renamed with a repeated
 * call, or removed; each `tool_use` without a result gets a synthesized error result there
 * (`is_error: true`, text starting `[turngate:synthesized]`). Server result blocks without their
 * call, and server calls left unanswered before the last message, are removed. The thinking
 * rule cannot be repaired (a thinking block is signed by the API): it is left for the report.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { applyBlockEdits, BlockRepairs, FailureIndex, FreshIds, slotKey, synthesizedText } from '../core/repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import { analyzeAnthropic } from './check.ts';
import { toolResult } from './convert.ts';

const DROP: readonly TranscriptRule[] = [
  'anthropic.tool_result_orphan',
  'anthropic.server_tool_answered_by_client',
  'anthropic.duplicate_tool_result',
];
const MOVE: readonly TranscriptRule[] = [
  'anthropic.tool_result_before_call',
  'anthropic.tool_result_not_immediately_after',
];
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/** Checks and, when rejected, repairs Anthropic `messages`. */
export function repairAnthropic(messages: readonly unknown[], context: RepairContext): FormatRepair {
  const { outcome, read } = analyzeAnthropic(messages, context);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const { drop, replace: rename, repairs } = edits;
  const remove = edits.remove.bind(edits);

  // Repeated ids get fresh ids, with the server results and tool_results that answer them.
  const fresh = new FreshIds(read.calls.map((call) => call.key));
  const repeatIds = new Map<number, Map<string, string>>();
  // Server results renamed with their repeated call answer it: no longer orphans.
  const renamedResults = new Set<string>();
  for (const call of read.calls) {
    if (failures.find(call.message, call.slot, ['anthropic.duplicate_tool_use_id']) === undefined) continue;
    const id = fresh.next(call.key);
    const byKey = repeatIds.get(call.message) ?? new Map<string, string>();
    byKey.set(call.key, id);
    repeatIds.set(call.message, byKey);
    rename.set(slotKey(call.message, call.slot), { ...edits.block(call.message, call.slot), id });
    for (const result of read.serverResults) {
      if (result.message === call.message && result.slot > call.slot && result.key === call.key) {
        rename.set(slotKey(result.message, result.slot), {
          ...edits.block(result.message, result.slot),
          tool_use_id: id,
        });
        renamedResults.add(slotKey(result.message, result.slot));
      }
    }
    repairs.push({
      action: 'renamed_call',
      rule: 'anthropic.duplicate_tool_use_id',
      ids: [call.key, id],
      at: blockAt(call.message, call.slot),
      detail: `gave the repeated tool_use id ${call.key} the fresh id ${id}`,
    });
  }

  for (const failure of failures.of('anthropic.server_tool_result_orphan')) {
    if (renamedResults.has(slotKey(failure.message, failure.slot))) continue;
    remove(
      failure.message,
      failure.slot,
      failure.rule,
      failure.ids,
      'removed the server result block: no server_tool_use before it answers it',
    );
  }
  for (const failure of failures.of('anthropic.server_tool_use_unanswered'))
    remove(
      failure.message,
      failure.slot,
      failure.rule,
      failure.ids,
      'removed the server_tool_use: it has no result and is not a paused last message',
    );

  // Client results: kept in their turn, moved to their call's turn, or removed.
  const kept = new Map<number, JsonObject[]>();
  const keptSlots = new Map<number, string[]>();
  const extra = new Map<number, JsonObject[]>();
  const rewrite = new Set<number>();
  const answered = new Set<string>();
  const pending: (typeof read.results)[number][] = [];
  for (const result of read.results) {
    const problem = failures.at(result.message, result.slot)[0];
    if (problem === undefined || problem.rule === 'anthropic.tool_result_not_first') {
      const owner = read.owner[result.message] ?? -1;
      const id = repeatIds.get(owner)?.get(result.key) ?? result.key;
      let block = edits.block(result.message, result.slot);
      if (id !== result.key) {
        block = { ...block, tool_use_id: id };
        rename.set(slotKey(result.message, result.slot), block);
      }
      kept.set(owner, [...(kept.get(owner) ?? []), block]);
      keptSlots.set(owner, [...(keptSlots.get(owner) ?? []), slotKey(result.message, result.slot)]);
      answered.add(id);
      if (problem !== undefined) {
        rewrite.add(owner);
        repairs.push({
          action: 'moved_result',
          rule: problem.rule,
          ids: [result.key],
          at: blockAt(result.message, result.slot),
          detail: 'moved the tool_result to the start of its user turn',
        });
      }
    } else if (MOVE.includes(problem.rule)) {
      pending.push(result);
    } else if (DROP.includes(problem.rule)) {
      const detail =
        problem.rule === 'anthropic.duplicate_tool_result'
          ? `removed the tool_result: tool_use ${result.key} already has one`
          : problem.rule === 'anthropic.tool_result_orphan'
            ? 'removed the tool_result: no tool_use in the request has its id'
            : 'removed the tool_result: it answers a server tool, which the API answers itself';
      remove(result.message, result.slot, problem.rule, [result.key], detail);
    }
  }
  for (const result of pending) {
    const rule = (failures.at(result.message, result.slot)[0] as { rule: TranscriptRule }).rule;
    const call = read.table.get(result.key);
    if (call === undefined || answered.has(result.key)) {
      remove(
        result.message,
        result.slot,
        rule,
        [result.key],
        `removed the misplaced tool_result: tool_use ${result.key} already has one`,
      );
      continue;
    }
    answered.add(result.key);
    drop.add(slotKey(result.message, result.slot));
    extra.set(call.message, [...(extra.get(call.message) ?? []), edits.block(result.message, result.slot)]);
    rewrite.add(call.message);
    repairs.push({
      action: 'moved_result',
      rule,
      ids: [result.key],
      at: blockAt(result.message, result.slot),
      detail: `moved the tool_result into the user turn after messages[${call.message}]`,
    });
  }

  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  for (const call of read.calls) {
    if (call.server) continue;
    const id = read.table.get(call.key) === call ? call.key : repeatIds.get(call.message)?.get(call.key);
    if (id === undefined || answered.has(id) || open.has(id)) continue;
    answered.add(id);
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      toolResult(id, synthesizedText(call.name, context.readOnlyTools), true),
    ]);
    rewrite.add(call.message);
    repairs.push({
      action: 'synthesized_result',
      rule: 'anthropic.tool_use_unanswered',
      ids: [id],
      at: blockAt(call.message, call.slot),
      detail: `wrote an error tool_result for tool_use ${id}: it had none`,
    });
  }

  // Each rewritten turn starts with its results: those kept there, then moved and synthesized ones.
  const prepend = new Map<number, JsonObject[]>();
  for (const assistant of rewrite) {
    const front = [...(kept.get(assistant) ?? []), ...(extra.get(assistant) ?? [])];
    for (const slot of keptSlots.get(assistant) ?? []) drop.add(slot);
    const next = assistant + 1;
    if (read.roles[next] === 'user' && Array.isArray((messages[next] as JsonObject)['content']))
      prepend.set(next, front);
    else {
      const ids = front.map((block) => block['tool_use_id'] as string);
      edits.insert(
        assistant,
        { role: 'user', content: front },
        'anthropic.tool_use_unanswered',
        ids,
        'a user message with the tool results',
      );
    }
  }

  const out = applyBlockEdits(messages, 'content', { drop, replace: rename, prepend, insertAfter: edits.insertAfter });
  return { outcome, repaired: { messages: out, repairs } };
}
