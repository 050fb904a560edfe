/**
 * The driver of turngate's `ChatMessage` (llm-provider §3): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { MAX_TOOL_CALL_ID, toolRunCalls } from '../core/tool-runs.ts';
import { toolRunTurns } from '../core/turns.ts';
import { checkChat, readChat } from './check.ts';
import { repairChat } from './repair.ts';
import { CHAT_RULES, type ChatRule } from './rules.ts';

/** The `chat` driver. */
export const CHAT_DRIVER = {
  format: 'chat',
  field: 'messages',
  rules: CHAT_RULES,
  check: checkChat,
  repair: repairChat,
  // Read like every other format's conversion: a value that is no ChatMessage is refused here.
  toChat: (messages) => {
    readChat(messages);
    return { messages: [...messages], losses: [] };
  },
  fromChat: (messages) => {
    readChat(messages);
    return { messages: [...messages], losses: [] };
  },
  turns: (messages) => toolRunTurns(messages, readChat(messages)),
  toolCallIds: lengthGrammar(MAX_TOOL_CALL_ID, 'call_'),
  extendable: (analysis) => ({ calls: toolRunCalls(analysis) }),
  stopReasons: STOP_REASON_TABLE['chat'],
} as const satisfies FormatDriver<'chat', ChatRule>;
