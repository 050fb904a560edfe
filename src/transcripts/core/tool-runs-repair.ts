/**
 * Repair for formats where each tool result is a message of its own (OpenAI Chat Completions,
 * `ChatMessage`), driven by the check's own classification: each tool message is kept in
 * place, moved into the run after its call, renamed with a repeated call, or removed; each
 * call left without a result gets a synthesized one at the end of its run. Internal.
 *
 * @module
 */
import type { CallSite } from './calls.ts';
import type { CheckOutcome } from './context.ts';
import type { JsonObject } from './input.ts';
import { FailureIndex, FreshIds, type TranscriptRepair } from './repair.ts';
import { CARRIED, type ToolMessageSite, type ToolRunRead, type ToolRunRules } from './tool-runs.ts';

/** How a format writes the messages repair needs. */
export interface ToolRunWriter {
  /** The assistant message with the call at `slot` given id `id`. */
  readonly renameCall: (message: JsonObject, slot: number, id: string) => JsonObject;
  /** The tool message answering call `id`. */
  readonly synthesize: (id: string, name: string) => JsonObject;
  /** Where a call stands (for records). */
  readonly callAt: (call: CallSite) => string;
}

/** Repairs a transcript the tool-run rules rejected. */
export function repairToolRuns(
  messages: readonly unknown[],
  read: ToolRunRead,
  outcome: CheckOutcome,
  rules: ToolRunRules,
  writer: ToolRunWriter,
): { messages: unknown[]; repairs: TranscriptRepair[] } {
  const failures = new FailureIndex(outcome.located);
  const repairs: TranscriptRepair[] = [];
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  const fresh = new FreshIds(read.calls.map((call) => call.key));
  const at = (i: number) => `messages[${i}]`;

  // Repeated call ids get fresh ids; the tool messages in the run right after such a call that
  // the check counted as second results for the id answer it instead.
  const renamedCalls = new Map<number, Map<number, string>>();
  const repeats: { call: CallSite; id: string }[] = [];
  for (const call of read.calls) {
    if (failures.find(call.message, call.slot, [rules.duplicateCall]) === undefined) continue;
    const id = fresh.next(call.key);
    repeats.push({ call, id });
    const byMessage = renamedCalls.get(call.message) ?? new Map<number, string>();
    byMessage.set(call.slot, id);
    renamedCalls.set(call.message, byMessage);
    repairs.push({
      action: 'renamed_call',
      rule: rules.duplicateCall,
      ids: [call.key, id],
      at: writer.callAt(call),
      detail: `gave the repeated tool call id ${call.key} the fresh id ${id}`,
    });
  }

  // Which message owns the tool run that holds each tool message.
  const owner = new Int32Array(read.roles.length);
  let runOwner = CARRIED;
  for (let i = 0; i < read.roles.length; i++) {
    if (read.roles[i] === 'tool') owner[i] = runOwner;
    else runOwner = read.roles[i] === 'assistant' ? i : -2;
  }

  const calls = new Map<string, CallSite>();
  for (const call of read.calls) if (!calls.has(call.key)) calls.set(call.key, call);
  const keep = new Map<number, string>(); // tool message -> the id it answers in the output
  const moved = new Map<number, ToolMessageSite[]>(); // owner -> tool messages moved into its run
  const answered = new Set<string>();
  const pending: ToolMessageSite[] = [];
  for (const tool of read.toolMessages) {
    const problems = failures.at(tool.message);
    const rule = problems[0]?.rule;
    if (rule === undefined) {
      keep.set(tool.message, tool.key as string);
      answered.add(tool.key as string);
      continue;
    }
    const key = tool.key;
    if (rule === rules.duplicateResult && key !== undefined) {
      const repeat = repeats.find(
        (r) => r.call.key === key && r.call.message === owner[tool.message] && !answered.has(r.id),
      );
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
      removed: messages[tool.message],
    });
  }
  for (const tool of pending) {
    const key = tool.key as string;
    const call = calls.get(key) as CallSite;
    const rule = failures.at(tool.message)[0]?.rule ?? rules.notAdjacent;
    if (answered.has(key)) {
      repairs.push({
        action: 'removed',
        rule,
        ids: [key],
        at: at(tool.message),
        detail: `removed the misplaced tool message: tool call ${key} already has a result`,
        removed: messages[tool.message],
      });
      continue;
    }
    answered.add(key);
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
  const extras = new Map<number, unknown[]>();
  const callsOf = new Map<number, { key: string; name: string; call: CallSite }[]>();
  for (const call of read.calls) {
    const renamed = renamedCalls.get(call.message)?.get(call.slot);
    if (renamed === undefined && calls.get(call.key) !== call) continue;
    const list = callsOf.get(call.message) ?? [];
    list.push({ key: renamed ?? call.key, name: call.name, call });
    callsOf.set(call.message, list);
  }
  for (const [message, list] of callsOf) {
    const extra: unknown[] = (moved.get(message) ?? []).map((tool) => messages[tool.message]);
    for (const { key, name, call } of list) {
      if (answered.has(key) || open.has(key)) continue;
      extra.push(writer.synthesize(key, name));
      repairs.push({
        action: 'synthesized_result',
        rule: rules.unanswered,
        ids: [key],
        at: writer.callAt(call),
        detail: `wrote an error result for tool call ${key}: it had none`,
      });
    }
    if (extra.length > 0) extras.set(message, extra);
  }

  const out: unknown[] = [];
  let runOf = CARRIED;
  const closeRun = () => {
    const extra = extras.get(runOf);
    if (extra !== undefined) out.push(...extra);
    runOf = -2;
  };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    if (read.roles[i] === 'tool') {
      const id = keep.get(i);
      if (id !== undefined) out.push(id === message['tool_call_id'] ? message : { ...message, tool_call_id: id });
      continue;
    }
    closeRun();
    const renamed = renamedCalls.get(i);
    let next = message;
    if (renamed !== undefined) for (const [slot, id] of renamed) next = writer.renameCall(next, slot, id);
    out.push(next);
    if (read.roles[i] === 'assistant') runOf = i;
  }
  closeRun();
  return { messages: out, repairs };
}
