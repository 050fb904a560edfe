/**
 * Repair of Bedrock Converse `messages`, driven by the check's own classification, one step per
 * pass (the repair loop checks again between passes, so each step reads positions the check just
 * found):
 * 1. ids outside the grammar are rewritten, on the call and on every result carrying the id;
 * 2. results and blocks: each `toolResult` is kept, moved into the user message right after its
 *    call, or removed (an orphan's text is kept in its place as user text); each `toolUse`
 *    without a result gets a synthesized one there (`status: 'error'`, text starting
 *    `[turngate:synthesized]`), in a user message inserted after the call when none follows;
 *    blank text blocks and empty messages are removed; a `json` result that is no object becomes
 *    its JSON text;
 * 3. consecutive messages of one role are joined into one (user messages: the results of a turn
 *    and the text after them; assistant messages: text and reasoning before the calls);
 * 4. a history that starts with an assistant message gets the opening user message first.
 * A result `status` outside `success` / `error`, a missing `toolConfig` and a missing reasoning
 * block are left for the report (`repairable: false`).
 *
 * @module
 */
import type { BedrockConverseRule } from './rules.ts';
import type { CheckOutcome } from '../core/context.ts';
import type { JsonObject } from '../core/input.ts';
import {
  applyBlockEdits,
  BlockRepairs,
  FailureIndex,
  orphanedResultText,
  renamedCall,
  slotKey,
  synthesizedText,
  type TranscriptRepair,
} from '../core/repair.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { BedrockAnalysis } from './check.ts';
import { EMPTY_MESSAGE_TEXT, openingUserMessage, toolResult, toolResultText } from './convert.ts';
import { MESSAGE, type ResultSite } from './read.ts';

type Repaired = NonNullable<FormatRepair['repaired']>;

const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/** Checks and, when rejected, repairs Converse `messages` (one step per pass, see the module). */
export function repairBedrock(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<BedrockConverseRule>,
): FormatRepair {
  const analysis = analysisOf<BedrockAnalysis>(checked);
  const { outcome } = analysis;
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const has = (rule: BedrockConverseRule) => failures.of(rule).length > 0;
  if (analysis.badIds.length > 0 || analysis.read.badNames.length > 0)
    return { outcome, repaired: repairIds(messages, analysis) };
  if (PAIRING.some(has)) return { outcome, repaired: repairPairing(messages, analysis, failures, context) };
  if (has('bedrock-converse.roles_not_alternating')) return { outcome, repaired: joinRoles(messages, analysis) };
  if (has('bedrock-converse.first_message_not_user')) {
    const repairs: TranscriptRepair[] = [
      {
        action: 'inserted_message',
        rule: 'bedrock-converse.first_message_not_user',
        ids: [],
        at: 'messages[0]',
        detail: 'inserted the opening user message before messages[0]',
      },
    ];
    return { outcome, repaired: { messages: [openingUserMessage(), ...messages], repairs } };
  }
  return { outcome };
}

/** The rules step 2 fixes. */
const PAIRING: readonly BedrockConverseRule[] = [
  'bedrock-converse.tool_use_unanswered',
  'bedrock-converse.tool_result_orphan',
  'bedrock-converse.tool_result_not_after_call',
  'bedrock-converse.duplicate_tool_result',
  'bedrock-converse.message_content_empty',
  'bedrock-converse.text_block_blank',
  'bedrock-converse.tool_result_json_not_object',
];

/** A fresh id in the grammar for `id`, not in `used`. */
function groomedId(id: string, used: Set<string>): string {
  const body = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 56);
  const base = body === '' ? 'tooluse_missing' : body;
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`;
  used.add(candidate);
  return candidate;
}

/** A tool name in the API grammar: each other character becomes `_`, cut to 64 (`tool` for an empty name). */
function toolNameIn(name: string): string {
  const body = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return body === '' ? 'tool' : body;
}

/** Step 1: rewrites every id outside the grammar, on every block carrying it (pairing stays as it was), and every tool name outside it. */
function repairIds(messages: readonly unknown[], { read, badIds }: BedrockAnalysis): Repaired {
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const used = new Set<string>();
  for (const call of read.calls) used.add(call.key);
  for (const result of read.results) used.add(result.key);
  const renamed = new Map<string, string>();
  for (const site of badIds) {
    const key = site.key as string;
    if (renamed.has(key)) continue;
    const next = groomedId(key, used);
    renamed.set(key, next);
    const field = (read.flags[site.message] as number) & MESSAGE.assistant ? 'toolUse' : 'toolResult';
    edits.repairs.push(
      renamedCall(
        'bedrock-converse.tool_use_id_invalid',
        `${blockAt(site.message, site.slot)}.${field}.toolUseId`,
        key,
        next,
        `rewrote the tool use id ${key} as ${next}, on the call and on every result carrying it`,
      ),
    );
  }
  const rename = (message: number, slot: number, key: string, field: 'toolUse' | 'toolResult') => {
    const next = renamed.get(key);
    if (next === undefined) return;
    const block = edits.block(message, slot);
    edits.replace.set(slotKey(message, slot), {
      ...block,
      [field]: { ...(block[field] as JsonObject), toolUseId: next },
    });
  };
  for (const call of read.calls) rename(call.message, call.slot, call.key, 'toolUse');
  for (const result of read.results) rename(result.message, result.slot, result.key, 'toolResult');
  for (const site of read.badNames) {
    const key = slotKey(site.message, site.slot);
    const block = edits.replace.get(key) ?? edits.block(site.message, site.slot);
    const use = block['toolUse'] as JsonObject;
    const name = use['name'] as string;
    const next = toolNameIn(name);
    edits.replace.set(key, { ...block, toolUse: { ...use, name: next } });
    edits.repairs.push({
      action: 'rewrote_field',
      rule: 'bedrock-converse.tool_use_name_invalid',
      ids: [site.key as string],
      at: `${blockAt(site.message, site.slot)}.toolUse.name`,
      detail: `rewrote the tool name ${name} as ${next} (the API's characters, at most 64)`,
      removed: edits.block(site.message, site.slot),
    });
  }
  return {
    messages: applyBlockEdits(messages, 'content', { drop: edits.drop, replace: edits.replace }),
    repairs: edits.repairs,
  };
}

/** Step 2: results in place, moved, synthesized or removed; blank text, empty messages, json results. */
function repairPairing(
  messages: readonly unknown[],
  analysis: BedrockAnalysis,
  failures: FailureIndex<BedrockConverseRule>,
  context: RepairContext,
): Repaired {
  const { read } = analysis;
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const hollow = hollowMessages(messages, failures);
  fixBlocks(edits, read, failures, hollow);
  // Results to add after an assistant message (moved or synthesized), by its index.
  const extra = new Map<number, JsonObject[]>();
  const answered = new Set<string>();
  for (const call of read.calls) if (call.answered && !call.server) answered.add(call.key);
  placeResults(edits, analysis, extra, answered);
  synthesizeResults(edits, analysis, extra, answered, context);
  const append = addResults(edits, read, extra, messages.length);
  const out = applyBlockEdits(messages, 'content', {
    drop: edits.drop,
    replace: edits.replace,
    append,
    insertAfter: edits.insertAfter,
  });
  return { messages: dropHollow(out, messages, read, hollow, append, edits.repairs), repairs: edits.repairs };
}

/** Results added after an assistant message (its index), kept in order. */
function addAfter(extra: Map<number, JsonObject[]>, assistant: number, block: JsonObject): void {
  extra.set(assistant, [...(extra.get(assistant) ?? []), block]);
}

/** Blank text blocks go (unless their message goes whole); a json result holding no object becomes its JSON text. */
function fixBlocks(
  edits: BlockRepairs,
  read: BedrockAnalysis['read'],
  failures: FailureIndex<BedrockConverseRule>,
  hollow: ReadonlyMap<number, unknown>,
): void {
  for (const failure of failures.of('bedrock-converse.text_block_blank'))
    if (!hollow.has(failure.message))
      edits.remove(failure.message, failure.slot, failure.rule, [], 'removed the blank text block');
  for (const site of read.badJson) {
    const key = slotKey(site.message, site.slot);
    const before = edits.replace.get(key) ?? edits.block(site.message, site.slot);
    const result = before['toolResult'] as JsonObject;
    const content = [...(result['content'] as JsonObject[])];
    content[site.part] = { text: JSON.stringify((content[site.part] as JsonObject)['json']) };
    edits.replace.set(key, { ...before, toolResult: { ...result, content } });
    edits.repairs.push({
      action: 'rewrote_field',
      rule: 'bedrock-converse.tool_result_json_not_object',
      ids: [site.key as string],
      at: `${blockAt(site.message, site.slot)}.toolResult.content[${site.part}]`,
      detail: 'replaced the json block holding no object with a text block of its JSON text',
      removed: edits.block(site.message, site.slot),
    });
  }
}

/** Each result the check faulted: moved after its call (the first one for a call), or removed (an orphan's text kept in its place). */
function placeResults(
  edits: BlockRepairs,
  { read, resultRules }: BedrockAnalysis,
  extra: Map<number, JsonObject[]>,
  answered: Set<string>,
): void {
  const { repairs } = edits;
  read.results.forEach((result: ResultSite, index) => {
    const rule = resultRules.get(index);
    if (rule === undefined) return;
    const call = read.table.get(result.key);
    const block = edits.replace.get(slotKey(result.message, result.slot)) ?? edits.block(result.message, result.slot);
    if (rule === 'bedrock-converse.tool_result_not_after_call' && call !== undefined && !answered.has(call.key)) {
      answered.add(call.key);
      edits.drop.add(slotKey(result.message, result.slot));
      addAfter(extra, call.message, block);
      repairs.push({
        action: 'moved_result',
        rule,
        ids: [result.key],
        at: `${blockAt(result.message, result.slot)}.toolResult`,
        detail: `moved the toolResult into the user message after messages[${call.message}]`,
      });
      return;
    }
    const words =
      rule === 'bedrock-converse.tool_result_orphan'
        ? orphanedResultText(toolResultText((block['toolResult'] as JsonObject)['content']))
        : undefined;
    const detail =
      rule === 'bedrock-converse.tool_result_orphan'
        ? 'removed the toolResult: no toolUse in the messages has its id'
        : `removed the toolResult: toolUse ${result.key} already has one`;
    if (words === undefined) edits.remove(result.message, result.slot, rule, [result.key], detail);
    else {
      // The words stay in the result's place, as user text.
      edits.replace.set(slotKey(result.message, result.slot), { text: words });
      repairs.push({
        action: 'removed',
        rule,
        ids: [result.key],
        at: `${blockAt(result.message, result.slot)}.toolResult`,
        detail: `${detail}; its text stays there as user text`,
        removed: edits.block(result.message, result.slot),
      });
    }
  });
}

/** An error result for each client call left without one (open calls wait). */
function synthesizeResults(
  edits: BlockRepairs,
  { read, outcome }: BedrockAnalysis,
  extra: Map<number, JsonObject[]>,
  answered: Set<string>,
  context: RepairContext,
): void {
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  for (const call of read.calls) {
    if (call.server || answered.has(call.key) || open.has(call.key) || read.table.get(call.key) !== call) continue;
    answered.add(call.key);
    addAfter(extra, call.message, toolResult(call.key, synthesizedText(call.name, context.readOnlyTools), true));
    edits.repairs.push({
      action: 'synthesized_result',
      rule: 'bedrock-converse.tool_use_unanswered',
      ids: [call.key],
      at: `${blockAt(call.message, call.slot)}.toolUse`,
      detail: `wrote an error toolResult for toolUse ${call.key}: it had none`,
    });
  }
}

/** Added results go last in the user message right after their call (returned, by message), or in a user message inserted there. */
function addResults(
  edits: BlockRepairs,
  read: BedrockAnalysis['read'],
  extra: ReadonlyMap<number, JsonObject[]>,
  count: number,
): Map<number, JsonObject[]> {
  const append = new Map<number, JsonObject[]>();
  for (const [assistant, blocks] of extra) {
    const next = assistant + 1;
    if (next < count && ((read.flags[next] as number) & MESSAGE.assistant) === 0) append.set(next, blocks);
    else
      edits.insert(
        assistant,
        { role: 'user', content: blocks },
        'bedrock-converse.tool_use_unanswered',
        blocks.map((b) => (b['toolResult'] as JsonObject)['toolUseId'] as string),
        'a user message with the tool results',
      );
  }
  return append;
}

/**
 * Messages without content (or with blank text only) go, unless results were put in them; one
 * between two messages of one role keeps its place with a marked text, so roles still alternate.
 */
function dropHollow(
  edited: unknown[],
  messages: readonly unknown[],
  read: BedrockAnalysis['read'],
  hollow: ReadonlyMap<number, BedrockConverseRule>,
  append: ReadonlyMap<number, unknown>,
  repairs: TranscriptRepair[],
): unknown[] {
  let out = edited;
  const emptied = new Set<unknown>();
  for (const [i, rule] of hollow) {
    if (append.has(i)) continue;
    const roleAround = (k: number) => (read.flags[k] as number) & MESSAGE.assistant;
    if (i > 0 && i + 1 < messages.length && roleAround(i - 1) === roleAround(i + 1)) {
      const content = [{ text: EMPTY_MESSAGE_TEXT }];
      out = out.map((message) => (message === messages[i] ? { ...(messages[i] as JsonObject), content } : message));
      repairs.push({
        action: 'rewrote_field',
        rule,
        ids: [],
        at: `messages[${i}].content`,
        detail: 'gave the message without content a marked text: removing it would join two messages of one role',
        removed: messages[i],
      });
      continue;
    }
    emptied.add(messages[i]);
    repairs.push({
      action: 'removed',
      rule,
      ids: [],
      at: `messages[${i}]`,
      detail: 'removed the message without content',
      removed: messages[i],
    });
  }
  return emptied.size > 0 ? out.filter((message) => !emptied.has(message)) : out;
}

/**
 * The messages with nothing but blank text, or no content at all, by index, with the rule that
 * finds them. Their blank blocks are not removed one by one: the message is removed or marked whole.
 */
function hollowMessages(
  messages: readonly unknown[],
  failures: FailureIndex<BedrockConverseRule>,
): Map<number, BedrockConverseRule> {
  const hollow = new Map<number, BedrockConverseRule>();
  for (const failure of failures.of('bedrock-converse.message_content_empty'))
    hollow.set(failure.message, failure.rule);
  const blanks = new Map<number, number>();
  for (const failure of failures.of('bedrock-converse.text_block_blank'))
    blanks.set(failure.message, (blanks.get(failure.message) ?? 0) + 1);
  for (const [i, count] of blanks)
    if (count === ((messages[i] as JsonObject)['content'] as unknown[]).length)
      hollow.set(i, 'bedrock-converse.text_block_blank');
  return hollow;
}

/** Step 3: joins each run of consecutive messages of one role into its first message. */
function joinRoles(messages: readonly unknown[], { read }: BedrockAnalysis): Repaired {
  const out: JsonObject[] = [];
  const repairs: TranscriptRepair[] = [];
  const assistant = (i: number) => ((read.flags[i] as number) & MESSAGE.assistant) !== 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const last = out[out.length - 1];
    if (last === undefined || i === 0 || assistant(i) !== assistant(i - 1)) {
      out.push(message);
      continue;
    }
    out[out.length - 1] = {
      ...last,
      content: [...(last['content'] as JsonObject[]), ...(message['content'] as JsonObject[])],
    };
    repairs.push({
      action: 'merged_messages',
      rule: 'bedrock-converse.roles_not_alternating',
      ids: [],
      at: `messages[${i}]`,
      detail: `joined messages[${i}] into the ${assistant(i) ? 'assistant' : 'user'} message before it`,
    });
  }
  return { messages: out, repairs };
}
