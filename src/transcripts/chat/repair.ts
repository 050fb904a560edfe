/**
 * Repair of `ChatMessage`s: the tool-run repair with turngate's message shape.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { synthesizedText } from '../core/repair.ts';
import type { FormatRepair, RepairContext } from '../core/repairer.ts';
import { checkToolRuns } from '../core/tool-runs.ts';
import { repairToolRuns } from '../core/tool-runs-repair.ts';
import { renameToolCall } from '../openai-chat/repair.ts';
import { CHAT_TOOL_RUNS, chatCallAt, readChat } from './check.ts';

/** Checks and, when rejected, repairs `ChatMessage`s. */
export function repairChat(messages: readonly unknown[], context: RepairContext): FormatRepair {
  const read = readChat(messages);
  const outcome = checkToolRuns(read, CHAT_TOOL_RUNS, context, chatCallAt);
  if (outcome.failures.length === 0) return { outcome };
  return {
    outcome,
    repaired: repairToolRuns(messages, read, outcome, CHAT_TOOL_RUNS, {
      renameCall: renameToolCall,
      synthesize: (id, name) => ({
        role: 'tool',
        tool_call_id: id,
        content: synthesizedText(name, context.readOnlyTools),
      }),
      callAt: chatCallAt,
      // A ChatMessage tool message's content is a string (the schema holds it so).
      resultText: (message: JsonObject) => message['content'] as string,
      userText: (text) => ({ role: 'user', content: text }),
    }),
  };
}
