/**
 * Repair of Gemini `contents`, driven by the check's classification: each `functionResponse`
 * is kept, moved into the user content right after its call, or removed (orphans, repeats,
 * responses without a name); each call without a response gets a synthesized one
 * (`response: { error }`, text starting `[turngate:synthesized]`) there. A function call turn
 * that does not follow a user content gets one inserted before it (holding the responses of the
 * model content before, when that one needs them; otherwise a marked text part).
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import {
  FailureIndex,
  SYNTHESIZED_RESULT_MARK,
  slotKey,
  synthesizedText,
  type TranscriptRepair,
} from '../core/repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import type { TranscriptRule } from '../rules.ts';
import { analyzeGemini } from './check.ts';
import { toolResult } from './convert.ts';

const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

const REMOVE_DETAIL: Partial<Record<TranscriptRule, string>> = {
  'gemini.function_response_missing_name': 'removed the functionResponse: it lacks its name or response',
  'gemini.function_response_orphan': 'removed the functionResponse: no functionCall in the contents matches it',
  'gemini.duplicate_function_response': 'removed the functionResponse: its call already has a response',
};

/** Whether a content is a model content with function calls. */
function startsCallTurn(content: unknown): boolean {
  const c = content as JsonObject | undefined;
  const parts = (c?.['parts'] as readonly JsonObject[] | undefined) ?? [];
  return c?.['role'] === 'model' && parts.some((p) => p['functionCall'] !== undefined);
}

/** Checks and, when rejected, repairs Gemini `contents`. */
export function repairGemini(contents: readonly unknown[], context: RepairContext): FormatRepair {
  const { outcome, read } = analyzeGemini(contents, context);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const repairs: TranscriptRepair[] = [];
  const partsOf = (i: number) => (contents[i] as JsonObject)['parts'] as readonly JsonObject[];
  const drop = new Set<string>();
  const extra = new Map<number, JsonObject[]>(); // model content -> responses for the user content after it

  for (const response of read.responses) {
    const problem = failures.at(response.content, response.slot)[0];
    if (problem === undefined) continue;
    drop.add(slotKey(response.content, response.slot));
    if (problem.rule === 'gemini.function_response_missing_name' && response.id !== undefined) {
      // It paired by id all the same: once removed, its call needs a (synthesized) response.
      const call = read.calls.find((c) => c.hasId && c.key === response.id && c.message === response.content - 1);
      if (call !== undefined) call.answered = false;
    }
    if (problem.rule !== 'gemini.function_response_not_after_call') {
      repairs.push({
        action: 'removed',
        rule: problem.rule,
        ids: problem.ids,
        at: partAt(response.content, response.slot),
        detail: REMOVE_DETAIL[problem.rule] ?? 'removed the functionResponse',
        removed: partsOf(response.content)[response.slot],
      });
      continue;
    }
    // A misplaced response answers the first call it matches that still lacks one.
    const call = read.calls.find(
      (c) => !c.answered && (response.id !== undefined ? c.hasId && c.key === response.id : c.name === response.name),
    );
    if (call === undefined) {
      repairs.push({
        action: 'removed',
        rule: problem.rule,
        ids: problem.ids,
        at: partAt(response.content, response.slot),
        detail: 'removed the misplaced functionResponse: its call already has a response',
        removed: partsOf(response.content)[response.slot],
      });
      continue;
    }
    call.answered = true;
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      partsOf(response.content)[response.slot] as JsonObject,
    ]);
    repairs.push({
      action: 'moved_result',
      rule: problem.rule,
      ids: problem.ids,
      at: partAt(response.content, response.slot),
      detail: `moved the functionResponse into the user content after contents[${call.message}]`,
    });
  }

  const open = new Set(outcome.openToolCalls.map((call) => call.at));
  for (const call of read.calls) {
    if (call.answered || open.has(partAt(call.message, call.slot))) continue;
    const response = { error: synthesizedText(call.name, context.readOnlyTools) };
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      toolResult(call.hasId ? call.key : undefined, call.name, response),
    ]);
    repairs.push({
      action: 'synthesized_result',
      rule: 'gemini.function_call_unanswered',
      ids: [call.key],
      at: partAt(call.message, call.slot),
      detail: `wrote an error functionResponse for the call ${call.key}: it had none`,
    });
  }

  // A misplaced call turn gets a user content before it.
  const opensTurn = new Set(failures.of('gemini.function_call_turn_misplaced').map((failure) => failure.message));
  const out: unknown[] = [];
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i] as JsonObject;
    if (opensTurn.has(i) && !extra.has(i - 1)) {
      out.push({
        role: 'user',
        parts: [{ text: `${SYNTHESIZED_RESULT_MARK} (a user turn inserted before a function call turn)` }],
      });
      repairs.push({
        action: 'inserted_message',
        rule: 'gemini.function_call_turn_misplaced',
        ids: [],
        at: `contents[${i}]`,
        detail: `inserted a user content before contents[${i}]: a function call turn follows a user turn`,
      });
    }
    const parts = partsOf(i);
    const next: JsonObject[] = [];
    let changed = false;
    for (let j = 0; j < parts.length; j++) {
      if (drop.has(slotKey(i, j))) changed = true;
      else next.push(parts[j] as JsonObject);
    }
    const answers = content['role'] === 'user' ? extra.get(i - 1) : undefined;
    if (answers !== undefined) {
      next.push(...answers);
      changed = true;
    }
    if (!changed) out.push(content);
    else if (next.length > 0) out.push({ ...content, parts: next });
    else if ((out[out.length - 1] as JsonObject | undefined)?.['role'] === 'model' && startsCallTurn(contents[i + 1])) {
      // Removing this emptied user content would leave a function call turn after a model content.
      out.push({ ...content, parts: [{ text: `${SYNTHESIZED_RESULT_MARK} (function responses moved or removed)` }] });
      repairs.push({
        action: 'inserted_message',
        rule: 'gemini.function_call_turn_misplaced',
        ids: [],
        at: `contents[${i}]`,
        detail: `kept contents[${i}] with a marked text part: a function call turn follows it`,
      });
    }
    const responses = extra.get(i);
    if (responses !== undefined && (contents[i + 1] as JsonObject | undefined)?.['role'] !== 'user') {
      out.push({ role: 'user', parts: responses });
      repairs.push({
        action: 'inserted_message',
        rule: 'gemini.function_call_unanswered',
        ids: responses.map(
          (part) =>
            ((part['functionResponse'] as JsonObject)['id'] ??
              (part['functionResponse'] as JsonObject)['name']) as string,
        ),
        at: `contents[${i}]`,
        detail: `inserted a user content with the function responses right after contents[${i}]`,
      });
    }
  }
  return { outcome, repaired: { messages: out, repairs } };
}
