/**
 * The driver of the Anthropic Messages API (`messages`): its reader and rules, repair, conversions, evidence reader and
 * stop reasons, as one record (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { digestChars, type IdSeed } from '../core/ids.ts';
import { isWordId } from '../core/names.ts';
import { readAnthropicTurns } from './evidence.ts';
import { anthropicExtendable, checkAnthropic } from './check.ts';
import { anthropicToChat, chatToAnthropic } from './convert.ts';
import { repairAnthropic } from './repair.ts';
import { ANTHROPIC_RULES, type AnthropicRule } from './rules.ts';

/** The `anthropic` driver. */
export const ANTHROPIC_DRIVER = {
  format: 'anthropic',
  field: 'messages',
  rules: ANTHROPIC_RULES,
  check: checkAnthropic,
  repair: repairAnthropic,
  toChat: anthropicToChat,
  fromChat: chatToAnthropic,
  turns: readAnthropicTurns,
  toolCallIds: {
    description: 'letters, digits, _ and - (^[a-zA-Z0-9_-]+$)',
    accepts: (id: string) => isWordId(id),
    mint: (seed: IdSeed) => `toolu_${digestChars(seed.digest, 24)}`,
  },
  extendable: anthropicExtendable,
  stopReasons: STOP_REASON_TABLE['anthropic'],
} as const satisfies FormatDriver<'anthropic', AnthropicRule>;
