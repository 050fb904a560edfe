/**
 * The driver of the OpenAI Responses API (`input` items): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { MAX_CALL_ID_LENGTH, type OpenAIResponsesRule } from './rules.ts';
import { readResponsesTurns } from './evidence.ts';
import { checkResponses, responsesExtendable } from './check.ts';
import { chatToResponses, responsesToChat } from './convert.ts';
import { repairResponses } from './repair.ts';
import { OPENAI_RESPONSES_RULES } from './rules.ts';

/** The `openai-responses` driver. */
export const OPENAI_RESPONSES_DRIVER = {
  format: 'openai-responses',
  field: 'input',
  rules: OPENAI_RESPONSES_RULES,
  check: checkResponses,
  repair: repairResponses,
  toChat: responsesToChat,
  fromChat: chatToResponses,
  turns: readResponsesTurns,
  toolCallIds: lengthGrammar(MAX_CALL_ID_LENGTH, 'call_'),
  extendable: responsesExtendable,
  stopReasons: STOP_REASON_TABLE['openai-responses'],
} as const satisfies FormatDriver<'openai-responses', OpenAIResponsesRule>;
