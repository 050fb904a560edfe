/**
 * The driver of OpenAI Chat Completions (`messages`): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { MAX_TOOL_CALL_ID, toolRunCalls } from '../core/tool-runs.ts';
import { toolRunTurns } from '../core/turns.ts';
import { checkOpenAIChat, readOpenAIChat } from './check.ts';
import { chatToOpenAIChat, openAIChatToChat } from './convert.ts';
import { dialectToolCallIds } from './dialects.ts';
import { repairOpenAIChat } from './repair.ts';
import { OPENAI_CHAT_RULES, type OpenAIChatRule } from './rules.ts';

const OPENAI_CHAT_IDS = lengthGrammar(MAX_TOOL_CALL_ID, 'call_');

/** The `openai-chat` driver. */
export const OPENAI_CHAT_DRIVER = {
  format: 'openai-chat',
  field: 'messages',
  rules: OPENAI_CHAT_RULES,
  check: checkOpenAIChat,
  repair: repairOpenAIChat,
  toChat: openAIChatToChat,
  fromChat: chatToOpenAIChat,
  turns: (messages) => toolRunTurns(messages, readOpenAIChat(messages)),
  toolCallIds: OPENAI_CHAT_IDS,
  toolCallIdsFor: dialectToolCallIds(OPENAI_CHAT_IDS),
  // A dialect's rules read across messages (the reasoning of a turn): its checks are not extended.
  extendable: (analysis, context) => (context.dialect === undefined ? { calls: toolRunCalls(analysis) } : undefined),
  stopReasons: STOP_REASON_TABLE['openai-chat'],
} as const satisfies FormatDriver<'openai-chat', OpenAIChatRule>;
