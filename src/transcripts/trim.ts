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
import type { ChatMessage } from './chat/message.ts';
import { checkInput, type Expectation } from './check.ts';
import type { CheckSettings } from './core/context.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { TranscriptInputError } from './core/report.ts';
import type { TranscriptFailure } from './rules.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';
import type { AnyTranscriptInput, InputMessage, TranscriptArgument } from './misuse.ts';
import { runRepair } from './repair.ts';
import type {
  CutPointsOptions,
  RemovedToolCall,
  TrimmedTranscript,
  TrimRefusal,
  TrimResult,
  TrimTranscriptOptions,
} from './trim-types.ts';

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
/** A refusal, as the one failure of a `TrimResult`. */
const refuse = (refusal: TrimRefusal): TrimResult<TranscriptFormat> => ({ ok: false, failures: [refusal] });

/**
 * The nearest cut that keeps `keepLast` messages: the latest cut point at or before
 * `n - keepLast`, checked from there back (a trim runs few checks); the head itself (nothing cut)
 * when the whole history already fits and passes; -1 for none.
 */
function nearestCut(analysis: Analysis, keepLast: number): number {
  const { messages, head } = analysis;
  const n = messages.length;
  if (n - head <= keepLast && analysis.failures.length === 0) return head;
  for (let c = analysis.candidates.length - 1; c >= 0; c--) {
    const k = analysis.candidates[c] as number;
    if (n - k >= keepLast && analysis.passes(k)) return k;
  }
  return -1;
}

/**
 * The kept messages with the summary after the head: a user message as the format's conversion
 * writes it, fitted by the format's repair when it breaks a rule; a refusal when repair cannot fit it.
 */
function withSummary(
  analysis: Analysis,
  settings: CheckSettings,
  cut: number,
  summary: string,
): { list: readonly unknown[]; repairs: readonly TranscriptRepair[] } | TrimRefusal {
  const { messages, head } = analysis;
  const { format } = settings;
  const note = FORMAT_DRIVERS[format].fromChat([{ role: 'user', content: summary }]).messages;
  const list = [...messages.slice(0, head), ...note, ...messages.slice(cut)];
  const checked = checkInput(withMessages(analysis, format, list), { ...settings, snapshot: false });
  if (checked.report.result === 'accepted') return { list, repairs: [] };
  const repaired = runRepair(withMessages(analysis, format, list), settings);
  if (repaired.ok && repaired.value.remaining.length === 0)
    return { list: repaired.value.messages, repairs: repaired.value.repairs };
  return {
    reason: 'summary_refused',
    detail: `the summary message breaks a rule of ${format} that repair cannot fix`,
    failures: repaired.ok ? repaired.value.remaining : checked.report.failures,
  };
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
    return refuse({ reason: 'invalid', detail: `not a ${format} transcript: ${error.message}`, failures: [], error });
  }
  const analysis = analyzed.value;
  const { messages, head } = analysis;
  const n = messages.length;
  const cut = nearestCut(analysis, keepLast);
  if (cut < 0) {
    return refuse({
      reason: 'no_cut_point',
      detail:
        n - head <= keepLast
          ? `the ${format} history fits in ${keepLast} messages but does not pass the check, and no cut point makes it pass`
          : `no cut point keeps the last ${keepLast} messages: no message at or before index ${n - keepLast} opens a user turn from which the ${format} history passes the check`,
      failures: analysis.failures,
    });
  }
  let list: readonly unknown[] = [...messages.slice(0, head), ...messages.slice(cut)];
  let summaryRecord: TrimmedTranscript<TranscriptFormat>['summary'];
  // A summary stands for removed messages: with nothing removed there is nothing to stand for.
  if (summary !== undefined && cut > head) {
    const fitted = withSummary(analysis, settings, cut, summary);
    if ('reason' in fitted) return refuse(fitted);
    list = fitted.list;
    summaryRecord = { index: head, repairs: fitted.repairs };
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
