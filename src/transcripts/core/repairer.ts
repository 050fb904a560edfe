/**
 * The shape of a format's repair: the check's outcome, and when it rejected, the repaired
 * messages with one record per change. Internal.
 *
 * @module
 */
import type { CheckContext, CheckOutcome } from './context.ts';
import type { TranscriptRepair } from './repair.ts';
import type { RuleId } from './rule-info.ts';

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
 * the transcript again (`R`: the format's rule ids, those of its check's outcome).
 */
export type FormatRepairer<R extends RuleId = RuleId> = (
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<R>,
) => FormatRepair;

/**
 * A format's analysis of the messages: what the format's check, which just read them, left in
 * `checked.analysis` (`A` is that check's analysis type). Repair runs only on a check's outcome,
 * so it never reads the messages again.
 *
 * @throws Error when the format's check left no analysis (a programming error in its driver).
 */
export function analysisOf<A>(checked: CheckOutcome): A {
  if (checked.analysis === undefined) throw new Error("the format's check left no analysis for its repair");
  return checked.analysis as A;
}
