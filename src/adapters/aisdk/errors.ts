/**
 * `TranscriptRejectedError`: what `transcriptGuard` throws, before the model is called, for a
 * prompt the `aisdk` transcript check rejects.
 *
 * @module
 */
import type { TranscriptFailure } from '../../transcripts/index.ts';

/** How many failures the error message lists (all of them are in `failures`). */
const LISTED = 3;

/**
 * Thrown by `transcriptGuard` (from `generateText`, `streamText`, an agent, or any call of the
 * wrapped model) when the prompt breaks a rule of the `aisdk` format (`TRANSCRIPT_RULES`) and
 * `onReject` is `'throw'`, or when `'repair'` cannot produce a prompt the check accepts. The
 * model is not called. `generateText` rejects with it; `streamText` reports it as the stream's
 * `error` part (and to `onError`).
 *
 * Each failure has `class` (`tool.result_missing`, `tool.result_orphan`,
 * `protocol.parallel_transport_order_invalid`), `rule` (`aisdk.tool_call_unanswered`, ...),
 * `ids` (the tool call ids), `at` (a path into the prompt the model gets, e.g.
 * `messages[2].content[0]`: the SDK's prompt puts `instructions` first as system messages and
 * merges consecutive tool messages, so it may differ from your `messages`), `messageIndex`,
 * `detail` and `fix`.
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * import { TranscriptRejectedError } from 'turngate/adapters/aisdk';
 * const report = checkTranscript(
 *   [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_9', toolName: 'getWeather', output: { type: 'text', value: 'Snow' } }] }],
 *   { format: 'aisdk' },
 * );
 * const error = new TranscriptRejectedError('generate', report.failures);
 * error.failures.map((f) => `${f.class} ${f.rule} ${f.at}`); //=> ['tool.result_orphan aisdk.tool_result_orphan messages[0].content[0]']
 * error.callType; //=> 'generate'
 * ```
 */
export class TranscriptRejectedError extends Error {
  /** Every failure of the prompt, in prompt order. */
  readonly failures: readonly TranscriptFailure<'aisdk'>[];
  /** The model call refused: `generate` (`doGenerate`) or `stream` (`doStream`). */
  readonly callType: 'generate' | 'stream';

  /**
   * Creates the error.
   *
   * @param callType - `generate` or `stream`.
   * @param failures - The failures of the check (at least one).
   */
  constructor(callType: 'generate' | 'stream', failures: readonly TranscriptFailure<'aisdk'>[]) {
    const listed = failures
      .slice(0, LISTED)
      .map((f) => `${f.rule} [${f.ids.join(', ')}] at ${f.at}`)
      .join('; ');
    const more = failures.length > LISTED ? `; and ${failures.length - LISTED} more` : '';
    super(
      `turngate refused the AI SDK prompt before the model call (${callType}): ${failures.length} transcript rule failure${failures.length === 1 ? '' : 's'}: ${listed}${more}`,
    );
    this.name = 'TranscriptRejectedError';
    this.callType = callType;
    this.failures = Object.freeze([...failures]);
  }
}
