/**
 * The driver record of a wire format: everything the transcripts layer knows of one format,
 * behind one record in the format's folder (`<format>/driver.ts`), registered in one place
 * (`formats.ts`). Internal.
 *
 * @module
 */
import type { STOP_REASON_TABLE, TranscriptFormat } from '../../check/index.ts';
import type { CheckContext, CheckOutcome } from './context.ts';
import type { ConversionLoss } from './convert.ts';
import type { OpenAIChatDialect } from './dialects.ts';
import type { ToolCallIdGrammar } from './ids.ts';
import type { RuleTable } from './report.ts';
import type { FormatRepairer } from './repairer.ts';
import type { Turns } from './turns.ts';

/** A conversion step: messages of one format to another's, with what could not cross. */
export type Converter = (messages: readonly unknown[]) => { messages: unknown[]; losses: ConversionLoss[] };

/** One format's driver. */
export interface FormatDriver<F extends TranscriptFormat> {
  readonly format: F;
  /** The request body's field holding the transcript, also the root of paths: `messages`, `input`, `contents`. */
  readonly field: string;
  /** The format's rules, by rule id (`<format>/rules.ts`). */
  readonly rules: RuleTable;
  /** The wire reader and the rules: the check over messages already known to be an array. */
  readonly check: (messages: readonly unknown[], context: CheckContext, carried: readonly unknown[]) => CheckOutcome;
  /** The repair steps, on the check's own analysis. */
  readonly repair: FormatRepairer;
  /** Conversion to turngate's `ChatMessage`. */
  readonly toChat: Converter;
  /** Conversion from `ChatMessage`. */
  readonly fromChat: Converter;
  /** The evidence reader: the client calls of each model message with their results. */
  readonly turns: (messages: readonly unknown[]) => Turns;
  /** The tool call ids the format takes, and how a conversion mints one (`core/ids.ts`). */
  readonly toolCallIds: ToolCallIdGrammar;
  /**
   * `openai-chat` only: the tool call id grammar of a provider dialect (Kimi's
   * `functions.<name>:<index>`); `toolCallIds` for a dialect with none of its own.
   */
  readonly toolCallIdsFor?: (dialect: OpenAIChatDialect | undefined) => ToolCallIdGrammar;
  /** The format's stop reasons (the join check's table, `STOP_REASON_TABLE`, which the typestate layer reads below this one). */
  readonly stopReasons: (typeof STOP_REASON_TABLE)[F];
}
