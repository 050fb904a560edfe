/**
 * `cutPoints` and `trimTranscript`: where a long history may be cut (or its older part replaced
 * by a summary) so that what is left still passes every rule of its format, and the cut itself.
 *
 * A cut keeps the history's leading system messages (the formats that hold them in the list) and
 * drops the messages between them and a cut point. A cut point is the index of a message that
 * opens a user turn (a user message that is no tool result, as the format's own conversion reads
 * it), where the history from there on, after the system messages, passes the check. Cutting at a
 * user turn never falls between a call and its result, never separates a thinking block from the
 * tool-use loop it opened (the loop belongs to the assistant turn after the user turn), and
 * leaves the user's message first, which every format takes; the check then decides everything
 * else (an id repeated across the cut, a dialect's own rule), so a cut point is never a second
 * copy of a format's rules.
 *
 * Sources: the trimming failures of agents (compaction that duplicated orphaned `tool_use`
 * blocks, openclaw#93320; a session window refusing a compaction that would replace history it
 * omitted, `@openai/agents-openai` 0.23.1; repair dropping legitimate results when ids repeat
 * across turns, openclaw#109443) and each format's rules (`conformance/transcripts/RULES.md`).
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Result } from '../failures/index.ts';
import { own } from '../internal/own-field.ts';
import type { TurnMisuse } from '../typestate/index.ts';
import type { ChatMessage } from './chat-message.ts';
import { checkInput, type Expectation } from './check.ts';
import type { CheckSettings } from './core/context.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { TranscriptFailure, TranscriptInputError } from './core/report.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';
import type { AnyTranscriptInput, InputMessage, OptionMessage, TranscriptArgument } from './misuse.ts';
import { runRepair } from './repair.ts';
import type { SendableTranscript } from './sendable.ts';

/**
 * Options of `cutPoints`.
 *
 * @example
 * ```ts
 * import type { CutPointsOptions } from 'turngate/transcripts';
 * const options: CutPointsOptions<'openai-chat'> = { format: 'openai-chat', dialect: 'groq' };
 * ```
 */
export interface CutPointsOptions<F extends TranscriptFormat> {
  /** The wire format. */
  readonly format: F;
  /** As `checkTranscript`: the model, for model-specific rules (default: the body's `model`). */
  readonly model?: string;
  /** As `checkTranscript`: `openai-chat` only, the provider dialect whose own rules run too. */
  readonly dialect?: F extends 'openai-chat' ? OpenAIChatDialect : TurnMisuse<OptionMessage<'dialect', 'openai-chat'>>;
}

/**
 * Options of `trimTranscript`.
 *
 * @example
 * ```ts
 * import type { TrimTranscriptOptions } from 'turngate/transcripts';
 * const options: TrimTranscriptOptions<'anthropic'> = { format: 'anthropic', keepLast: 20, summary: 'Earlier: the user asked for the weather in Oslo.' };
 * ```
 */
export interface TrimTranscriptOptions<F extends TranscriptFormat> extends CutPointsOptions<F> {
  /**
   * How many of the last messages to keep at least (a count of messages, items or contents;
   * the leading system messages, always kept, do not count). The cut is the nearest cut point
   * that keeps that many: the latest one at or before `length - keepLast`.
   */
  readonly keepLast: number;
  /**
   * A text that stands in place of the removed messages: a user message (the format's own, as
   * its conversion from `ChatMessage` writes it) right after the leading system messages. When
   * that breaks a rule of the format (two user messages in a row for Bedrock Converse), the
   * format's repair fixes it (it joins them) and the repairs are in `summary.repairs`.
   * Default: none; nothing stands in place of the removed messages.
   */
  readonly summary?: string;
}

/**
 * A message the cut removed: its index in the input and the message itself.
 *
 * @example
 * ```ts
 * import type { RemovedMessage } from 'turngate/transcripts';
 * const removed: RemovedMessage<{ role: 'user'; content: string }> = { index: 1, message: { role: 'user', content: 'Hi' } };
 * ```
 */
export interface RemovedMessage<M> {
  /** Its index in the input (`messages[index]`, `input[index]`, `contents[index]`). */
  readonly index: number;
  /** The message (item, content) as it was. */
  readonly message: M;
}

/**
 * A tool call the cut removed (with its result, which the cut removed too).
 *
 * @example
 * ```ts
 * import type { RemovedToolCall } from 'turngate/transcripts';
 * const call: RemovedToolCall = { id: 'toolu_01', name: 'get_weather', messageIndex: 2, answered: true };
 * ```
 */
export interface RemovedToolCall {
  /** The tool call id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The index of the message (item, content) that made the call, in the input. */
  readonly messageIndex: number;
  /** Whether its result was in the history (and was removed with it). */
  readonly answered: boolean;
}

/**
 * A trimmed history: what the check accepts, where it was cut and what went.
 */
export interface TrimmedTranscript<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> {
  /** The trimmed history: the leading system messages, the summary (when given), then the messages from `cut` on (the input's own objects). */
  readonly messages: readonly M[];
  /** The index in the input of the first message kept after the leading system messages (`removed` holds those before it). */
  readonly cut: number;
  /** How many leading system messages were kept before the cut. */
  readonly kept: number;
  /** The messages removed, in input order; empty when nothing needed cutting. */
  readonly removed: readonly RemovedMessage<M>[];
  /** The client tool calls of the removed messages, with whether their results were removed with them. */
  readonly removedToolCalls: readonly RemovedToolCall[];
  /** Where the summary stands in `messages`, and the repairs that made it fit (empty when it fit as it was). */
  readonly summary: { readonly index: number; readonly repairs: readonly TranscriptRepair[] } | undefined;
  /** The trimmed history, checked: what a guarded provider call takes. */
  readonly transcript: SendableTranscript<F, M>;
}

/**
 * Why `trimTranscript` cut nothing: `invalid` (the input is no transcript of the format: `error`),
 * `no_cut_point` (no cut point keeps `keepLast` messages and the whole history does not pass:
 * `failures` are the whole history's), `summary_refused` (the summary message breaks a rule the
 * format's repair cannot fix: `failures` are the summarized history's).
 *
 * @example
 * ```ts
 * import type { TrimRefusal } from 'turngate/transcripts';
 * const refusal: TrimRefusal = { reason: 'no_cut_point', detail: 'no cut point keeps the last 3 messages', failures: [] };
 * ```
 */
export interface TrimRefusal<F extends TranscriptFormat = TranscriptFormat> {
  readonly reason: 'invalid' | 'no_cut_point' | 'summary_refused';
  /** One sentence: what stopped the cut. */
  readonly detail: string;
  /** The failures of the history the cut would have given (empty for `invalid`). */
  readonly failures: readonly TranscriptFailure<F>[];
  /** For `invalid`: the input error (the field and what was expected). */
  readonly error?: TranscriptInputError;
}

/**
 * The `Result` of `trimTranscript`: the {@link TrimmedTranscript} as `value`, or `failures`
 * holding the one {@link TrimRefusal}.
 */
export type TrimResult<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> = Result<
  TrimmedTranscript<F, M>,
  TrimRefusal<F>
>;

/** What a message is to a cut: a system message, a message opening a user turn, or another. */
type Kind = 'system' | 'user' | 'other';

/** Reads the options: the check's settings, with the option errors the check gives (and keepLast's). */
function settingsOf(options: CutPointsOptions<TranscriptFormat>): CheckSettings {
  return {
    format: options.format,
    expect: 'sendable' satisfies Expectation,
    model: own(options, 'model'),
    dialect: own(options, 'dialect') as OpenAIChatDialect | undefined,
  };
}

/**
 * Each message's kind, as the format's own conversion to `ChatMessage` reads it alone: `system`
 * when it gives system messages only, `user` when it gives a user message and no tool message (a
 * user message holding tool results closes a tool loop, it opens no turn), else `other`.
 */
function kinds(messages: readonly unknown[], format: TranscriptFormat): Kind[] {
  const toChat = FORMAT_DRIVERS[format].toChat;
  return messages.map((message): Kind => {
    let chat: readonly ChatMessage[];
    try {
      chat = toChat([message]).messages as ChatMessage[];
    } catch {
      return 'other';
    }
    if (chat.length > 0 && chat.every((m) => m.role === 'system')) return 'system';
    const user = chat.some((m) => m.role === 'user');
    return user && !chat.some((m) => m.role === 'tool') ? 'user' : 'other';
  });
}

/** What the analysis of an input gives: its messages, body, head, the candidate cuts and the test of one. */
interface Analysis {
  readonly messages: readonly unknown[];
  readonly body: Record<string, unknown> | undefined;
  /** How many leading system messages stay in front of every cut. */
  readonly head: number;
  /** The messages after the head that open a user turn, ascending: the cuts worth checking. */
  readonly candidates: readonly number[];
  /** Whether the history cut at `k` (the head, then the messages from `k` on) passes the check. */
  readonly passes: (k: number) => boolean;
  /** The whole history's failures (empty when it passes). */
  readonly failures: readonly TranscriptFailure[];
}

/** The input with `list` as its messages: the list itself, or the request body holding it. */
function withMessages(analysis: Pick<Analysis, 'body'>, format: TranscriptFormat, list: readonly unknown[]): unknown {
  return analysis.body === undefined ? list : { ...analysis.body, [FORMAT_DRIVERS[format].field]: list };
}

/** Reads the input once and finds the candidate cuts; the input error for input that is no transcript. */
function analyze(input: unknown, settings: CheckSettings): Result<Analysis, TranscriptInputError> {
  const whole = checkInput(input, { ...settings, snapshot: false });
  if (whole.report.result === 'invalid') return { ok: false, failures: [whole.report.error] };
  const { messages, body } = whole;
  const kind = kinds(messages, settings.format);
  let head = 0;
  while (head < kind.length && kind[head] === 'system') head++;
  const candidates: number[] = [];
  for (let k = head; k < messages.length; k++) if (kind[k] === 'user') candidates.push(k);
  const passes = (k: number): boolean => {
    if (k === head) return whole.report.result === 'accepted';
    const list = [...messages.slice(0, head), ...messages.slice(k)];
    return (
      checkInput(withMessages({ body }, settings.format, list), { ...settings, snapshot: false }).report.result ===
      'accepted'
    );
  };
  return { ok: true, value: { messages, body, head, candidates, passes, failures: whole.report.failures } };
}

/**
 * The indices where a history may be cut, or the messages before it replaced by a summary,
 * without breaking a rule of its format: a cut at `k` keeps the leading system messages and the
 * messages from `k` on, and that history passes `checkTranscript`. Each is the index of a message
 * that opens a user turn, so no cut falls between a tool call and its result, none separates a
 * thinking block from the tool-use loop it opened, and none leaves a first message in a role the
 * format refuses (an assistant message, a tool result). The first cut point, when the whole
 * history passes and starts a user turn after its system messages, removes nothing.
 *
 * The check runs on each candidate (a history of `n` messages with `u` user turns costs `u`
 * checks of at most `n` messages); `trimTranscript` checks only from its target back to the
 * first cut point it finds.
 *
 * @param messages - The messages (items, contents), or a request body holding them.
 * @param options - The format, and as `checkTranscript` the model and dialect.
 * @returns The cut points, ascending (empty when there is none).
 * @throws TranscriptInputError - When the input is no transcript of the format (the field and what was expected).
 * @throws TypeError - For an unknown format, or a model or dialect the check refuses.
 * @example
 * ```ts
 * import { cutPoints } from 'turngate/transcripts';
 * const history = [
 *   { role: 'user' as const, content: 'Weather in Oslo?' },
 *   { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } }] },
 *   { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_01', content: 'Snow' }] },
 *   { role: 'assistant' as const, content: 'It snows in Oslo.' },
 *   { role: 'user' as const, content: 'And in Bergen?' },
 * ];
 * cutPoints(history, { format: 'anthropic' }); //=> [0, 4]
 * ```
 */
export function cutPoints<const F extends TranscriptFormat, I extends AnyTranscriptInput<F>>(
  messages: TranscriptArgument<F, I, 'trimTranscriptJson'>,
  options: CutPointsOptions<F>,
): readonly number[] {
  const analysis = analyze(messages, settingsOf(options));
  if (!analysis.ok) throw analysis.failures[0];
  return analysis.value.candidates.filter(analysis.value.passes);
}

/** Refuses a `keepLast` that is no count. */
function keepLastOf(options: TrimTranscriptOptions<TranscriptFormat>): number {
  const keepLast = own(options, 'keepLast');
  if (typeof keepLast !== 'number' || !Number.isInteger(keepLast) || keepLast < 0) {
    throw new TypeError(
      `options.keepLast must be a count of messages (an integer, 0 or more), not ${String(keepLast)}`,
    );
  }
  return keepLast;
}

/** Refuses a `summary` that is no text. */
function summaryOf(options: TrimTranscriptOptions<TranscriptFormat>): string | undefined {
  const summary = own(options, 'summary');
  if (summary !== undefined && typeof summary !== 'string') {
    throw new TypeError(
      `options.summary must be a string (the text standing for the removed messages), not ${typeof summary}`,
    );
  }
  return summary;
}

/** The client tool calls made by the messages in `[from, to)`, read by the format's evidence reader. */
function removedCalls(
  messages: readonly unknown[],
  format: TranscriptFormat,
  from: number,
  to: number,
): RemovedToolCall[] {
  const calls: RemovedToolCall[] = [];
  if (to <= from) return calls;
  const turns = FORMAT_DRIVERS[format].turns(messages);
  for (const [messageIndex, list] of [...turns].sort((a, b) => a[0] - b[0])) {
    if (messageIndex < from || messageIndex >= to) continue;
    for (const call of list)
      calls.push({ id: call.id, name: call.name, messageIndex, answered: call.result !== undefined });
  }
  return calls;
}

/** Runs `trimTranscript` on any value. */
function runTrim(input: unknown, options: TrimTranscriptOptions<TranscriptFormat>): TrimResult<TranscriptFormat> {
  const settings = settingsOf(options);
  const keepLast = keepLastOf(options);
  const summary = summaryOf(options);
  const { format } = settings;
  const analyzed = analyze(input, settings);
  if (!analyzed.ok) {
    const error = analyzed.failures[0] as TranscriptInputError;
    return {
      ok: false,
      failures: [
        {
          reason: 'invalid',
          detail: `not a ${format} transcript: ${error.message}`,
          failures: [],
          error,
        },
      ],
    };
  }
  const analysis = analyzed.value;
  const { messages, head } = analysis;
  const n = messages.length;
  // The nearest cut that keeps `keepLast` messages: the latest cut point at or before n - keepLast
  // (checked from there back, so a trim runs few checks); none is needed when the whole history
  // already fits and passes.
  let cut = n - head <= keepLast && analysis.failures.length === 0 ? head : -1;
  for (let c = analysis.candidates.length - 1; cut < 0 && c >= 0; c--) {
    const k = analysis.candidates[c] as number;
    if (n - k >= keepLast && analysis.passes(k)) cut = k;
  }
  if (cut < 0) {
    return {
      ok: false,
      failures: [
        {
          reason: 'no_cut_point',
          detail:
            n - head <= keepLast
              ? `the ${format} history fits in ${keepLast} messages but does not pass the check, and no cut point makes it pass`
              : `no cut point keeps the last ${keepLast} messages: no message at or before index ${n - keepLast} opens a user turn from which the ${format} history passes the check`,
          failures: analysis.failures as readonly TranscriptFailure[],
        },
      ],
    };
  }
  const kept = [...messages.slice(0, head), ...messages.slice(cut)];
  let list: readonly unknown[] = kept;
  let summaryRecord: TrimmedTranscript<TranscriptFormat>['summary'];
  if (summary !== undefined) {
    const note = FORMAT_DRIVERS[format].fromChat([{ role: 'user', content: summary }]).messages;
    list = [...messages.slice(0, head), ...note, ...messages.slice(cut)];
    const checked = checkInput(withMessages(analysis, format, list), { ...settings, snapshot: false });
    let repairs: readonly TranscriptRepair[] = [];
    if (checked.report.result !== 'accepted') {
      const repaired = runRepair(withMessages(analysis, format, list), settings);
      if (!repaired.ok || repaired.value.remaining.length > 0) {
        return {
          ok: false,
          failures: [
            {
              reason: 'summary_refused',
              detail: `the summary message breaks a rule of ${format} that repair cannot fix`,
              failures: repaired.ok ? repaired.value.remaining : checked.report.failures,
            },
          ],
        };
      }
      list = repaired.value.messages;
      repairs = repaired.value.repairs;
    }
    summaryRecord = { index: head, repairs };
  }
  const final = checkInput(withMessages(analysis, format, list), settings).report;
  if (final.result !== 'accepted' || final.transcript === undefined) {
    // A cut point's history passed the check, and a summary only enters through the check or repair.
    throw new Error(`trimTranscript: the ${format} history cut at ${cut} did not pass the check`);
  }
  return {
    ok: true,
    value: {
      messages: list as readonly TranscriptMessage<TranscriptFormat>[],
      cut,
      kept: head,
      removed: messages.slice(head, cut).map((message, i) => ({
        index: head + i,
        message: message as TranscriptMessage<TranscriptFormat>,
      })),
      removedToolCalls: removedCalls(messages, format, head, cut),
      summary: summaryRecord,
      transcript: final.transcript,
    },
  };
}

/**
 * Trims a long history at the nearest cut point (`cutPoints`) that keeps the last `keepLast`
 * messages: the leading system messages stay, the messages between them and the cut go, and
 * `summary` (when given) stands in their place as a user message. The result passes
 * `checkTranscript`; each removed message and each removed tool call (with its result) is
 * recorded. When no cut point keeps `keepLast` messages, or the summary breaks a rule repair
 * cannot fix, nothing is cut: a typed refusal says why.
 *
 * Property (tested): every accepted conformance transcript trimmed to every length gives an
 * accepted history or a refusal.
 *
 * @param messages - The messages (items, contents), or a request body holding them (the body's
 *   other fields are read as the check reads them; the result is the messages).
 * @param options - The format, `keepLast`, `summary`, and as `checkTranscript` the model and dialect.
 * @returns The trimmed transcript, or the one refusal (`invalid`, `no_cut_point`, `summary_refused`).
 * @throws TypeError - For an unknown format, a `keepLast` that is no count, a `summary` that is no string, or a model or dialect the check refuses.
 * @example
 * ```ts
 * import { trimTranscript } from 'turngate/transcripts';
 * const history = [
 *   { role: 'system' as const, content: 'You report the weather.' },
 *   { role: 'user' as const, content: 'Weather in Oslo?' },
 *   { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
 *   { role: 'tool' as const, tool_call_id: 'call_1', content: 'Snow' },
 *   { role: 'assistant' as const, content: 'It snows in Oslo.' },
 *   { role: 'user' as const, content: 'And in Bergen?' },
 * ];
 * const trimmed = trimTranscript(history, { format: 'openai-chat', keepLast: 1, summary: 'The user asked about Oslo: snow.' });
 * if (trimmed.ok) {
 *   trimmed.value.cut; //=> 5
 *   trimmed.value.removedToolCalls.map((call) => call.id); //=> ['call_1']
 *   trimmed.value.messages.length; //=> 3
 * }
 * ```
 */
export function trimTranscript<const F extends TranscriptFormat, I extends AnyTranscriptInput<F>>(
  messages: TranscriptArgument<F, I, 'trimTranscriptJson'>,
  options: TrimTranscriptOptions<F>,
): TrimResult<F, InputMessage<F, I>> {
  return runTrim(messages, options) as TrimResult<F, InputMessage<F, I>>;
}

/**
 * `trimTranscript` for a value of unknown shape (parsed JSON from a file, a store or a log).
 *
 * @param value - Any value: an array of messages, or a request body.
 * @param options - As `trimTranscript`.
 * @returns As `trimTranscript`.
 * @example
 * ```ts
 * import { trimTranscriptJson } from 'turngate/transcripts';
 * trimTranscriptJson('not a transcript', { format: 'gemini', keepLast: 4 }).ok; //=> false
 * ```
 */
export function trimTranscriptJson<const F extends TranscriptFormat>(
  value: unknown,
  options: TrimTranscriptOptions<F>,
): TrimResult<F> {
  return runTrim(value, options) as TrimResult<F>;
}
