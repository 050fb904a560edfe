/**
 * Repair of Mistral `messages`: the tool-run repair shared with `openai-chat` (ids renamed into
 * Mistral's grammar through `MISTRAL_TOOL_CALL_IDS`), `prefix` removed where it is not last, and
 * a bridge assistant message ({@link bridgeMessage}) before a user message that follows tool
 * messages.
 *
 * Why a bridge: after a tool message Mistral takes only an assistant or tool message
 * (mistral-common `_validate_message_order`); the user message cannot move before the tool
 * messages (they must follow their call) and folding it into a tool message would change a
 * result, so an assistant message is the only order-preserving fix. It carries a marked text
 * (an empty one is refused: "must have either content or tool_calls"), says no reply was
 * recorded, and keeps the user's words where they were; agents that hit the same 400 do the same
 * (avante.nvim PR 2695, hermes-agent PR 84944, the `requiresAssistantAfterToolResult` setting
 * of pi's providers).
 *
 * The bridge goes in on a pass where the tool runs need no repair (positions are the check's);
 * `repairTranscript` checks again after each pass, so a bridge a tool-run repair makes necessary
 * (an orphan's text kept as user text after its run) goes in on the next.
 *
 * @module
 */
import type { MistralRule } from './rules.ts';
import { renameToolCall, toolMessageText } from '../core/chat-completions.ts';
import type { CheckOutcome } from '../core/context.ts';
import type { JsonObject } from '../core/input.ts';
import { FailureIndex, synthesizedText, type TranscriptRepair } from '../core/repair.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import { repairToolRuns, type ToolRunWriter } from '../core/tool-runs-repair.ts';
import { MISTRAL_TOOL_RUNS, type MistralRead, mistralCallAt } from './check.ts';
import { bridgeMessage, toolResult } from './convert.ts';

/** `messages` with `prefix` removed from the assistant messages the check found it misplaced on (same length). */
function removePrefixes(
  messages: readonly unknown[],
  checked: CheckOutcome<MistralRule>,
  repairs: TranscriptRepair[],
): readonly unknown[] {
  let out: unknown[] | undefined;
  for (const failure of checked.located) {
    if (failure.rule !== 'mistral.prefix_not_last') continue;
    out ??= messages.slice();
    const { prefix, ...rest } = messages[failure.message] as JsonObject;
    out[failure.message] = rest;
    repairs.push({
      action: 'removed',
      rule: failure.rule,
      ids: [],
      at: failure.at,
      detail: 'removed prefix: true from an assistant message that is not the last',
      removed: prefix,
    });
  }
  return out ?? messages;
}

/** `messages` with a bridge assistant message before each user message the check found right after a tool message. */
function insertBridges(
  messages: readonly unknown[],
  checked: CheckOutcome<MistralRule>,
  repairs: TranscriptRepair[],
): readonly unknown[] {
  const before = new Set<number>();
  for (const failure of checked.located) {
    if (failure.rule !== 'mistral.user_after_tool') continue;
    before.add(failure.message);
    repairs.push({
      action: 'inserted_message',
      rule: failure.rule,
      ids: [],
      at: failure.at,
      detail: `inserted an assistant message saying no reply was recorded before ${failure.at}, which follows a tool message`,
    });
  }
  if (before.size === 0) return messages;
  const out: unknown[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (before.has(i)) out.push(bridgeMessage());
    out.push(messages[i]);
  }
  return out;
}

/** Repairs Mistral `messages` the check rejected, on the check's own outcome and analysis. */
export function repairMistral(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<MistralRule>,
): FormatRepair {
  if (checked.failures.length === 0) return { outcome: checked };
  const read = analysisOf<MistralRead>(checked);
  const repairs: TranscriptRepair[] = [];
  const prefixed = removePrefixes(messages, checked, repairs);
  const writer: ToolRunWriter = {
    renameCall: renameToolCall,
    synthesize: (id, name) => toolResult(id, synthesizedText(name, context.readOnlyTools)),
    callAt: mistralCallAt,
    resultText: toolMessageText,
    userText: (text) => ({ role: 'user', content: text }),
  };
  const runs = repairToolRuns(prefixed, read, checked, MISTRAL_TOOL_RUNS, writer, {
    failures: new FailureIndex(checked.located),
    original: messages,
  });
  repairs.push(...runs.repairs);
  const out = runs.repairs.length === 0 ? insertBridges(runs.messages, checked, repairs) : runs.messages;
  return { outcome: checked, repaired: { messages: out as unknown[], repairs } };
}
