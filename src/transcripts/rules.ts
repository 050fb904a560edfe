/**
 * The provider rules the transcript check enforces: one entry per rule id, with its failure
 * class, what breaks it, the one-sentence fix, and its source. Each format's rules live in its folder
 * (`<format>/rules.ts`); this joins them. The checkers emit rule ids, the report reads class and
 * fix from the format's table.
 *
 * `kind: 'observed'` marks a rule that rests on the provider's behaviour (its 400 error texts in
 * public bug reports) rather than on a documentation page. `conformance/transcripts/RULES.md`
 * states each rule in full, with the provider's error text.
 *
 * @module
 */
import { AISDK_RULES } from './aisdk/rules.ts';
import { ANTHROPIC_RULES } from './anthropic/rules.ts';
import { CHAT_RULES } from './chat/rules.ts';
import { GEMINI_RULES } from './gemini/rules.ts';
import { OPENAI_CHAT_RULES } from './openai-chat/rules.ts';
import { OPENAI_RESPONSES_RULES } from './openai-responses/rules.ts';

export type { TranscriptRuleInfo } from './core/rule-info.ts';

/**
 * Every rule the transcript check enforces, by rule id (`<format>.<rule_name>`).
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
  ...CHAT_RULES,
} as const;

/**
 * A rule id, e.g. `anthropic.tool_result_not_first`.
 *
 * @example
 * ```ts
 * import type { TranscriptRule } from 'turngate/transcripts';
 * const rule: TranscriptRule = 'gemini.function_call_unanswered';
 * ```
 */
export type TranscriptRule = keyof typeof TRANSCRIPT_RULES;
