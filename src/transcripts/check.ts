/**
 * `checkTranscript`: a provider transcript checked against every rule its provider documents
 * (or enforces) about where tool calls and tool results may stand.
 *
 * @module
 */
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/index.ts';
import { objectPrototypeIsClean } from '../internal/detach.ts';
import { own } from '../internal/own-field.ts';
import { MAX_DATA_DEPTH, type OwnDataError, snapshotOwnData } from '../internal/own-data.ts';
import type { ToolCall } from './chat/message.ts';
import type { CheckContext, CheckOutcome, CheckSettings, Expectation } from './core/context.ts';
import { isOpenAIChatDialect, OPENAI_CHAT_DIALECTS, type OpenAIChatDialect } from './core/dialects.ts';
import type { JsonObject } from './core/input.ts';
import { type OpenToolCall, TranscriptInputError, unreadableInput } from './core/report.ts';
import type { TranscriptFailure, TranscriptRule } from './rules.ts';
import { refuseForeignStructure } from './core/markers.ts';
import { scanMessages } from './core/scan.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import { unwrapTranscript } from './unwrap.ts';
import type { TranscriptMessage } from './messages.ts';
import type { TurnMisuse } from '../typestate/index.ts';
import type { AnyTranscriptInput, InputMessage, OptionMessage, TranscriptArgument } from './misuse.ts';
import { frozenCopy, mintSendable, type SendableTranscript } from './sendable.ts';
import { firstFailure } from '../failures/internal.ts';
import { deepFreeze } from '../internal/freeze.ts';

export type { Expectation };

/**
 * Options of `checkTranscript`.
 *
 * @example
 * ```ts
 * import type { CheckTranscriptOptions } from 'turngate/transcripts';
 * const options: CheckTranscriptOptions<'chat', 'received'> = { format: 'chat', expect: 'received', openToolCalls: [] };
 * ```
 */
export interface CheckTranscriptOptions<F extends TranscriptFormat, E extends Expectation = Expectation> {
  /** The wire format: one of `TRANSCRIPT_FORMATS` (`anthropic`, `openai-chat`, `openai-responses`, `aisdk`, `gemini`, `bedrock-converse`, `mistral`, `langchain`, `chat`). */
  readonly format: F;
  /**
   * `sendable` (default): the transcript is about to be sent, every call must be answered as the
   * provider requires. `received`: the model has just answered; the client calls of its last
   * message (for Responses, of its last response) are listed in `openToolCalls`, not failed. For
   * `openai-chat` and `chat`, tool messages already appended after that message do not end it:
   * its calls still without one stay open.
   */
  readonly expect?: E;
  /**
   * `chat` only: tool calls left open by an earlier (suspended) turn. They stand before the first
   * message, so the tool messages at the start of the list answer them, with the same rules.
   */
  readonly openToolCalls?: F extends 'chat' ? readonly ToolCall[] : TurnMisuse<OptionMessage<'openToolCalls', 'chat'>>;
  /**
   * The model the transcript goes to (`claude-sonnet-4-5`, `gpt-5`, `gemini-3-pro-preview`), for
   * the rules that hold only for some models (`TRANSCRIPT_RULES[rule].models`). Default: the
   * request body's `model`; with neither, model-specific rules do not run.
   */
  readonly model?: string;
  /**
   * `openai-chat` only: the provider dialect the history goes to (`deepseek`, `kimi`, `groq`,
   * `xai`), whose own rules (`TRANSCRIPT_RULES[rule].dialects`) run besides the format's.
   * Default: none.
   */
  readonly dialect?: F extends 'openai-chat' ? OpenAIChatDialect : TurnMisuse<OptionMessage<'dialect', 'openai-chat'>>;
}

/**
 * A transcript every rule accepts. For `expect: 'sendable'`, `transcript` is the
 * `SendableTranscript` a guarded provider call takes.
 *
 * @example
 * ```ts
 * import { checkTranscript, type AcceptedTranscriptReport } from 'turngate/transcripts';
 * const report = checkTranscript([{ role: 'user', content: 'Hello' }], { format: 'chat' });
 * if (report.result === 'accepted') {
 *   const accepted: AcceptedTranscriptReport<'chat'> = report;
 *   accepted.failures.length; //=> 0
 * }
 * ```
 */
export interface AcceptedTranscriptReport<
  F extends TranscriptFormat,
  M extends TranscriptMessage<F> = TranscriptMessage<F>,
  E extends Expectation = 'sendable',
> {
  readonly result: 'accepted';
  readonly format: F;
  readonly failures: readonly [];
  /** Under `expect: 'received'`, the client calls of the last message awaiting results. */
  readonly openToolCalls: readonly OpenToolCall[];
  /** The checked transcript (`expect: 'sendable'`); `undefined` under `received`. */
  readonly transcript: E extends 'sendable' ? SendableTranscript<F, M> : undefined;
}

/**
 * A transcript that breaks at least one rule: every failure, in input order.
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * const report = checkTranscript([{ role: 'tool', tool_call_id: 'call_9', content: 'Snow' }], { format: 'chat' });
 * if (report.result === 'rejected') report.failures.map((f) => f.rule); //=> ['chat.tool_result_orphan']
 * ```
 */
export interface RejectedTranscriptReport<F extends TranscriptFormat> {
  readonly result: 'rejected';
  readonly format: F;
  /** Every failure (not only the first), ordered by message. */
  readonly failures: readonly TranscriptFailure<F>[];
  /** Under `expect: 'received'`, the client calls of the last message awaiting results. */
  readonly openToolCalls: readonly OpenToolCall[];
}

/**
 * Input that is not a transcript of the format: `error` names the path and what was expected;
 * for a history of another format, what was found and the format it looks like.
 *
 * @example
 * ```ts
 * import { checkTranscript, checkTranscriptJson } from 'turngate/transcripts';
 * const report = checkTranscript({ messages: 'hi' } as never, { format: 'anthropic' });
 * if (report.result === 'invalid') report.error.message; //=> "messages: expected an array (the request body's `messages`)"
 * const anthropic = [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'send_email', input: {} }] }];
 * const wrong = checkTranscriptJson(anthropic, { format: 'openai-chat' });
 * if (wrong.result === 'invalid') wrong.error.message; //=> 'messages[0].content[0].type: "tool_use" is an Anthropic block; this history looks like format "anthropic", not "openai-chat"'
 * ```
 */
export interface InvalidTranscriptReport<F extends TranscriptFormat> {
  readonly result: 'invalid';
  readonly format: F;
  /** The input error: `path` and `expected`. */
  readonly error: TranscriptInputError;
  readonly failures: readonly [];
  readonly openToolCalls: readonly [];
}

/**
 * The report of `checkTranscript`, discriminated on `result`.
 *
 * @example
 * ```ts
 * import { checkTranscript, type TranscriptReport } from 'turngate/transcripts';
 * const report: TranscriptReport<'gemini'> = checkTranscript([{ role: 'user', parts: [{ text: 'Hi' }] }], { format: 'gemini' });
 * report.result; //=> 'accepted'
 * ```
 */
export type TranscriptReport<
  F extends TranscriptFormat,
  M extends TranscriptMessage<F> = TranscriptMessage<F>,
  E extends Expectation = 'sendable',
> = AcceptedTranscriptReport<F, M, E> | RejectedTranscriptReport<F> | InvalidTranscriptReport<F>;

/** The context a format's check runs in: the model is the caller's, else the body's `model` when it is a string. Internal. */
export function contextOf(body: JsonObject | undefined, settings: CheckSettings): CheckContext {
  const bodyModel = body?.['model'];
  const model = settings.model ?? (typeof bodyModel === 'string' && bodyModel !== '' ? bodyModel : undefined);
  return { expect: settings.expect, body, stage: settings.stage ?? 'history', model, dialect: settings.dialect };
}

/** A check's report, with what the format's check returned (its outcome and analysis, for repair). Internal. */
export interface CheckedInput {
  readonly report: TranscriptReport<TranscriptFormat, TranscriptMessage<TranscriptFormat>, Expectation>;
  /** The format check's outcome; `undefined` for invalid input. */
  readonly outcome: CheckOutcome<TranscriptRule> | undefined;
  /**
   * The messages and request body the check read: the input's own, or, while `Object.prototype`
   * is polluted, their own-data copy (so repair reads what the check read). For a sendable
   * transcript the rules read the check's frozen copy of these (the same data): repair edits
   * the input's own, so what it does not change stays the same objects. Empty for invalid input.
   */
  readonly messages: readonly unknown[];
  readonly body: JsonObject | undefined;
}

/** Runs the check on any value; never throws for a transcript value. Internal. */
export function runCheck(
  input: unknown,
  settings: CheckSettings,
): TranscriptReport<TranscriptFormat, TranscriptMessage<TranscriptFormat>, Expectation> {
  return checkInput(input, settings).report;
}

/** Throws a `TypeError` naming the option for settings no check can run with. Internal. */
export function refuseBadSettings(settings: CheckSettings): void {
  const { format, expect } = settings;
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
    throw new TypeError(`options.format must be one of ${TRANSCRIPT_FORMATS.join(', ')}, not ${String(format)}`);
  }
  if (expect !== 'sendable' && expect !== 'received') {
    throw new TypeError(`options.expect must be 'sendable' or 'received', not ${String(expect)}`);
  }
  if (settings.model !== undefined && (typeof settings.model !== 'string' || settings.model === '')) {
    throw new TypeError(`options.model must be a non-empty string (a model id), not ${JSON.stringify(settings.model)}`);
  }
  if (settings.dialect !== undefined && (format !== 'openai-chat' || !isOpenAIChatDialect(settings.dialect))) {
    throw new TypeError(
      `options.dialect must be one of ${OPENAI_CHAT_DIALECTS.join(', ')} with format 'openai-chat', not ${JSON.stringify(settings.dialect)} with format '${format}'`,
    );
  }
}

/** The check, keeping the format check's outcome (its analysis) for repair. Internal. */
export function checkInput(input: unknown, settings: CheckSettings): CheckedInput {
  refuseBadSettings(settings);
  const { format, expect, carried = [] } = settings;
  const minting = expect === 'sendable' && settings.snapshot !== false;
  let outcome: CheckOutcome<TranscriptRule>;
  let messages: readonly unknown[];
  // What the rules read: `messages`, or for a sendable transcript its frozen copy (`snapshot`).
  let read: readonly unknown[];
  let snapshot: readonly unknown[] | undefined;
  let body: JsonObject | undefined;
  try {
    const field = FORMAT_DRIVERS[format].field;
    // The format readers read fields by name. While Object.prototype holds only what the language
    // defines that reads own data; when some other code has polluted it, read an own-data copy
    // (null-prototype objects), so a planted key never reaches a rule. The copy is JSON data.
    const clean = objectPrototypeIsClean();
    let source = input;
    if (!clean) {
      const own = snapshotOwnData(input, { root: Array.isArray(input) ? field : '' });
      if (!own.ok) throw inputErrorOf(firstFailure(own));
      source = own.value;
    }
    const unwrapped = unwrapTranscript(source, format, false);
    messages = unwrapped.messages;
    body = unwrapped.body;
    if (clean) {
      read = scanned(messages, format, body === undefined ? MAX_DATA_DEPTH : MAX_DATA_DEPTH - 1, minting);
      if (minting) snapshot = read;
    } else {
      refuseForeignStructure(messages, format, field);
      read = messages;
    }
    outcome = FORMAT_DRIVERS[format].check(read, contextOf(body, settings), carried);
  } catch (error) {
    const inputError = unreadableInput(FORMAT_DRIVERS[format].field, error);
    return {
      report: { result: 'invalid', format, error: inputError, failures: [], openToolCalls: [] },
      outcome: undefined,
      messages: [],
      body: undefined,
    };
  }
  if (outcome.failures.length > 0) {
    return {
      report: { result: 'rejected', format, failures: outcome.failures, openToolCalls: outcome.openToolCalls },
      outcome,
      messages,
      body,
    };
  }
  return {
    report: {
      result: 'accepted',
      format,
      failures: [],
      openToolCalls: outcome.openToolCalls,
      // The snapshot: the pass's frozen copy, or (read while Object.prototype was polluted) the
      // check's own-data copy, frozen where it is (`deepFreeze`: plain data only, as that copy).
      transcript: minting
        ? mintSendable(format, (snapshot ?? deepFreeze(messages)) as readonly TranscriptMessage<TranscriptFormat>[])
        : undefined,
    },
    outcome,
    messages,
    body,
  };
}

/**
 * The messages the rules read, while `Object.prototype` is clean. What is accepted goes to an
 * SDK that serializes it: every field (read by a rule or not) must be something `JSON.stringify`
 * writes, and no message may hold another format's structure. One pass over the messages asks
 * both (core/scan.ts); for a sendable transcript (`copying`) the same pass copies them, and the
 * rules read that frozen copy: what the check read is what the transcript holds. Throws the
 * `TranscriptInputError` of the first problem.
 */
function scanned(
  messages: readonly unknown[],
  format: TranscriptFormat,
  maxDepth: number,
  copying: boolean,
): readonly unknown[] {
  const field = FORMAT_DRIVERS[format].field;
  const { refused, copy } = scanMessages(messages, format, field, maxDepth, copying);
  if (refused !== undefined) throw refused instanceof TranscriptInputError ? refused : inputErrorOf(refused);
  if (!copying) return messages;
  return copy ?? (frozenCopy(messages) as readonly unknown[]);
}

/** The input error of a value that is not JSON data (a snapshot's or a serialization check's problem). */
function inputErrorOf(error: OwnDataError): TranscriptInputError {
  return new TranscriptInputError(error.path, `JSON data (${error.detail})`);
}

/** The settings of `options`, read from its own fields (a polluted `Object.prototype` supplies none). */
function settingsOf(options: CheckTranscriptOptions<TranscriptFormat>): CheckSettings {
  return {
    format: options.format,
    expect: own(options, 'expect') ?? 'sendable',
    // The option types refuse a misuse object; the check refuses a wrong value at run time.
    carried: (own(options, 'openToolCalls') as readonly ToolCall[] | undefined) ?? [],
    model: own(options, 'model'),
    dialect: own(options, 'dialect') as OpenAIChatDialect | undefined,
  };
}

/**
 * Checks a provider transcript against every rule its provider documents or enforces about
 * tool calls and tool results: pairing (every call answered, no result without its call),
 * position (results right after their call, first in their turn, never before it), uniqueness,
 * server and provider-executed calls, approvals, reasoning and thinking blocks, and the shapes a
 * provider refuses (inputs and arguments, ids, names, result contents); a rule that holds only for
 * some models runs when `model` (or the body's `model`) is one of them. Each failure names its
 * rule (`TRANSCRIPT_RULES`, with the source and the provider's error text), class, ids, position
 * and fix. Sources: `conformance/transcripts/RULES.md`.
 *
 * Failure classes: `tool.result_missing`, `tool.result_orphan`,
 * `protocol.parallel_transport_order_invalid`, `tool.schema_invalid`.
 *
 * Never throws on a transcript value: input that is not a transcript of the format gives
 * `result: 'invalid'` with a `TranscriptInputError` naming the path. That includes a history
 * holding another format's tool structure (a `tool_use` block, a `tool` role, a `parts` or
 * `call_id` field checked as a format that has none): the error names the path, what was
 * found and the format the history looks like (`error.looksLike`). Unknown fields that are no
 * format's tool structure are kept. What is accepted is sent, so it must serialize: a cycle, a
 * `bigint`, a getter that throws or nesting deeper than 127 levels anywhere in the messages (in
 * a field no rule reads too) is `invalid`, naming its path (`messages[1].content[0].input.n:
 * expected JSON data (a bigint is not JSON data)`); what `JSON.stringify` writes (a `Date`, a
 * `URL`, a `Uint8Array`, `undefined`) is kept. (A `format` or `expect` outside their unions, or a `model`
 * that is not a non-empty string, is a programming error and throws `TypeError`.)
 *
 * @param messages - The messages (items, contents), or a request body holding them in `messages`, `input` or `contents`.
 * @param options - `format`, `expect` (`sendable` by default), and for `chat` the `openToolCalls` carried from a suspension.
 * @returns The report: `accepted` (with the `SendableTranscript` when sendable), `rejected` with every failure, or `invalid`.
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * const report = checkTranscript(
 *   [
 *     { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
 *     { role: 'user', content: 'Any news?' },
 *     { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 *   ],
 *   { format: 'openai-chat' },
 * );
 * report.failures.map((f) => `${f.rule} ${f.at}`);
 * //=> ['openai-chat.tool_call_unanswered messages[0]', 'openai-chat.tool_message_not_adjacent messages[2]']
 * ```
 */
export function checkTranscript<
  const F extends TranscriptFormat,
  I extends AnyTranscriptInput<F>,
  E extends Expectation = 'sendable',
>(
  messages: TranscriptArgument<F, I, 'checkTranscriptJson'>,
  options: CheckTranscriptOptions<F, E>,
): TranscriptReport<F, InputMessage<F, I>, E> {
  return runCheck(messages, settingsOf(options)) as TranscriptReport<F, InputMessage<F, I>, E>;
}

/**
 * `checkTranscript` for a value of unknown shape (parsed JSON from a file, a store or a
 * request log): the same check, typed as format `F`'s messages.
 *
 * @param value - Any value: an array of messages, or a request body.
 * @param options - As `checkTranscript`.
 * @returns The report; `invalid` for a value that is not a transcript of the format.
 * @example
 * ```ts
 * import { checkTranscriptJson } from 'turngate/transcripts';
 * const report = checkTranscriptJson(JSON.parse('{"contents":[{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{}}}]}]}'), { format: 'gemini' });
 * report.failures.map((f) => f.rule); //=> ['gemini.function_call_turn_misplaced', 'gemini.function_call_unanswered']
 * ```
 */
export function checkTranscriptJson<const F extends TranscriptFormat, E extends Expectation = 'sendable'>(
  value: unknown,
  options: CheckTranscriptOptions<F, E>,
): TranscriptReport<F, TranscriptMessage<F>, E> {
  return runCheck(value, settingsOf(options)) as TranscriptReport<F, TranscriptMessage<F>, E>;
}
