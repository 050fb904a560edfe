/**
 * `repairTranscript`: a transcript the check rejects, changed into one it accepts, with one
 * record per change.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import { checkInput, contextOf, type Expectation } from './check.ts';
import { type TranscriptInputError, unreadableInput } from './core/report.ts';
import type { TranscriptFailure, TranscriptRule } from './rules.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { CheckOutcome, CheckSettings } from './core/context.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { FormatRepair, FormatRepairer } from './core/repairer.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';
import type { TurnMisuse } from '../typestate/index.ts';
import type { AnyTranscriptInput, OptionMessage, InputMessage, TranscriptArgument } from './misuse.ts';
import type { SendableTranscript } from './sendable.ts';
import type { Result } from '../failures/index.ts';
import { own } from '../internal/own-field.ts';

/**
 * Options of `repairTranscript`.
 *
 * @example
 * ```ts
 * import type { RepairTranscriptOptions } from 'turngate/transcripts';
 * const options: RepairTranscriptOptions<'anthropic'> = { format: 'anthropic', expect: 'received', readOnlyTools: ['get_weather'] };
 * ```
 */
export interface RepairTranscriptOptions<F extends TranscriptFormat> {
  /** The wire format. */
  readonly format: F;
  /** As `checkTranscript`: under `received`, the open calls of the last message are left open. Default `sendable`. */
  readonly expect?: Expectation;
  /**
   * Names of tools whose calls change nothing (reads, searches). A synthesized result for a
   * call of one says to treat the call as not run: it can be retried. For every other tool it
   * says the outcome is unknown: check before retrying (the call may have run). Default none.
   */
  readonly readOnlyTools?: readonly string[];
  /** As `checkTranscript`: the model, for model-specific rules (default: the body's `model`). */
  readonly model?: string;
  /** As `checkTranscript`: `openai-chat` only, the provider dialect whose own rules run too. */
  readonly dialect?: F extends 'openai-chat' ? OpenAIChatDialect : TurnMisuse<OptionMessage<'dialect', 'openai-chat'>>;
}

/**
 * A repaired transcript: the messages the check accepts, every change made, the failures no
 * repair can fix (the rules marked `repairable: false`, such as a missing thinking block: thinking
 * blocks are signed), and for a sendable result the `SendableTranscript`.
 */
export interface RepairedTranscript<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> {
  /** Whether anything changed; when not, `messages` is the input's own array. */
  readonly changed: boolean;
  /** The repaired messages (items, contents). */
  readonly messages: readonly M[];
  /** One record per change, in the order made (a second pass, when one was needed, gives positions in the messages as the first left them). */
  readonly repairs: readonly TranscriptRepair[];
  /** Failures the repair cannot fix (rules with `repairable: false` in `TRANSCRIPT_RULES`); empty otherwise. */
  readonly remaining: readonly TranscriptFailure<F>[];
  /** The checked transcript, when the result is accepted under `sendable`. */
  readonly transcript: SendableTranscript<F, M> | undefined;
}

/**
 * The `Result` of `repairTranscript`: the {@link RepairedTranscript} as `value`, or `failures`
 * holding one input error for input that is not a transcript of the format.
 *
 * @example
 * ```ts
 * import { repairTranscript } from 'turngate/transcripts';
 * const history = [{ role: 'user' as const, content: 'Hello' }];
 * const repaired = repairTranscript(history, { format: 'anthropic' });
 * if (repaired.ok) repaired.value.messages === history; //=> true (already accepted: unchanged, same reference)
 * ```
 */
export type RepairResult<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> = Result<
  RepairedTranscript<F, M>,
  TranscriptInputError
>;

/** Runs repair on any value. Internal. */
export function runRepair(
  input: unknown,
  settings: CheckSettings & { readonly readOnlyTools?: readonly string[] },
): RepairResult<TranscriptFormat> {
  const { format, readOnlyTools = [] } = settings;
  if (!Array.isArray(readOnlyTools) || !readOnlyTools.every((name) => typeof name === 'string')) {
    throw new TypeError('options.readOnlyTools must be an array of tool names (strings)');
  }
  const readOnly: ReadonlySet<string> = new Set(readOnlyTools);
  const checked = checkInput(input, settings);
  const first = checked.report;
  if (first.result === 'invalid') return { ok: false, failures: [first.error] };
  // Repair reads what the check read: the input's own messages, or their own-data copy while
  // Object.prototype is polluted (a planted field never reaches a repair either).
  const { messages, body } = checked;
  if (first.result === 'accepted') {
    // The check accepted these values, so they are messages of the format.
    const same = messages as readonly TranscriptMessage<TranscriptFormat>[];
    return {
      ok: true,
      value: { changed: false, messages: same, repairs: [], remaining: [], transcript: first.transcript },
    };
  }
  // One repair can expose a failure it did not see (a malformed result removed leaves its call
  // unanswered): repair again until a pass changes nothing, so the output passes the check and
  // a second repair is a no-op. Each pass fixes at least one failure, so this ends; the bound is
  // a guard.
  const records: TranscriptRepair[] = [];
  let output: readonly unknown[] = messages;
  let again = checked;
  // Each driver's repair takes the outcome of its own format's check, which is what `again` holds
  // (the same `format`): the drivers' union is read here as one repairer over the layer's rule ids.
  const repairFormat = FORMAT_DRIVERS[format].repair as FormatRepairer<TranscriptRule>;
  for (let pass = 0; pass < MAX_REPAIR_PASSES && again.report.result === 'rejected'; pass++) {
    let repaired: FormatRepair['repaired'];
    try {
      // The check just read `output`: repair works on its outcome and analysis, without reading again.
      repaired = repairFormat(
        output,
        { ...contextOf(body, settings), readOnlyTools: readOnly },
        again.outcome as CheckOutcome<TranscriptRule>,
      ).repaired;
    } catch (error) {
      return { ok: false, failures: [unreadableInput(FORMAT_DRIVERS[format].field, error)] };
    }
    if (repaired === undefined || repaired.repairs.length === 0) break;
    records.push(...repaired.repairs);
    output = repaired.messages;
    again = checkInput(body === undefined ? output : { ...body, [FORMAT_DRIVERS[format].field]: output }, settings);
  }
  const last = again.report;
  return {
    ok: true,
    value: {
      changed: records.length > 0,
      messages: output as TranscriptMessage<TranscriptFormat>[],
      repairs: records,
      remaining: last.result === 'rejected' ? last.failures : [],
      transcript: last.result === 'accepted' ? last.transcript : undefined,
    },
  };
}

/** The settings of `options`, read from its own fields (a polluted `Object.prototype` supplies none). */
function repairSettings(options: RepairTranscriptOptions<TranscriptFormat>) {
  return {
    format: options.format,
    expect: own(options, 'expect') ?? 'sendable',
    model: own(options, 'model'),
    // The option type refuses a misuse object; the check refuses a wrong value at run time.
    dialect: own(options, 'dialect') as OpenAIChatDialect | undefined,
    readOnlyTools: own(options, 'readOnlyTools') ?? [],
  };
}

/** How many repair passes run at most (each fixes at least one failure; real transcripts need one or two). */
const MAX_REPAIR_PASSES = 8;

/**
 * Repairs a transcript so that `checkTranscript` accepts it: a synthesized error result for
 * each call nobody answered (its text starts `[turngate:synthesized]`, see
 * `SYNTHESIZED_RESULT_MARK`; Anthropic also sets `is_error`) saying no result was recorded and
 * the outcome is unknown, so check before retrying (for a tool in `readOnlyTools`: treat the
 * call as not run, it can be retried), orphan results removed, misplaced
 * results moved to where the provider needs them, repeated results collapsed, repeated call ids
 * renamed, and the format's other rules fixed (see each rule in `TRANSCRIPT_RULES`). Every
 * change is one `TranscriptRepair` with its rule, ids and position; a removal carries the
 * removed value.
 *
 * Properties (tested): the result passes `checkTranscript` (except the rules marked
 * `repairable: false`, reported in `remaining`); repair is idempotent; an accepted transcript
 * comes back unchanged (the same array). Repair reads what the check reads: own data only, so a polluted
 * `Object.prototype` changes nothing it decides (the messages it returns are then the own-data
 * copies the check read).
 *
 * @param messages - The messages (items, contents), or a request body holding them.
 * @param options - `format`, `expect` (`sendable` by default), and `readOnlyTools` (none by default).
 * @returns The repaired messages and the repair records, or the input error (also for a history of another format).
 * @throws TypeError for `readOnlyTools` that is not an array of strings (a programming error, as a `format` outside its union).
 * @example
 * ```ts
 * import { repairTranscript } from 'turngate/transcripts';
 * const history = [
 *   { role: 'user' as const, content: 'Email Ana the forecast for Oslo.' },
 *   {
 *     role: 'assistant' as const,
 *     content: [
 *       { type: 'tool_use' as const, id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } },
 *       { type: 'tool_use' as const, id: 'toolu_02', name: 'send_email', input: { to: 'ana' } },
 *     ],
 *   },
 * ];
 * const repaired = repairTranscript(history, { format: 'anthropic', readOnlyTools: ['get_weather'] });
 * if (repaired.ok) repaired.value.repairs.map((r) => `${r.action} ${r.ids.join(',')}`); //=> ['synthesized_result toolu_01', 'synthesized_result toolu_02', 'inserted_message toolu_01,toolu_02']
 * if (repaired.ok) repaired.value.messages[2]?.content; //=> [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '[turngate:synthesized] No result was recorded for this call; get_weather is read-only, so treat the call as not run: it can be retried.', is_error: true }, { type: 'tool_result', tool_use_id: 'toolu_02', content: '[turngate:synthesized] No result was recorded for this call; its outcome is unknown: check before retrying.', is_error: true }]
 * ```
 */
export function repairTranscript<const F extends TranscriptFormat, I extends AnyTranscriptInput<F>>(
  messages: TranscriptArgument<F, I, 'repairTranscriptJson'>,
  options: RepairTranscriptOptions<F>,
): RepairResult<F, InputMessage<F, I>> {
  return runRepair(messages, repairSettings(options)) as RepairResult<F, InputMessage<F, I>>;
}

/**
 * `repairTranscript` for a value of unknown shape (parsed JSON).
 *
 * @param value - Any value: an array of messages, or a request body.
 * @param options - As `repairTranscript`.
 * @returns As `repairTranscript`.
 * @example
 * ```ts
 * import { repairTranscriptJson } from 'turngate/transcripts';
 * repairTranscriptJson('not a transcript', { format: 'gemini' }).ok; //=> false
 * ```
 */
export function repairTranscriptJson<const F extends TranscriptFormat>(
  value: unknown,
  options: RepairTranscriptOptions<F>,
): RepairResult<F> {
  return runRepair(value, repairSettings(options)) as RepairResult<F>;
}
