/**
 * Repair for formats where each tool result is a message of its own (OpenAI Chat Completions,
 * `ChatMessage`), driven by the check's own classification: each tool message is kept in
 * place, moved into the run after its call, renamed with a renamed call, or removed (an
 * orphan's text kept as user text after its run); each call left without a result gets a
 * synthesized one at the end of its run; a repeated call id, or one over the length limit,
 * gets a fresh id, and the tool messages answering that call get it too. Internal.
 *
 * @module
 */
import type { RuleId } from './rule-info.ts';
import type { CallSite } from './calls.ts';
import type { CheckOutcome } from './context.ts';
import type { JsonObject } from './input.ts';
import { seedDigest } from './ids.ts';
import { FailureIndex, FreshIds, orphanedResultText, renamedCall, type TranscriptRepair } from './repair.ts';
import {
  CARRIED,
  MAX_TOOL_CALL_ID,
  NO_OWNER,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from './tool-runs.ts';

/** How a format writes the messages repair needs. */
export interface ToolRunWriter {
  /** The assistant message with the call at `slot` given id `id`. */
  readonly renameCall: (message: JsonObject, slot: number, id: string) => JsonObject;
  /** The tool message answering call `id`. */
  readonly synthesize: (id: string, name: string) => JsonObject;
  /** Where a call stands (for records). */
  readonly callAt: (call: CallSite) => string;
  /** The text a tool message carries (its string content, or its text parts joined by newlines). */
  readonly resultText: (message: JsonObject) => string;
  /** A user message with `text`. */
  readonly userText: (text: string) => JsonObject;
}

/** Inputs of {@link repairToolRuns} beyond the messages the check read. */
export interface ToolRunRepairOptions {
  /** The check's failures by position, when the format repair built them already. */
  readonly failures?: FailureIndex;
  /**
   * The messages as the user gave them, when `messages` is a copy the format repair already
   * changed (same length, the same roles): removal records keep the user's values.
   */
  readonly original?: readonly unknown[];
}

/** A call's id in the output: its own, or the fresh one it was given. */
interface CallOut {
  readonly call: CallSite;
  readonly id: string;
}

/** What the phases of {@link repairToolRuns} share: the input, and the plan each phase adds to. */
interface RunRepair {
  readonly messages: readonly unknown[];
  readonly original: readonly unknown[];
  readonly read: ToolRunRead;
  readonly outcome: CheckOutcome;
  readonly rules: ToolRunRules;
  readonly writer: ToolRunWriter;
  readonly failures: FailureIndex;
  /** The rules a tool message's failure may be under. */
  readonly toolRunRules: readonly RuleId[];
  readonly repairs: TranscriptRepair[];
  /** message -> slot -> the fresh id of a renamed call. */
  readonly renamedCalls: Map<number, Map<number, string>>;
  /** The repeated calls renamed, with their fresh ids. */
  readonly repeats: CallOut[];
  /** The id of a renamed first call -> its fresh id. */
  readonly renamedFirst: Map<string, string>;
  /** The first call of each id. */
  readonly calls: Map<string, CallSite>;
  /** The message of the open calls (`received`), if any. */
  readonly openOwner: number | undefined;
  /** tool message -> the user message keeping its text, after its run. */
  readonly textAfter: Map<number, JsonObject>;
  /** The user messages keeping texts before the open calls' message. */
  readonly textBefore: JsonObject[];
  /** tool message -> the id it answers in the output. */
  readonly keep: Map<number, string>;
  /** owner -> the tool messages moved into its run. */
  readonly moved: Map<number, ToolMessageSite[]>;
  /** The output ids answered. */
  readonly answered: Set<string>;
  /** owner -> the results its run gains (moved, then synthesized). */
  readonly extras: Map<number, unknown[]>;
}

const at = (i: number) => `messages[${i}]`;

/** The id a tool message answering the first call of `key` carries in the output. */
const outId = (plan: RunRepair, key: string): string => plan.renamedFirst.get(key) ?? key;

/** Repairs a transcript the tool-run rules rejected. */
export function repairToolRuns(
  messages: readonly unknown[],
  read: ToolRunRead,
  outcome: CheckOutcome,
  rules: ToolRunRules,
  writer: ToolRunWriter,
  options: ToolRunRepairOptions = {},
): { messages: unknown[]; repairs: TranscriptRepair[] } {
  const plan: RunRepair = {
    messages,
    original: options.original ?? messages,
    read,
    outcome,
    rules,
    writer,
    failures: options.failures ?? new FailureIndex(outcome.located),
    toolRunRules: [rules.missingField, rules.orphan, rules.beforeCall, rules.duplicateResult, rules.notAdjacent].filter(
      (rule) => rule !== undefined,
    ),
    repairs: [],
    renamedCalls: new Map(),
    repeats: [],
    renamedFirst: new Map(),
    calls: new Map(),
    openOwner: outcome.openToolCalls[0]?.messageIndex,
    textAfter: new Map(),
    textBefore: [],
    keep: new Map(),
    moved: new Map(),
    answered: new Set(),
    extras: new Map(),
  };
  renameCalls(plan);
  const pending = sortToolMessages(plan);
  placeMisplaced(plan, pending);
  addMissingResults(plan);
  return { messages: write(plan), repairs: plan.repairs };
}

/**
 * Repeated call ids, and ids over the limit or outside the format's grammar, get fresh ids. The
 * tool messages in the run right after a repeated call that the check counted as second results
 * for the id answer it instead; the tool messages answering a renamed first call follow it.
 */
function renameCalls(plan: RunRepair): void {
  const { read, rules, failures, writer } = plan;
  const fresh = new FreshIds(
    read.calls.map((call) => call.key),
    rules.idTooLong === undefined ? undefined : MAX_TOOL_CALL_ID,
  );
  // A format with an id grammar mints fresh ids in it (from the old id's digest, the next attempt
  // after a collision); the others derive `<id>_2`, `<id>_3`, ...
  const grammar = rules.idGrammar?.grammar;
  const used = new Set(read.calls.map((call) => call.key));
  const freshId = (key: string, index: number): string => {
    if (grammar === undefined) return fresh.next(key);
    for (let attempt = 0; ; attempt++) {
      const id = grammar.mint({ digest: seedDigest(key, attempt), name: '', index });
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  for (let c = 0; c < read.calls.length; c++) {
    const call = read.calls[c] as CallSite;
    if (!plan.calls.has(call.key)) plan.calls.set(call.key, call);
    const repeated = failures.find(call.message, call.slot, [rules.duplicateCall]) !== undefined;
    const tooLong =
      rules.idTooLong !== undefined && failures.find(call.message, call.slot, [rules.idTooLong]) !== undefined;
    const malformed =
      rules.idGrammar !== undefined && failures.find(call.message, call.slot, [rules.idGrammar.rule]) !== undefined;
    if (!repeated && !tooLong && !malformed) continue;
    const id = freshId(call.key, c);
    if (repeated) plan.repeats.push({ call, id });
    else plan.renamedFirst.set(call.key, id);
    const byMessage = plan.renamedCalls.get(call.message) ?? new Map<number, string>();
    byMessage.set(call.slot, id);
    plan.renamedCalls.set(call.message, byMessage);
    const at = writer.callAt(call);
    plan.repairs.push(
      repeated
        ? renamedCall(rules.duplicateCall, at, call.key, id)
        : malformed
          ? renamedCall(
              (rules.idGrammar as NonNullable<typeof rules.idGrammar>).rule,
              at,
              call.key,
              id,
              `gave the tool call id ${call.key} (not ${grammar?.description}) the id ${id}`,
            )
          : renamedCall(
              rules.idTooLong as NonNullable<typeof rules.idTooLong>,
              at,
              call.key,
              id,
              `gave the tool call id ${call.key} (${call.key.length} characters, more than ${MAX_TOOL_CALL_ID}) the id ${id}`,
            ),
    );
  }
}

/**
 * Each tool message: kept (under its call's output id, or as the result of a renamed repeat),
 * left for {@link placeMisplaced} (before its call, or not adjacent: returned), or removed, an
 * orphan's text kept as user text. Orphans' texts go after their run, or, for the run of the
 * last message whose calls are still open (`received`), before that message, so the open calls
 * keep their run.
 */
function sortToolMessages(plan: RunRepair): ToolMessageSite[] {
  const { rules, writer, openOwner, answered } = plan;
  const pending: ToolMessageSite[] = [];
  for (const tool of plan.read.toolMessages) {
    const rule = plan.failures.find(tool.message, -1, plan.toolRunRules)?.rule;
    const key = tool.key;
    if (rule === undefined) {
      const id = outId(plan, key as string);
      plan.keep.set(tool.message, id);
      answered.add(id);
      continue;
    }
    if (rule === rules.duplicateResult && key !== undefined) {
      const repeat = plan.repeats.find(
        (r) => r.call.key === key && r.call.message === tool.owner && !answered.has(r.id),
      );
      if (repeat !== undefined) {
        plan.keep.set(tool.message, repeat.id);
        answered.add(repeat.id);
        continue;
      }
    }
    if ((rule === rules.beforeCall || rule === rules.notAdjacent) && key !== undefined) {
      pending.push(tool);
      continue;
    }
    plan.repairs.push({
      action: 'removed',
      rule,
      ids: key === undefined ? [] : [key],
      at: at(tool.message),
      detail:
        rule === rules.orphan
          ? 'removed the tool message: it answers no tool call'
          : rule === rules.duplicateResult
            ? `removed the tool message: tool call ${key} already has a result`
            : 'removed the incomplete tool message (no tool_call_id or content)',
      removed: plan.original[tool.message],
    });
    // A result that answers no call in the history (an orphan, or one without an id) may
    // carry the user's own words (an ask-user tool's answer): they stay, as user text.
    if (rule !== rules.orphan && key !== undefined) continue;
    const text = orphanedResultText(writer.resultText(plan.messages[tool.message] as JsonObject));
    if (text === undefined) continue;
    if (tool.owner === openOwner && openOwner === CARRIED) continue; // no place: the record keeps it
    const user = writer.userText(text);
    if (tool.owner === openOwner) plan.textBefore.push(user);
    else plan.textAfter.set(tool.message, user);
    plan.repairs.push({
      action: 'inserted_message',
      rule,
      ids: key === undefined ? [] : [key],
      at: at(tool.message),
      detail:
        tool.owner === openOwner
          ? `kept the text of the removed tool message as a user message before ${at(openOwner)}`
          : 'kept the text of the removed tool message as a user message after its run of tool messages',
    });
  }
  return pending;
}

/** A tool message before its call or away from its run moves into the run after its call, unless the call has a result already. */
function placeMisplaced(plan: RunRepair, pending: readonly ToolMessageSite[]): void {
  const { rules, answered } = plan;
  for (const tool of pending) {
    const key = tool.key as string;
    const call = plan.calls.get(key) as CallSite;
    const id = outId(plan, key);
    const rule = plan.failures.find(tool.message, -1, plan.toolRunRules)?.rule ?? rules.notAdjacent;
    if (answered.has(id)) {
      plan.repairs.push({
        action: 'removed',
        rule,
        ids: [key],
        at: at(tool.message),
        detail: `removed the misplaced tool message: tool call ${key} already has a result`,
        removed: plan.original[tool.message],
      });
      continue;
    }
    answered.add(id);
    const list = plan.moved.get(call.message) ?? [];
    list.push(tool);
    plan.moved.set(call.message, list);
    plan.repairs.push({
      action: 'moved_result',
      rule,
      ids: [key],
      at: at(tool.message),
      detail: `moved the tool message into the run of tool messages after ${call.message === CARRIED ? 'the carried open calls' : at(call.message)}`,
    });
  }
}

/** The tool message `message` answering `id`. */
const withId = (message: JsonObject, id: string): JsonObject =>
  id === message['tool_call_id'] ? message : { ...message, tool_call_id: id };

/** The results each run lacks: moved ones, then synthesized ones, in call order. */
function addMissingResults(plan: RunRepair): void {
  const open = new Set(plan.outcome.openToolCalls.map((call) => call.id));
  const callsOf = new Map<number, CallOut[]>();
  for (const call of plan.read.calls) {
    const renamed = plan.renamedCalls.get(call.message)?.get(call.slot);
    if (renamed === undefined && plan.calls.get(call.key) !== call) continue;
    const list = callsOf.get(call.message) ?? [];
    list.push({ call, id: renamed ?? call.key });
    callsOf.set(call.message, list);
  }
  for (const [message, list] of callsOf) {
    const extra: unknown[] = (plan.moved.get(message) ?? []).map((tool) =>
      withId(plan.messages[tool.message] as JsonObject, outId(plan, tool.key as string)),
    );
    for (const { call, id } of list) {
      // An open call keeps waiting under its own id (open calls are never renamed).
      if (plan.answered.has(id) || open.has(call.key)) continue;
      extra.push(plan.writer.synthesize(id, call.name));
      plan.repairs.push({
        action: 'synthesized_result',
        rule: plan.rules.unanswered,
        ids: [id],
        at: plan.writer.callAt(call),
        detail: `wrote an error result for tool call ${id}: it had none`,
      });
    }
    if (extra.length > 0) plan.extras.set(message, extra);
  }
}

/** The output: the messages in order, each run closed with its extra results and kept texts. */
function write(plan: RunRepair): unknown[] {
  const { messages, openOwner } = plan;
  const out: unknown[] = [];
  let runOf = CARRIED;
  let texts: JsonObject[] = [];
  const closeRun = () => {
    const extra = plan.extras.get(runOf);
    if (extra !== undefined) out.push(...extra);
    if (texts.length > 0) out.push(...texts);
    texts = [];
    runOf = NO_OWNER;
  };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const role = message['role'];
    if (role === 'tool') {
      const id = plan.keep.get(i);
      if (id !== undefined) out.push(withId(message, id));
      const text = plan.textAfter.get(i);
      if (text !== undefined) texts.push(text);
      continue;
    }
    closeRun();
    if (i === openOwner) out.push(...plan.textBefore);
    const renamed = plan.renamedCalls.get(i);
    let next = message;
    if (renamed !== undefined) for (const [slot, id] of renamed) next = plan.writer.renameCall(next, slot, id);
    out.push(next);
    if (role === 'assistant') runOf = i;
  }
  closeRun();
  return out;
}
