/**
 * The driver of Gemini `generateContent` (`contents`): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { readGeminiTurns } from './evidence.ts';
import { checkGemini, geminiExtendable } from './check.ts';
import { chatToGemini, geminiToChat } from './convert.ts';
import { repairGemini } from './repair.ts';
import { GEMINI_RULES, type GeminiRule } from './rules.ts';

/** The `gemini` driver. */
export const GEMINI_DRIVER = {
  format: 'gemini',
  field: 'contents',
  rules: GEMINI_RULES,
  check: checkGemini,
  repair: repairGemini,
  toChat: geminiToChat,
  fromChat: chatToGemini,
  turns: readGeminiTurns,
  toolCallIds: lengthGrammar(Number.POSITIVE_INFINITY, 'call_'),
  extendable: geminiExtendable,
  stopReasons: STOP_REASON_TABLE['gemini'],
} as const satisfies FormatDriver<'gemini', GeminiRule>;
