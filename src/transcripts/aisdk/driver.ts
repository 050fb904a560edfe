/**
 * The driver of the AI SDK (`ModelMessage[]`): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { lengthGrammar } from '../core/ids.ts';
import { readAISDKTurns } from './evidence.ts';
import { aisdkExtendable, checkAISDK } from './check.ts';
import { aisdkToChat, chatToAISDK } from './convert.ts';
import { repairAISDK } from './repair.ts';
import { AISDK_RULES, type AISDKRule } from './rules.ts';

/** The `aisdk` driver. */
export const AISDK_DRIVER = {
  format: 'aisdk',
  field: 'messages',
  rules: AISDK_RULES,
  check: checkAISDK,
  repair: repairAISDK,
  toChat: aisdkToChat,
  fromChat: chatToAISDK,
  turns: readAISDKTurns,
  toolCallIds: lengthGrammar(Number.POSITIVE_INFINITY, 'call_'),
  extendable: aisdkExtendable,
  stopReasons: STOP_REASON_TABLE['aisdk'],
} as const satisfies FormatDriver<'aisdk', AISDKRule>;
