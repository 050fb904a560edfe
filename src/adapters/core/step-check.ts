/**
 * The tool loop's transcript checks of a step: the history with the reply (and a placeholder
 * result per call) before any handler runs, and the history with the step's messages after.
 * Each extends the history the loop's last step ended with when the new history starts with it
 * (`extendTranscript`), so a step's checks cost its new messages. Internal.
 *
 * @module
 */
import {
  checkTranscriptJson,
  extendTranscript,
  type TranscriptFailure,
  type TranscriptFormat,
  type TranscriptReport,
} from '../../transcripts/index.ts';
import { checkExtendable } from '../../transcripts/internal.ts';
import type { CheckedHistory, LoopContext } from './loop-types.ts';

/** How far back from a history's end the check looks for a history a step ended with (the messages a caller adds between steps: a user message, a few). */
const ANCHOR_REACH = 8;

/**
 * The history a step of this loop ended with that `history` starts with: the same message
 * objects, in order (the caller appended to it). `undefined` when there is none.
 */
function anchorOf(ctx: LoopContext, history: readonly unknown[]): CheckedHistory | undefined {
  for (let end = history.length; end > 0 && end > history.length - ANCHOR_REACH; end--) {
    const last = history[end - 1];
    if (typeof last !== 'object' || last === null) continue;
    const anchor = ctx.histories.get(last);
    if (anchor === undefined || anchor.messages.length !== end) continue;
    let same = true;
    for (let i = 0; i < end && same; i++) same = history[i] === anchor.messages[i];
    if (same) return anchor;
  }
  return undefined;
}

/**
 * The transcript check of `history` followed by `added`, as the provider would read them: the
 * extension of the history a step ended with when `history` starts with it (the check of the
 * new messages only, same report), else the whole. `keep`: remember an accepted history for the
 * next step. A message object of a checked history changed in place afterwards is not read
 * again (the loop hands back the messages it checked; a caller appends to its history).
 */
export function checkStep(ctx: LoopContext, history: readonly unknown[], added: readonly unknown[], keep: boolean) {
  const { codec } = ctx;
  const { format } = codec;
  if (codec.checked !== undefined) return checkTranscriptJson(codec.checked([...history, ...added]), { format });
  const anchor = anchorOf(ctx, history);
  const report =
    anchor === undefined
      ? keep
        ? checkExtendable([...history, ...added], format)
        : checkTranscriptJson([...history, ...added], { format })
      : // biome-ignore lint/plugin: the codec's messages are its SDK's own, which the format's transcript schemas accept (type-tested in the transcripts layer)
        extendTranscript(anchor.transcript, [...history.slice(anchor.messages.length), ...added] as never);
  const last = added.length > 0 ? added[added.length - 1] : history[history.length - 1];
  if (keep && report.result === 'accepted' && typeof last === 'object' && last !== null) {
    // The history extended is the new one's start: only the newest is kept (each holds its list).
    const extended = anchor?.messages[anchor.messages.length - 1];
    if (typeof extended === 'object' && extended !== null) ctx.histories.delete(extended);
    ctx.histories.set(last, { messages: [...history, ...added], transcript: report.transcript });
  }
  return report;
}

/** A check's failures, or `undefined` when it accepted. */
export function refusal(report: TranscriptReport<TranscriptFormat>): TranscriptFailure[] | undefined {
  if (report.result === 'accepted') return undefined;
  return report.result === 'rejected' ? [...report.failures] : [];
}

/** A refused check's failures as text. */
export function refusalText(report: TranscriptReport<TranscriptFormat>): string {
  if (report.result === 'rejected') return report.failures.map((f) => `${f.at} ${f.rule}`).join('; ');
  return report.result === 'invalid' ? report.error.message : '';
}
