/**
 * The driver record of a wire format: everything the transcripts layer knows of one format,
 * behind one record in the format's folder (`<format>/driver.ts`), registered in one place
 * (`formats.ts`). Internal.
 *
 * @module
 */
import type { STOP_REASON_TABLE, TranscriptFormat } from '../../check/index.ts';
import type { CallSite } from './calls.ts';
import type { CheckContext, CheckOutcome } from './context.ts';
import type { ConversionLoss } from './convert.ts';
import type { OpenAIChatDialect } from './dialects.ts';
import type { ToolCallIdGrammar } from './ids.ts';
import type { RuleTable } from './report.ts';
import type { RuleId } from './rule-info.ts';
import type { FormatRepairer } from './repairer.ts';
import type { Turns } from './turns.ts';

/** A conversion step: messages of one format to another's, with what could not cross. */
export type Converter = (messages: readonly unknown[]) => { messages: unknown[]; losses: ConversionLoss[] };

/** A call as a check read it: its pairing key and its message's index. */
export type ExtendedCall = Pick<CallSite, 'key' | 'message'>;

/**
 * What a check carries for its extension (`FormatDriver.extendable`): the keys a tail may not
 * repeat (call ids, and for some formats the item ids or result keys the rules pair across the
 * whole history), each with its message index, and the format's boundary state after the
 * messages checked (what its rules read across the boundary: `undefined` for formats with none).
 */
export interface Extension {
  readonly calls: readonly ExtendedCall[];
  readonly state?: unknown;
  /**
   * Messages standing for the history's end (a message of its last role, for rules that read a
   * message's predecessor): the next tail's check reads them before the tail, and the tail is
   * accepted only when that check has no failure. The indexes of the next extension's `calls`
   * count them. Absent: none.
   */
  readonly lead?: readonly unknown[];
}

/** One format's driver (`R`: its rule ids, the keys of its `<format>/rules.ts`). */
export interface FormatDriver<F extends TranscriptFormat, R extends RuleId = RuleId> {
  readonly format: F;
  /** The request body's field holding the transcript, also the root of paths: `messages`, `input`, `contents`. */
  readonly field: string;
  /** The format's rules, by rule id (`<format>/rules.ts`). */
  readonly rules: RuleTable<R>;
  /** The wire reader and the rules: the check over messages already known to be an array. */
  readonly check: (messages: readonly unknown[], context: CheckContext, carried: readonly unknown[]) => CheckOutcome<R>;
  /** The repair steps, on the check's own analysis. */
  readonly repair: FormatRepairer<R>;
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
  /**
   * Whether a checked history of this format can be extended by its tail alone (see
   * `extend.ts`), and how: the keys the check's `analysis` read (pairing keys and message
   * indexes), for the ids a tail may not repeat, and the boundary state after it. `before` is
   * the state the history's check left (`undefined` for a check from the first message): for a
   * tail, the driver answers whether the tail's own accepted check decides the whole history
   * given that state. `undefined` when it does not (a rule that reads across the boundary, such
   * as a dialect's): the whole history is checked. Absent: never.
   */
  readonly extendable?: (analysis: unknown, context: CheckContext, before: unknown) => Extension | undefined;
  /** The format's stop reasons (the join check's table, `STOP_REASON_TABLE`, which the typestate layer reads below this one). */
  readonly stopReasons: (typeof STOP_REASON_TABLE)[F];
}
