/**
 * Repair of Anthropic `messages`, driven by the check's own classification: each `tool_result`
 * is kept, moved to the front of the user turn after its `tool_use`, renamed with a repeated
 * call, or removed (its text kept as user text); each `tool_use` without a result gets a
 * synthesized error result there (`is_error: true`, text starting `[turngate:synthesized]`).
 * Server result blocks without their call, and server calls left unanswered, are removed. Ids
 * outside the API grammar are rewritten first (on the call and every block answering it), in a
 * pass of their own. Empty text blocks and empty messages are removed, a trailing thinking
 * block is removed, `cache_control` is taken off thinking blocks, and a `tool_use.input` holding
 * JSON text of an object becomes that object. The thinking-block rule, inputs that encode no
 * object, over-long names, tool_result content of other types and server results placed after
 * a client call are left for the report (`repairable: false`).
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import {
  applyBlockEdits,
  BlockRepairs,
  FailureIndex,
  FreshIds,
  orphanedResultText,
  slotKey,
  synthesizedText,
} from '../core/repair.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import type { analyzeAnthropic } from './check.ts';
import type { AnthropicRead, IdSite } from './read.ts';
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

/** The text a tool_result carries: its string content, or its text blocks joined by newlines. */
function resultText(block: JsonObject): string {
  const content = block['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is JsonObject => typeof part === 'object' && part !== null && part['type'] === 'text')
    .map((part) => String(part['text']))
    .join('\n');
}

/** A fresh id in the API grammar for `id`, not in `used`. */
function groomedId(id: string, server: boolean, used: Set<string>): string {
  let base: string;
  if (server) {
    const body = id.replace(/^srvtoolu_/, '').replace(/[^a-zA-Z0-9_]/g, '_');
    base = `srvtoolu_${body === '' ? 'missing' : body}`;
  } else {
    const body = id.replace(/[^a-zA-Z0-9_-]/g, '_');
    base = body === '' ? 'toolu_missing' : body;
  }
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`;
  used.add(candidate);
  return candidate;
}

/** Rewrites every id outside the grammar, on every block carrying it (pairing stays as it was). */
function repairIds(
  messages: readonly unknown[],
  read: AnthropicRead,
  badIds: readonly IdSite[],
): NonNullable<FormatRepair['repaired']> {
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const used = new Set<string>();
  for (const call of read.calls) used.add(call.key);
  for (const result of read.results) used.add(result.key);
  for (const result of read.serverResults) used.add(result.key);
  const renamed = new Map<string, string>();
  for (const site of badIds) {
    const key = site.key as string;
    if (renamed.has(key)) continue;
    const server = read.table.get(key)?.server ?? site.server;
    const next = groomedId(key, server, used);
    renamed.set(key, next);
    edits.repairs.push({
      action: 'renamed_call',
      rule: 'anthropic.tool_use_id_invalid',
      ids: [key, next],
      at: `${blockAt(site.message, site.slot)}.${site.field}`,
      detail: `rewrote the id ${key} as ${next}, on the call and on every block answering it`,
    });
  }
  const rename = (message: number, slot: number, key: string, field: 'id' | 'tool_use_id') => {
    const next = renamed.get(key);
    if (next !== undefined) edits.replace.set(slotKey(message, slot), { ...edits.block(message, slot), [field]: next });
  };
  for (const call of read.calls) rename(call.message, call.slot, call.key, 'id');
  for (const result of read.results) rename(result.message, result.slot, result.key, 'tool_use_id');
  for (const result of read.serverResults) rename(result.message, result.slot, result.key, 'tool_use_id');
  const out = applyBlockEdits(messages, 'content', { drop: edits.drop, replace: edits.replace });
  return { messages: out, repairs: edits.repairs };
}

/** Checks and, when rejected, repairs Anthropic `messages`. */
export function repairAnthropic(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome,
): FormatRepair {
  const { outcome, read, resultRules, badIds } = analysisOf<ReturnType<typeof analyzeAnthropic>>(checked);
  if (outcome.failures.length === 0) return { outcome };
  if (badIds.length > 0) return { outcome, repaired: repairIds(messages, read, badIds) };
  const failures = new FailureIndex(outcome.located);
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const { drop, replace: rename, repairs } = edits;
  const remove = edits.remove.bind(edits);
  /** Replaces fields of a block, over any earlier replacement of it. */
  const patch = (i: number, j: number, fields: JsonObject): JsonObject => {
    const block = { ...(rename.get(slotKey(i, j)) ?? edits.block(i, j)), ...fields };
    rename.set(slotKey(i, j), block);
    return block;
  };

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
    patch(call.message, call.slot, { id });
    for (const result of read.serverResults) {
      if (result.message === call.message && result.slot > call.slot && result.key === call.key) {
        patch(result.message, result.slot, { tool_use_id: id });
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
      'removed the server_tool_use: it has no result and its turn cannot leave it open',
    );
  repairBlocks(read, failures, edits, patch);

  // Client results: kept in their turn, moved to their call's turn, or removed.
  const kept = new Map<number, JsonObject[]>();
  const keptSlots = new Map<number, string[]>();
  const extra = new Map<number, JsonObject[]>();
  const rewrite = new Set<number>();
  const answered = new Set<string>();
  const pending: { result: (typeof read.results)[number]; rule: TranscriptRule }[] = [];
  /** The words of removed orphaned results, kept as user text at the end of the message they stood in. */
  const append = new Map<number, JsonObject[]>();
  read.results.forEach((result, index) => {
    const problem = resultRules.get(index);
    if (problem === undefined || problem === 'anthropic.tool_result_not_first') {
      const owner = read.owner[result.message] ?? -1;
      const id = repeatIds.get(owner)?.get(result.key) ?? result.key;
      let block = rename.get(slotKey(result.message, result.slot)) ?? edits.block(result.message, result.slot);
      if (id !== result.key) block = patch(result.message, result.slot, { tool_use_id: id });
      kept.set(owner, [...(kept.get(owner) ?? []), block]);
      keptSlots.set(owner, [...(keptSlots.get(owner) ?? []), slotKey(result.message, result.slot)]);
      answered.add(id);
      if (problem !== undefined) {
        rewrite.add(owner);
        repairs.push({
          action: 'moved_result',
          rule: problem,
          ids: [result.key],
          at: blockAt(result.message, result.slot),
          detail: 'moved the tool_result to the start of its user turn',
        });
      }
    } else if (MOVE.includes(problem)) {
      pending.push({ result, rule: problem });
    } else if (DROP.includes(problem)) {
      const detail =
        problem === 'anthropic.duplicate_tool_result'
          ? `removed the tool_result: tool_use ${result.key} already has one`
          : problem === 'anthropic.tool_result_orphan'
            ? 'removed the tool_result: no tool_use in the request has its id'
            : 'removed the tool_result: it answers a server tool, which the API answers itself';
      remove(result.message, result.slot, problem, [result.key], detail);
      const words =
        problem === 'anthropic.tool_result_orphan'
          ? orphanedResultText(resultText(edits.block(result.message, result.slot)))
          : undefined;
      if (words !== undefined)
        append.set(result.message, [...(append.get(result.message) ?? []), { type: 'text', text: words }]);
    }
  });
  for (const { result, rule } of pending) {
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

  let out = applyBlockEdits(messages, 'content', {
    drop,
    replace: rename,
    prepend,
    append,
    insertAfter: edits.insertAfter,
  });
  // Empty messages go, unless results were put in them.
  const emptied = new Set<unknown>();
  for (const failure of failures.of('anthropic.message_content_empty')) {
    if (prepend.has(failure.message) || append.has(failure.message)) continue;
    emptied.add(messages[failure.message]);
    repairs.push({
      action: 'removed',
      rule: failure.rule,
      ids: [],
      at: failure.at,
      detail: 'removed the empty message',
      removed: messages[failure.message],
    });
  }
  if (emptied.size > 0) out = out.filter((message) => !emptied.has(message));
  return { outcome, repaired: { messages: out, repairs } };
}

/** The block-level repairs: empty text blocks, trailing thinking blocks, cache_control on thinking, encoded inputs. */
function repairBlocks(
  read: AnthropicRead,
  failures: FailureIndex,
  edits: BlockRepairs,
  patch: (i: number, j: number, fields: JsonObject) => JsonObject,
): void {
  for (const failure of failures.of('anthropic.text_block_empty'))
    edits.remove(failure.message, failure.slot, failure.rule, [], 'removed the empty text block');
  for (const failure of failures.of('anthropic.thinking_block_last')) {
    for (let j = failure.slot; j >= 0 && edits.block(failure.message, j)['type'] === 'thinking'; j--) {
      if (edits.drop.has(slotKey(failure.message, j))) continue;
      edits.remove(failure.message, j, failure.rule, [], 'removed the thinking block the assistant message ended on');
    }
  }
  for (const failure of failures.of('anthropic.thinking_cache_control')) {
    const before = edits.block(failure.message, failure.slot);
    const { cache_control: _dropped, ...rest } = before;
    edits.replace.set(slotKey(failure.message, failure.slot), rest);
    edits.repairs.push({
      action: 'rewrote_field',
      rule: failure.rule,
      ids: [],
      at: failure.at,
      detail: 'removed cache_control from the thinking block',
      removed: before,
    });
  }
  for (const site of read.inputs) {
    if (site.parsed === undefined) continue;
    const before = edits.block(site.message, site.slot);
    patch(site.message, site.slot, { input: site.parsed });
    edits.repairs.push({
      action: 'rewrote_field',
      rule: 'anthropic.tool_use_input_encoded',
      ids: [site.key as string],
      at: `${blockAt(site.message, site.slot)}.input`,
      detail: 'replaced the tool_use input (JSON text, or nothing) with the object it encodes',
      removed: before,
    });
  }
}
