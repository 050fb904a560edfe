/**
 * Repair of Chat Completions `messages`: the tool-run repair with this format's messages.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { synthesizedText } from '../core/repair.ts';
import { checkToolRuns } from '../core/tool-runs.ts';
import { repairToolRuns } from '../core/tool-runs-repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import { OPENAI_CHAT_TOOL_RUNS, readOpenAIChat } from './check.ts';
import { toolResult } from './convert.ts';

/** Renames the tool call at `slot` of an assistant message (function or custom call). */
export function renameToolCall(message: JsonObject, slot: number, id: string): JsonObject {
  const calls = [...(message['tool_calls'] as readonly JsonObject[])];
  calls[slot] = { ...(calls[slot] as JsonObject), id };
  return { ...message, tool_calls: calls };
}

/** Checks and, when rejected, repairs Chat Completions `messages`. */
export function repairOpenAIChat(messages: readonly unknown[], context: RepairContext): FormatRepair {
  const read = readOpenAIChat(messages);
  const outcome = checkToolRuns(
    read,
    OPENAI_CHAT_TOOL_RUNS,
    context,
    (call) => `messages[${call.message}].tool_calls[${call.slot}]`,
  );
  if (outcome.failures.length === 0) return { outcome };
  return {
    outcome,
    repaired: repairToolRuns(messages, read, outcome, OPENAI_CHAT_TOOL_RUNS, {
      renameCall: renameToolCall,
      synthesize: (id, name) => toolResult(id, synthesizedText(name, context.readOnlyTools)),
      callAt: (call) => `messages[${call.message}].tool_calls[${call.slot}]`,
    }),
  };
}
