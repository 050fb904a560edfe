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
import type { AnthropicRule } from './rules.ts';
import type { JsonObject } from '../core/input.ts';
import {
  applyBlockEdits,
  BlockRepairs,
  FailureIndex,
  FreshIds,
  orphanedResultText,
  renamedCall,
  slotKey,
  synthesizedText,
} from '../core/repair.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { analyzeAnthropic } from './check.ts';
import type { AnthropicRead, IdSite } from './read.ts';
import { toolResult } from './convert.ts';

const DROP: readonly AnthropicRule[] = [
  'anthropic.tool_result_orphan',
  'anthropic.server_tool_answered_by_client',
  'anthropic.duplicate_tool_result',
];
const MOVE: readonly AnthropicRule[] = [
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
    edits.repairs.push(
      renamedCall(
        'anthropic.tool_use_id_invalid',
        `${blockAt(site.message, site.slot)}.${site.field}`,
        key,
        next,
        `rewrote the id ${key} as ${next}, on the call and on every block answering it`,
      ),
    );
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

type Analysis = ReturnType<typeof analyzeAnthropic>;

/** What every step of one repair shares: the input, its read and failures, the edits, and `patch`. */
interface Pass {
  readonly messages: readonly unknown[];
  readonly read: AnthropicRead;
  readonly failures: FailureIndex<AnthropicRule>;
  readonly edits: BlockRepairs;
  /** Replaces fields of a block, over any earlier replacement of it. */
  readonly patch: (i: number, j: number, fields: JsonObject) => JsonObject;
}

/** Where the client results go, by the index of the assistant message whose calls they answer. */
interface Placement {
  /** Results kept in the user turn after their call, and their slots. */
  readonly kept: Map<number, JsonObject[]>;
  readonly keptSlots: Map<number, string[]>;
  /** Results moved or synthesized into the turn after their call. */
  readonly extra: Map<number, JsonObject[]>;
  /** The assistant messages whose next user turn is rewritten. */
  readonly rewrite: Set<number>;
  /** The call ids with a result. */
  readonly answered: Set<string>;
  /** The words of removed orphaned results, kept as user text at the end of the message they stood in. */
  readonly append: Map<number, JsonObject[]>;
}

/** Checks and, when rejected, repairs Anthropic `messages`. */
export function repairAnthropic(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<AnthropicRule>,
): FormatRepair {
  const { outcome, read, resultRules, badIds } = analysisOf<Analysis>(checked);
  if (outcome.failures.length === 0) return { outcome };
  if (badIds.length > 0) return { outcome, repaired: repairIds(messages, read, badIds) };
  const failures = new FailureIndex(outcome.located);
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const patch = (i: number, j: number, fields: JsonObject): JsonObject => {
    const block = { ...(edits.replace.get(slotKey(i, j)) ?? edits.block(i, j)), ...fields };
    edits.replace.set(slotKey(i, j), block);
    return block;
  };
  const pass: Pass = { messages, read, failures, edits, patch };
  const { repeatIds, renamedResults } = renameRepeatedCalls(pass);
  removeServerBlocks(pass, renamedResults);
  repairBlocks(read, failures, edits, patch);
  const placement = placeResults(pass, resultRules, repeatIds);
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  synthesizeResults(pass, placement, repeatIds, open, context.readOnlyTools);
  const prepend = rewriteTurns(pass, placement);
  return { outcome, repaired: { messages: applyRepairs(pass, placement, prepend), repairs: edits.repairs } };
}

/**
 * Gives each repeated tool_use id a fresh id, with the server results that answer it. Returns the
 * new ids by assistant message and call id, and the server results renamed (no longer orphans).
 */
function renameRepeatedCalls({ read, failures, edits, patch }: Pass): {
  repeatIds: Map<number, Map<string, string>>;
  renamedResults: Set<string>;
} {
  const fresh = new FreshIds(read.calls.map((call) => call.key));
  const repeatIds = new Map<number, Map<string, string>>();
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
    edits.repairs.push(
      renamedCall(
        'anthropic.duplicate_tool_use_id',
        blockAt(call.message, call.slot),
        call.key,
        id,
        `gave the repeated tool_use id ${call.key} the fresh id ${id}`,
      ),
    );
  }
  return { repeatIds, renamedResults };
}

/** Removes server result blocks without their server_tool_use, and server calls left unanswered. */
function removeServerBlocks({ failures, edits }: Pass, renamedResults: ReadonlySet<string>): void {
  for (const failure of failures.of('anthropic.server_tool_result_orphan')) {
    if (renamedResults.has(slotKey(failure.message, failure.slot))) continue;
    edits.remove(
      failure.message,
      failure.slot,
      failure.rule,
      failure.ids,
      'removed the server result block: no server_tool_use before it answers it',
    );
  }
  for (const failure of failures.of('anthropic.server_tool_use_unanswered'))
    edits.remove(
      failure.message,
      failure.slot,
      failure.rule,
      failure.ids,
      'removed the server_tool_use: it has no result and its turn cannot leave it open',
    );
}

/** Client results: kept in their turn, moved to their call's turn, or removed (an orphan's words kept). */
function placeResults(
  { read, edits, patch }: Pass,
  resultRules: Analysis['resultRules'],
  repeatIds: ReadonlyMap<number, ReadonlyMap<string, string>>,
): Placement {
  const placement: Placement = {
    kept: new Map(),
    keptSlots: new Map(),
    extra: new Map(),
    rewrite: new Set(),
    answered: new Set(),
    append: new Map(),
  };
  const { kept, keptSlots, extra, rewrite, answered, append } = placement;
  const pending: { result: (typeof read.results)[number]; rule: AnthropicRule }[] = [];
  read.results.forEach((result, index) => {
    const problem = resultRules.get(index);
    if (problem === undefined || problem === 'anthropic.tool_result_not_first') {
      const owner = read.owner[result.message] ?? -1;
      const id = repeatIds.get(owner)?.get(result.key) ?? result.key;
      let block = edits.replace.get(slotKey(result.message, result.slot)) ?? edits.block(result.message, result.slot);
      if (id !== result.key) block = patch(result.message, result.slot, { tool_use_id: id });
      kept.set(owner, [...(kept.get(owner) ?? []), block]);
      keptSlots.set(owner, [...(keptSlots.get(owner) ?? []), slotKey(result.message, result.slot)]);
      answered.add(id);
      if (problem !== undefined) {
        rewrite.add(owner);
        edits.repairs.push({
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
      edits.remove(result.message, result.slot, problem, [result.key], detail);
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
      edits.remove(
        result.message,
        result.slot,
        rule,
        [result.key],
        `removed the misplaced tool_result: tool_use ${result.key} already has one`,
      );
      continue;
    }
    answered.add(result.key);
    edits.drop.add(slotKey(result.message, result.slot));
    extra.set(call.message, [...(extra.get(call.message) ?? []), edits.block(result.message, result.slot)]);
    rewrite.add(call.message);
    edits.repairs.push({
      action: 'moved_result',
      rule,
      ids: [result.key],
      at: blockAt(result.message, result.slot),
      detail: `moved the tool_result into the user turn after messages[${call.message}]`,
    });
  }
  return placement;
}

/** Writes an error tool_result for each client call left without one (and not open). */
function synthesizeResults(
  { read, edits }: Pass,
  { extra, rewrite, answered }: Placement,
  repeatIds: ReadonlyMap<number, ReadonlyMap<string, string>>,
  open: ReadonlySet<string>,
  readOnlyTools: RepairContext['readOnlyTools'],
): void {
  for (const call of read.calls) {
    if (call.server) continue;
    const id = read.table.get(call.key) === call ? call.key : repeatIds.get(call.message)?.get(call.key);
    if (id === undefined || answered.has(id) || open.has(id)) continue;
    answered.add(id);
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      toolResult(id, synthesizedText(call.name, readOnlyTools), true),
    ]);
    rewrite.add(call.message);
    edits.repairs.push({
      action: 'synthesized_result',
      rule: 'anthropic.tool_use_unanswered',
      ids: [id],
      at: blockAt(call.message, call.slot),
      detail: `wrote an error tool_result for tool_use ${id}: it had none`,
    });
  }
}

/**
 * Each rewritten turn starts with its results: those kept there, then moved and synthesized ones
 * (in a new user message when the next message is not a user turn with blocks). Returns the
 * blocks to put at the front of each user message.
 */
function rewriteTurns({ messages, read, edits }: Pass, { kept, keptSlots, extra, rewrite }: Placement) {
  const prepend = new Map<number, JsonObject[]>();
  for (const assistant of rewrite) {
    const front = [...(kept.get(assistant) ?? []), ...(extra.get(assistant) ?? [])];
    for (const slot of keptSlots.get(assistant) ?? []) edits.drop.add(slot);
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
  return prepend;
}

/** The repaired messages: every edit applied, then the emptied messages removed (unless results were put in them). */
function applyRepairs(
  { messages, failures, edits }: Pass,
  { append }: Placement,
  prepend: ReadonlyMap<number, JsonObject[]>,
): unknown[] {
  const out = applyBlockEdits(messages, 'content', {
    drop: edits.drop,
    replace: edits.replace,
    prepend,
    append,
    insertAfter: edits.insertAfter,
  });
  const emptied = new Set<unknown>();
  for (const failure of failures.of('anthropic.message_content_empty')) {
    if (prepend.has(failure.message) || append.has(failure.message)) continue;
    emptied.add(messages[failure.message]);
    edits.repairs.push({
      action: 'removed',
      rule: failure.rule,
      ids: [],
      at: failure.at,
      detail: 'removed the empty message',
      removed: messages[failure.message],
    });
  }
  return emptied.size > 0 ? out.filter((message) => !emptied.has(message)) : out;
}

/** The block-level repairs: empty text blocks, trailing thinking blocks, cache_control on thinking, encoded inputs. */
function repairBlocks(
  read: AnthropicRead,
  failures: FailureIndex<AnthropicRule>,
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
  for (const failure of failures.of('anthropic.thinking_in_final_assistant')) {
    if (edits.drop.has(slotKey(failure.message, failure.slot))) continue;
    edits.remove(
      failure.message,
      failure.slot,
      failure.rule,
      [],
      'removed the thinking block from the final assistant message (thinking is off)',
    );
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
