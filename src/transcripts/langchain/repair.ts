/**
 * Repair of a LangChain history, on the check's own analysis: the tool-run repair shared with
 * Chat Completions (`core/tool-runs-repair.ts`) over a view of the messages (each one's role in
 * the tool runs, and the id a ToolMessage answers), mapped back to the user's own message
 * objects, unchanged. A missing ToolMessage is synthesized (`status: 'error'`) and an orphan's
 * text kept as a HumanMessage, each in the serialized form of the history around it.
 *
 * A repeated tool call id is not renamed (`langchain.duplicate_tool_call_id` is not
 * repairable): a provider block of the content (ChatAnthropic's `tool_use`) carries the same
 * id, so a new id in `tool_calls` alone would send the call twice.
 *
 * @module
 */
import type { LangChainRule } from './rules.ts';
import type { CheckOutcome } from '../core/context.ts';
import type { JsonObject } from '../core/input.ts';
import { FailureIndex, synthesizedText } from '../core/repair.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import { repairToolRuns, type ToolRunWriter } from '../core/tool-runs-repair.ts';
import { fieldsOf, LANGCHAIN_TOOL_RUNS, type LangChainForm, type LangChainRead, langChainCallAt } from './check.ts';
import { langChainMessage, toolResult } from './convert.ts';

/** The text a ToolMessage carries: its string content, or the text of its text blocks joined by newlines. */
function toolMessageText(message: JsonObject): string {
  const content = fieldsOf(message)['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content as JsonObject[]) {
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
  }
  return texts.join('\n');
}

/**
 * Repairs a LangChain history the check rejected, on the check's own outcome and analysis
 * (`checked.analysis`: what `readLangChain` collected).
 */
export function repairLangChain(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<LangChainRule>,
): FormatRepair {
  if (checked.failures.length === 0) return { outcome: checked };
  const read = analysisOf<LangChainRead>(checked);
  // The view the tool-run repair reads: the role of each message in the tool runs, and the id a
  // ToolMessage answers; each view maps back to its message.
  const index = new WeakMap<object, number>();
  const answers = new Map<number, string>();
  for (const tool of read.toolMessages) if (tool.key !== undefined) answers.set(tool.message, tool.key);
  const view = messages.map((_, i) => {
    const kind = read.kinds[i];
    const role = kind === 'ai' ? 'assistant' : kind === 'tool' ? 'tool' : 'user';
    const key = answers.get(i);
    const entry = key === undefined ? { role } : { role, tool_call_id: key };
    index.set(entry, i);
    return entry;
  });
  const original = (entry: JsonObject) => messages[index.get(entry) as number] as JsonObject;
  // The form of the messages written: the form of the AIMessage whose call a result answers, and
  // for kept text the history's first message's form.
  const formOfCall = new Map<string, LangChainForm>();
  for (const call of read.calls)
    if (!formOfCall.has(call.key)) formOfCall.set(call.key, read.forms[call.message] as LangChainForm);
  const textForm = (read.forms[0] ?? 'constructor') as LangChainForm;
  const writer: ToolRunWriter = {
    renameCall: (message) => message,
    synthesize: (id, name) =>
      toolResult(
        id,
        synthesizedText(name, context.readOnlyTools),
        formOfCall.get(id) ?? textForm,
        'error',
      ) as JsonObject,
    callAt: (call) => langChainCallAt(messages, call.message, call.slot),
    resultText: (entry) => toolMessageText(original(entry)),
    userText: (text) => langChainMessage('human', { content: text }, textForm),
  };
  // No renaming (see the module note): the repeated ids stay for the user to fix.
  const failures = new FailureIndex(checked.located.filter((f) => f.rule !== LANGCHAIN_TOOL_RUNS.duplicateCall));
  const runs = repairToolRuns(view, read, checked, LANGCHAIN_TOOL_RUNS, writer, { failures, original: messages });
  const out = runs.messages.map((entry) => {
    const i = index.get(entry as object);
    return i === undefined ? entry : messages[i];
  });
  return { outcome: checked, repaired: { messages: out, repairs: runs.repairs } };
}
