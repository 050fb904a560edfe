/**
 * The rule ids: `TRANSCRIPT_RULES` (joined in `formats.ts` from each format's
 * `<format>/rules.ts`) and the `TranscriptRule` type the checkers emit.
 *
 * @module
 */
import type { TRANSCRIPT_RULES } from './formats.ts';

export type { TranscriptRuleInfo } from './core/rule-info.ts';
export { TRANSCRIPT_RULES } from './formats.ts';

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
