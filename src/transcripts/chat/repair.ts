/**
 * Repair of `ChatMessage`s: the tool-run repair with turngate's message shape.
 *
 * @module
 */
import type { ChatRule } from './rules.ts';
import type { JsonObject } from '../core/input.ts';
import { synthesizedText } from '../core/repair.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import { renameToolCall } from '../core/chat-completions.ts';
import type { CheckOutcome } from '../core/context.ts';
import type { ToolRunRead } from '../core/tool-runs.ts';
import { repairToolRuns } from '../core/tool-runs-repair.ts';
import { CHAT_TOOL_RUNS, chatCallAt } from './check.ts';

/**
 * Repairs `ChatMessage`s the check rejected, on the check's own outcome and analysis
 * (`checked.analysis`: what `readChat` collected).
 */
export function repairChat(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<ChatRule>,
): FormatRepair {
  if (checked.failures.length === 0) return { outcome: checked };
  return {
    outcome: checked,
    repaired: repairToolRuns(messages, analysisOf<ToolRunRead<ChatRule>>(checked), checked, CHAT_TOOL_RUNS, {
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
