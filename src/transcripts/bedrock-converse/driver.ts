/**
 * The driver of the Amazon Bedrock Converse API (`messages` of `Converse` / `ConverseStream`): its
 * reader and rules, repair, conversions, evidence reader and stop reasons, as one record
 * (registered in `formats.ts`). Internal.
 *
 * @module
 */
import { STOP_REASON_TABLE } from '../../check/index.ts';
import type { FormatDriver } from '../core/driver.ts';
import { digestChars, type IdSeed } from '../core/ids.ts';
import { bedrockExtendable, checkBedrock } from './check.ts';
import { bedrockToChat, chatToBedrock } from './convert.ts';
import { readBedrockTurns } from './evidence.ts';
import { isWordId } from '../core/names.ts';
import { repairBedrock } from './repair.ts';
import { BEDROCK_CONVERSE_RULES, type BedrockConverseRule } from './rules.ts';

/** The `bedrock-converse` driver. */
export const BEDROCK_CONVERSE_DRIVER = {
  format: 'bedrock-converse',
  field: 'messages',
  rules: BEDROCK_CONVERSE_RULES,
  check: checkBedrock,
  repair: repairBedrock,
  toChat: bedrockToChat,
  fromChat: chatToBedrock,
  turns: readBedrockTurns,
  extendable: bedrockExtendable,
  toolCallIds: {
    description: '1 to 64 letters, digits, _ and - (^[a-zA-Z0-9_-]{1,64}$)',
    accepts: (id: string) => isWordId(id, 64),
    mint: (seed: IdSeed) => `tooluse_${digestChars(seed.digest, 24)}`,
  },
  stopReasons: STOP_REASON_TABLE['bedrock-converse'],
} as const satisfies FormatDriver<'bedrock-converse', BedrockConverseRule>;
