/**
 * The shape of a format's repair: the check's outcome, and when it rejected, the repaired
 * messages with one record per change. Internal.
 *
 * @module
 */
import type { CheckContext, CheckOutcome } from './context.ts';
import type { TranscriptRepair } from './repair.ts';

/** What a format repairer receives: the check's context, and the tools a synthesized result may call read-only. */
export interface RepairContext extends CheckContext {
  /** Tool names whose calls change nothing (see `synthesizedText`). */
  readonly readOnlyTools: ReadonlySet<string>;
}

/** What a format repairer returns. */
export interface FormatRepair {
  readonly outcome: CheckOutcome;
  readonly repaired?: { readonly messages: unknown[]; readonly repairs: TranscriptRepair[] };
}

/**
 * A format repairer: the messages, the context, and the outcome of the check that just read
 * these messages (its `analysis` is what the format's reader collected), so repair does not read
 * the transcript again.
 */
export type FormatRepairer = (
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome,
) => FormatRepair;

/**
 * A format's analysis of the messages: the one the check that just read them left in
 * `checked.analysis`, or (repair called on its own) a fresh one from `analyze`.
 */
export function analysisOf<A extends { readonly outcome: CheckOutcome }>(
  checked: CheckOutcome | undefined,
  analyze: () => A,
): A {
  return (checked?.analysis as A | undefined) ?? analyze();
}
