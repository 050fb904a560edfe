/**
 * The driver of Mistral chat completions (`messages`): its reader and rules, repair,
 * conversions, evidence reader and stop reasons, as one record (registered in `formats.ts`).
 * Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { toolRunTurns } from '../core/turns.ts';
import { checkMistral, MISTRAL_TOOL_CALL_IDS, mistralExtendable, readMistral } from './check.ts';
import { chatToMistral, mistralToChat } from './convert.ts';
import { repairMistral } from './repair.ts';
import { MISTRAL_RULES, type MistralRule } from './rules.ts';

/** The `mistral` driver. */
export const MISTRAL_DRIVER = {
  format: 'mistral',
  field: 'messages',
  rules: MISTRAL_RULES,
  check: checkMistral,
  repair: repairMistral,
  toChat: mistralToChat,
  fromChat: chatToMistral,
  turns: (messages) => toolRunTurns(messages, readMistral(messages)),
  toolCallIds: MISTRAL_TOOL_CALL_IDS,
  extendable: mistralExtendable,
  stopReasons: STOP_REASON_TABLE.mistral,
} as const satisfies FormatDriver<'mistral', MistralRule>;
