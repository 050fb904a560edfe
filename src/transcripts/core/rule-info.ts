/**
 * The shape of a rule's metadata, and the failure classes the rules use. Each format's rules
 * live in its folder (`<format>/rules.ts`); `TRANSCRIPT_RULES` joins them. Internal, except
 * the `TranscriptRuleInfo` type (exported from the layer).
 *
 * @module
 */
import type { TranscriptFormat } from '../../check/index.ts';
import type { FailureClass } from '../../failures/index.ts';
import type { OpenAIChatDialect } from './dialects.ts';

/**
 * A rule id's shape, `<format>.<rule_name>`: what `core/` takes. Each format folder types its own
 * ids (`AnthropicRule`, the keys of its `<format>/rules.ts`) and `core/`'s sinks and tables are
 * generic in them; the registry (`formats.ts`, `rules.ts`) alone joins them into `TranscriptRule`.
 */
export type RuleId = `${TranscriptFormat}.${string}`;

/** A call without its result. */
export const MISSING: FailureClass = 'tool.result_missing';
/** A result without its call. */
export const ORPHAN: FailureClass = 'tool.result_orphan';
/** A result (or call) in the wrong place or order. */
export const ORDER: FailureClass = 'protocol.parallel_transport_order_invalid';
/** A malformed, repeated or refused shape. */
export const SCHEMA: FailureClass = 'tool.schema_invalid';

/**
 * One rule: its failure class, what breaks it (`summary`), how to fix it (`fix`), its source
 * (a provider doc page, or a public bug report for `observed` rules) and `kind`.
 *
 * @example
 * ```ts
 * import { TRANSCRIPT_RULES, type TranscriptRuleInfo } from 'turngate/transcripts';
 * const info: TranscriptRuleInfo = TRANSCRIPT_RULES['openai-chat.tool_call_unanswered'];
 * info.class; //=> 'tool.result_missing'
 * ```
 */
export interface TranscriptRuleInfo {
  /** The failure class (`FAILURE_CLASSES`). */
  readonly class: FailureClass;
  /** What breaks the rule, in a few words. */
  readonly summary: string;
  /** One sentence telling the user what to change. */
  readonly fix: string;
  /** The provider doc page (and section) or public bug report the rule rests on. */
  readonly source: string;
  /** `doc` when a documentation page states it, `observed` when it rests on provider behaviour. */
  readonly kind: 'doc' | 'observed';
  /**
   * The provider's own error text for this rule, as documented or reported (ids replaced by
   * `…`), so a user can match a 400 to its rule; absent when no text is known.
   */
  readonly providerError?: string;
  /**
   * Whether `repairTranscript` fixes the rule. `false` for a rule no safe repair exists for (a
   * thinking block is signed and cannot be rebuilt): repair reports it in `remaining`.
   */
  readonly repairable: boolean;
  /**
   * For a rule that holds only for some models: which (e.g. `Gemini 3 models (gemini-3-*)`).
   * The check applies it when the model (`options.model` or the body's `model`) is one of them.
   */
  readonly models?: string;
  /**
   * For an `openai-chat` rule of a provider dialect: the dialects it holds for (`['deepseek']`).
   * The check applies it only when `options.dialect` is one of them.
   */
  readonly dialects?: readonly OpenAIChatDialect[];
}
