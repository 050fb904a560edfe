/**
 * The registry of wire formats: one driver per format (`<format>/driver.ts`), its rules and its
 * message type. Adding a format is its folder and its lines here (its name and stop reasons
 * sit in the join check's `STOP_REASON_TABLE`, below this layer, and the markers of its
 * structure in `core/markers.ts`, which compares the formats with one another).
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import { AISDK_DRIVER } from './aisdk/driver.ts';
import { BEDROCK_CONVERSE_DRIVER } from './bedrock-converse/driver.ts';
import { BEDROCK_CONVERSE_RULES } from './bedrock-converse/rules.ts';
import type { BedrockMessage } from './bedrock-converse/wire.ts';
import { AISDK_RULES } from './aisdk/rules.ts';
import type { AISDKMessage } from './aisdk/wire.ts';
import { ANTHROPIC_DRIVER } from './anthropic/driver.ts';
import { ANTHROPIC_RULES } from './anthropic/rules.ts';
import type { AnthropicMessage } from './anthropic/wire.ts';
import type { ChatMessage } from './chat/message.ts';
import { CHAT_DRIVER } from './chat/driver.ts';
import { CHAT_RULES } from './chat/rules.ts';
import type { FormatDriver } from './core/driver.ts';
import { GEMINI_DRIVER } from './gemini/driver.ts';
import { LANGCHAIN_DRIVER } from './langchain/driver.ts';
import { LANGCHAIN_RULES } from './langchain/rules.ts';
import type { LangChainMessage } from './langchain/wire.ts';
import { GEMINI_RULES } from './gemini/rules.ts';
import type { GeminiContent } from './gemini/wire.ts';
import { MISTRAL_DRIVER } from './mistral/driver.ts';
import { MISTRAL_RULES } from './mistral/rules.ts';
import type { MistralMessage } from './mistral/wire.ts';
import { OPENAI_CHAT_DRIVER } from './openai-chat/driver.ts';
import { OPENAI_CHAT_RULES } from './openai-chat/rules.ts';
import type { OpenAIChatMessage } from './openai-chat/wire.ts';
import { OPENAI_RESPONSES_DRIVER } from './openai-responses/driver.ts';
import { OPENAI_RESPONSES_RULES } from './openai-responses/rules.ts';
import type { ResponsesInputItem } from './openai-responses/wire.ts';

/**
 * Every format's driver, by format. Internal. Each driver holds its full shape in its own file
 * (`satisfies FormatDriver<F, its rule ids>`); here, that each format's key holds its own driver.
 */
export const FORMAT_DRIVERS = {
  anthropic: ANTHROPIC_DRIVER,
  'openai-chat': OPENAI_CHAT_DRIVER,
  'openai-responses': OPENAI_RESPONSES_DRIVER,
  aisdk: AISDK_DRIVER,
  gemini: GEMINI_DRIVER,
  'bedrock-converse': BEDROCK_CONVERSE_DRIVER,
  chat: CHAT_DRIVER,
  langchain: LANGCHAIN_DRIVER,
  mistral: MISTRAL_DRIVER,
} as const satisfies { readonly [F in TranscriptFormat]: Pick<FormatDriver<F>, 'format'> };

/**
 * Every rule the transcript check enforces, by rule id (`<format>.<rule_name>`): its failure
 * class, what breaks it, the fix, the source, the provider's error text and whether repair
 * fixes it. Each format's rules live in its folder (`<format>/rules.ts`), which its driver holds
 * too (the rule ids' type is read from here, not from the drivers, whose checks emit them).
 *
 * `kind: 'observed'` marks a rule that rests on the provider's behaviour (its 400 error texts in
 * public bug reports) rather than on a documentation page. `conformance/transcripts/RULES.md`
 * states each rule in full.
 *
 * @example
 * ```ts
 * import { TRANSCRIPT_RULES } from 'turngate/transcripts';
 * TRANSCRIPT_RULES['anthropic.tool_result_not_first'].class; //=> 'protocol.parallel_transport_order_invalid'
 * ```
 */
export const TRANSCRIPT_RULES = {
  ...ANTHROPIC_RULES,
  ...OPENAI_CHAT_RULES,
  ...OPENAI_RESPONSES_RULES,
  ...AISDK_RULES,
  ...GEMINI_RULES,
  ...BEDROCK_CONVERSE_RULES,
  ...CHAT_RULES,
  ...LANGCHAIN_RULES,
  ...MISTRAL_RULES,
} as const;

/**
 * The message (item, content) type of each format.
 *
 * @example
 * ```ts
 * import type { TranscriptMessages } from 'turngate/transcripts';
 * const item: TranscriptMessages['openai-responses'] = { type: 'function_call_output', call_id: 'call_01', output: 'Snow' };
 * ```
 */
export interface TranscriptMessages {
  readonly anthropic: AnthropicMessage;
  readonly 'openai-chat': OpenAIChatMessage;
  readonly 'openai-responses': ResponsesInputItem;
  readonly aisdk: AISDKMessage;
  readonly gemini: GeminiContent;
  readonly 'bedrock-converse': BedrockMessage;
  readonly chat: ChatMessage;
  readonly langchain: LangChainMessage;
  readonly mistral: MistralMessage;
}
