/**
 * The rule ids: `TRANSCRIPT_RULES` (joined in `formats.ts` from each format's
 * `<format>/rules.ts`), the `TranscriptRule` type they make, and the failure type users read.
 * Each format's folder types its own rule ids (`AnthropicRule`); this file and `formats.ts` are the
 * only ones that join them, and nothing in `core/` or a format folder imports them.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { RuleFailure } from './core/report.ts';
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

/**
 * The rule ids of format `F`, e.g. `RuleOf<'gemini'>` is `'gemini.function_call_unanswered' | ...`.
 *
 * @example
 * ```ts
 * import type { RuleOf } from 'turngate/types';
 * const rule: RuleOf<'openai-chat'> = 'openai-chat.tool_message_not_adjacent';
 * ```
 */
export type RuleOf<F extends TranscriptFormat> = Extract<TranscriptRule, `${F}.${string}`>;

/**
 * One broken provider rule at one position of the transcript: its failure class, the rule id
 * (one of format `F`'s), the tool call ids involved (sorted), the path into the input (`at`), the
 * index of its message (`messageIndex`, `-1` for calls carried in by `openToolCalls`), what is
 * wrong (`detail`) and what to change (`fix`).
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * const report = checkTranscript(
 *   [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} }] }],
 *   { format: 'anthropic' },
 * );
 * report.failures[0]?.rule; //=> 'anthropic.tool_use_unanswered'
 * report.failures[0]?.at; //=> 'messages[0]'
 * ```
 */
export interface TranscriptFailure<F extends TranscriptFormat = TranscriptFormat> extends RuleFailure<RuleOf<F>> {}
