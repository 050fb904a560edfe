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
import type { CallSite } from './calls.ts';
import type { CheckOutcome } from './context.ts';
import type { JsonObject } from './input.ts';
import { seedDigest } from './ids.ts';
import { FailureIndex, FreshIds, orphanedResultText, type TranscriptRepair } from './repair.ts';
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

/** Repairs a transcript the tool-run rules rejected. */
export function repairToolRuns(
  messages: readonly unknown[],
  read: ToolRunRead,
  outcome: CheckOutcome,
  rules: ToolRunRules,
  writer: ToolRunWriter,
  options: ToolRunRepairOptions = {},
): { messages: unknown[]; repairs: TranscriptRepair[] } {
  const failures = options.failures ?? new FailureIndex(outcome.located);
  const original = options.original ?? messages;
  const repairs: TranscriptRepair[] = [];
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
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
  const at = (i: number) => `messages[${i}]`;
  const toolRunRules = [
    rules.missingField,
    rules.orphan,
    rules.beforeCall,
    rules.duplicateResult,
    rules.notAdjacent,
  ].filter((rule) => rule !== undefined);

  // Repeated call ids, and ids over the limit, get fresh ids. The tool messages in the run right
  // after a repeated call that the check counted as second results for the id answer it instead;
  // the tool messages answering a renamed first call follow it.
  const renamedCalls = new Map<number, Map<number, string>>();
  const repeats: CallOut[] = [];
  const renamedFirst = new Map<string, string>(); // the id of a first call -> its fresh id
  const calls = new Map<string, CallSite>(); // the first call of each id
  for (let c = 0; c < read.calls.length; c++) {
    const call = read.calls[c] as CallSite;
    const first = !calls.has(call.key);
    if (first) calls.set(call.key, call);
    const repeated = failures.find(call.message, call.slot, [rules.duplicateCall]) !== undefined;
    const tooLong =
      rules.idTooLong !== undefined && failures.find(call.message, call.slot, [rules.idTooLong]) !== undefined;
    const malformed =
      rules.idGrammar !== undefined && failures.find(call.message, call.slot, [rules.idGrammar.rule]) !== undefined;
    if (!repeated && !tooLong && !malformed) continue;
    const id = freshId(call.key, c);
    if (repeated) repeats.push({ call, id });
    else renamedFirst.set(call.key, id);
    const byMessage = renamedCalls.get(call.message) ?? new Map<number, string>();
    byMessage.set(call.slot, id);
    renamedCalls.set(call.message, byMessage);
    repairs.push({
      action: 'renamed_call',
      rule: repeated
        ? rules.duplicateCall
        : malformed
          ? (rules.idGrammar as NonNullable<typeof rules.idGrammar>).rule
          : (rules.idTooLong as NonNullable<typeof rules.idTooLong>),
      ids: [call.key, id],
      at: writer.callAt(call),
      detail: repeated
        ? `gave the repeated tool call id ${call.key} the fresh id ${id}`
        : malformed
          ? `gave the tool call id ${call.key} (not ${grammar?.description}) the id ${id}`
          : `gave the tool call id ${call.key} (${call.key.length} characters, more than ${MAX_TOOL_CALL_ID}) the id ${id}`,
    });
  }
  // The id a tool message answering the first call of `key` carries in the output.
  const outId = (key: string) => renamedFirst.get(key) ?? key;

  // Orphans' texts: after their run, or, for the run of the last message whose calls are still
  // open (`received`), before that message, so the open calls keep their run.
  const openOwner: number | undefined = outcome.openToolCalls[0]?.messageIndex;
  const textAfter = new Map<number, JsonObject>(); // tool message -> the user message keeping its text
  const textBefore: JsonObject[] = [];

  const keep = new Map<number, string>(); // tool message -> the id it answers in the output
  const moved = new Map<number, ToolMessageSite[]>(); // owner -> tool messages moved into its run
  const answered = new Set<string>(); // output ids
  const pending: ToolMessageSite[] = [];
  for (const tool of read.toolMessages) {
    const rule = failures.find(tool.message, -1, toolRunRules)?.rule;
    const key = tool.key;
    if (rule === undefined) {
      const id = outId(key as string);
      keep.set(tool.message, id);
      answered.add(id);
      continue;
    }
    if (rule === rules.duplicateResult && key !== undefined) {
      const repeat = repeats.find((r) => r.call.key === key && r.call.message === tool.owner && !answered.has(r.id));
      if (repeat !== undefined) {
        keep.set(tool.message, repeat.id);
        answered.add(repeat.id);
        continue;
      }
    }
    if ((rule === rules.beforeCall || rule === rules.notAdjacent) && key !== undefined) {
      pending.push(tool);
      continue;
    }
    repairs.push({
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
      removed: original[tool.message],
    });
    // A result that answers no call in the history (an orphan, or one without an id) may
    // carry the user's own words (an ask-user tool's answer): they stay, as user text.
    if (rule !== rules.orphan && key !== undefined) continue;
    const text = orphanedResultText(writer.resultText(messages[tool.message] as JsonObject));
    if (text === undefined) continue;
    if (tool.owner === openOwner && openOwner === CARRIED) continue; // no place: the record keeps it
    const user = writer.userText(text);
    if (tool.owner === openOwner) textBefore.push(user);
    else textAfter.set(tool.message, user);
    repairs.push({
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
  for (const tool of pending) {
    const key = tool.key as string;
    const call = calls.get(key) as CallSite;
    const id = outId(key);
    const rule = failures.find(tool.message, -1, toolRunRules)?.rule ?? rules.notAdjacent;
    if (answered.has(id)) {
      repairs.push({
        action: 'removed',
        rule,
        ids: [key],
        at: at(tool.message),
        detail: `removed the misplaced tool message: tool call ${key} already has a result`,
        removed: original[tool.message],
      });
      continue;
    }
    answered.add(id);
    const list = moved.get(call.message) ?? [];
    list.push(tool);
    moved.set(call.message, list);
    repairs.push({
      action: 'moved_result',
      rule,
      ids: [key],
      at: at(tool.message),
      detail: `moved the tool message into the run of tool messages after ${call.message === CARRIED ? 'the carried open calls' : at(call.message)}`,
    });
  }

  // The results each run lacks: moved ones, then synthesized ones, in call order.
  const withId = (message: JsonObject, id: string): JsonObject =>
    id === message['tool_call_id'] ? message : { ...message, tool_call_id: id };
  const extras = new Map<number, unknown[]>();
  const callsOf = new Map<number, CallOut[]>();
  for (const call of read.calls) {
    const renamed = renamedCalls.get(call.message)?.get(call.slot);
    if (renamed === undefined && calls.get(call.key) !== call) continue;
    const list = callsOf.get(call.message) ?? [];
    list.push({ call, id: renamed ?? call.key });
    callsOf.set(call.message, list);
  }
  for (const [message, list] of callsOf) {
    const extra: unknown[] = (moved.get(message) ?? []).map((tool) =>
      withId(messages[tool.message] as JsonObject, outId(tool.key as string)),
    );
    for (const { call, id } of list) {
      // An open call keeps waiting under its own id (open calls are never renamed).
      if (answered.has(id) || open.has(call.key)) continue;
      extra.push(writer.synthesize(id, call.name));
      repairs.push({
        action: 'synthesized_result',
        rule: rules.unanswered,
        ids: [id],
        at: writer.callAt(call),
        detail: `wrote an error result for tool call ${id}: it had none`,
      });
    }
    if (extra.length > 0) extras.set(message, extra);
  }

  const out: unknown[] = [];
  let runOf = CARRIED;
  let texts: JsonObject[] = [];
  const closeRun = () => {
    const extra = extras.get(runOf);
    if (extra !== undefined) out.push(...extra);
    if (texts.length > 0) out.push(...texts);
    texts = [];
    runOf = NO_OWNER;
  };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const role = message['role'];
    if (role === 'tool') {
      const id = keep.get(i);
      if (id !== undefined) out.push(withId(message, id));
      const text = textAfter.get(i);
      if (text !== undefined) texts.push(text);
      continue;
    }
    closeRun();
    if (i === openOwner) out.push(...textBefore);
    const renamed = renamedCalls.get(i);
    let next = message;
    if (renamed !== undefined) for (const [slot, id] of renamed) next = writer.renameCall(next, slot, id);
    out.push(next);
    if (role === 'assistant') runOf = i;
  }
  closeRun();
  return { messages: out, repairs };
}
