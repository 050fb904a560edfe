/**
 * The driver of LangChain.js message histories (`messages`, serialized `BaseMessage`s): its
 * reader and rules, repair, conversions, evidence reader and stop reasons, as one record
 * (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { toolRunCalls } from '../core/tool-runs.ts';
import { checkLangChain } from './check.ts';
import { chatToLangChain, langChainToChat } from './convert.ts';
import { langChainTurns } from './evidence.ts';
import { repairLangChain } from './repair.ts';
import { LANGCHAIN_RULES, type LangChainRule } from './rules.ts';

/** The `langchain` driver. */
export const LANGCHAIN_DRIVER = {
  format: 'langchain',
  field: 'messages',
  rules: LANGCHAIN_RULES,
  check: checkLangChain,
  repair: repairLangChain,
  toChat: langChainToChat,
  fromChat: chatToLangChain,
  turns: langChainTurns,
  // LangChain checks no grammar of its own (ToolCall.id: any string); the check asks for a
  // non-empty one (langchain.tool_call_id_missing).
  toolCallIds: lengthGrammar(Number.POSITIVE_INFINITY, 'call_'),
  // Its rules are the tool-run rules and per-message ones, as openai-chat's: no boundary state.
  extendable: (analysis) => ({ calls: toolRunCalls(analysis) }),
  stopReasons: STOP_REASON_TABLE['langchain'],
} as const satisfies FormatDriver<'langchain', LangChainRule>;
