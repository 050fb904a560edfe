/**
 * `extendTranscript`: a checked history grown by its new messages, in time proportional to
 * them. The report is the one a full check of the whole history gives (verdict, failures,
 * snapshot); the check reads only the tail when the format allows it (`FormatDriver.extendable`)
 * and the tail is accepted, and reads the whole history otherwise.
 *
 * @module
 */
import type { TranscriptRule } from './rules.ts';
import type { TranscriptFormat } from '../check/index.ts';
import { objectPrototypeIsClean } from '../internal/detach.ts';
import { MAX_DATA_DEPTH } from '../internal/own-data.ts';
import { own } from '../internal/own-field.ts';
import { checkInput, contextOf, refuseBadSettings, type TranscriptReport } from './check.ts';
import type { CheckOutcome, CheckSettings } from './core/context.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { ExtendedCall, Extension, FormatDriver } from './core/driver.ts';
import { scanMessages } from './core/scan.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';
import {
  frozenCopy,
  isSendableTranscript,
  mintExtended,
  mintSendable,
  type SendableTranscript,
  UncheckedTranscriptError,
} from './sendable.ts';

/**
 * Options of `extendTranscript`: the model and dialect the history is checked for, as
 * `checkTranscript` takes them (the check is `expect: 'sendable'`, with no calls carried open).
 *
 * @example
 * ```ts
 * import type { ExtendTranscriptOptions } from 'turngate/transcripts';
 * const options: ExtendTranscriptOptions = { model: 'gpt-5' };
 * ```
 */
export interface ExtendTranscriptOptions {
  /** The model the transcript goes to, for rules that hold only for some models. */
  readonly model?: string;
  /** `openai-chat` only: the provider dialect whose rules run besides the format's. */
  readonly dialect?: OpenAIChatDialect;
}

/**
 * What the check of a history carries for its extension: the call ids of its lineage (each with
 * the lowest message index it stood at in any history of the lineage), the history's length and
 * the settings it was checked with. A lineage's histories share the map: an id of this history
 * is at an index below its length; an id at or past it belongs to a sibling (a tail checked
 * against the same prefix), and reads as absent. A sibling's id at a lower index can only make
 * a tail's id look repeated, which sends the tail to the full check: never a wrong verdict.
 */
interface Carried {
  readonly ids: Map<string, number>;
  readonly length: number;
  /** The format's boundary state after this history (`Extension.state`). */
  readonly state: unknown;
  /** The messages the next tail's check reads before it (`Extension.lead`). */
  readonly lead: readonly unknown[];
  readonly model: string | undefined;
  readonly dialect: OpenAIChatDialect | undefined;
  readonly stage: CheckSettings['stage'];
}

const NO_LEAD: readonly unknown[] = [];

/** What each extendable transcript carries, by transcript (only those minted here). */
const CARRIED = new WeakMap<object, Carried>();

/** The format's `extendable` (absent on the drivers of formats whose checks are not extended). */
function extendableOf(format: TranscriptFormat): FormatDriver<TranscriptFormat>['extendable'] {
  return (FORMAT_DRIVERS[format] as Pick<FormatDriver<TranscriptFormat>, 'extendable'>).extendable;
}

/** Records `calls` (their indexes offset by `base`) into the lineage's ids. */
function record(ids: Map<string, number>, calls: readonly ExtendedCall[], base: number): void {
  for (const call of calls) {
    const at = base + call.message;
    const had = ids.get(call.key);
    if (had === undefined || at < had) ids.set(call.key, at);
  }
}

/** Carries the calls of an accepted history's check (`analysis`) for its extension, when the format allows it. */
function carry(transcript: SendableTranscript, analysis: unknown, length: number, settings: CheckSettings): void {
  const extension = extendableOf(settings.format)?.(analysis, contextOf(undefined, settings), undefined);
  if (extension === undefined) return;
  const ids = new Map<string, number>();
  record(ids, extension.calls, 0);
  CARRIED.set(transcript, {
    ids,
    length,
    state: extension.state,
    lead: extension.lead ?? NO_LEAD,
    model: settings.model,
    dialect: settings.dialect,
    stage: settings.stage,
  });
}

/** The full check of `messages`, carrying its calls for the next extension when the format allows it. */
function fullCheck(messages: readonly unknown[], settings: CheckSettings): TranscriptReport<TranscriptFormat> {
  const { report, outcome } = checkInput(messages, settings);
  if (report.result === 'accepted' && outcome !== undefined && report.transcript !== undefined) {
    carry(report.transcript, outcome.analysis, report.transcript.messages.length, settings);
  }
  return report;
}

/**
 * The check of the tail alone (`copy`: its frozen copy, which passed the check's first pass)
 * after the accepted history `transcript`, when it decides the whole history: the tail's own
 * check accepts it and none of its call ids is one of the history's (the format's `extendable`
 * says why that suffices). `undefined`: it does not decide.
 */
function tailCheck(
  transcript: SendableTranscript,
  carried: Carried,
  copy: readonly unknown[],
  settings: CheckSettings,
): TranscriptReport<TranscriptFormat> | undefined {
  const { format } = settings;
  const context = contextOf(undefined, settings);
  let extension: Extension | undefined;
  try {
    const { lead } = carried;
    const outcome = FORMAT_DRIVERS[format].check(lead.length === 0 ? copy : [...lead, ...copy], context, []);
    if (outcome.failures.length > 0) return undefined;
    extension = extendableOf(format)?.(outcome.analysis, context, carried.state);
  } catch {
    return undefined;
  }
  if (extension === undefined) return undefined;
  const { ids, length } = carried;
  // The calls of the messages standing for the history's end are not the tail's.
  const calls =
    carried.lead.length === 0 ? extension.calls : extension.calls.filter((call) => call.message >= carried.lead.length);
  for (const call of calls) {
    const at = ids.get(call.key);
    if (at !== undefined && at < length) return undefined;
  }
  record(ids, calls, length - carried.lead.length);
  const extended = mintExtended(format, transcript, copy);
  CARRIED.set(extended, {
    ...carried,
    length: length + copy.length,
    state: extension.state,
    lead: extension.lead ?? NO_LEAD,
  });
  return { result: 'accepted', format, failures: [], openToolCalls: [], transcript: extended };
}

/**
 * The rules over the whole history, without the first pass over the prefix: the transcript's
 * messages are the frozen copy that pass made (and the rules read) when it was checked, and the
 * tail's copy (`copy`) passed it; the rules read the two, as the full check's rules read its one
 * copy. `undefined` when the rules throw (the full check words the input error).
 */
function rulesCheck(
  transcript: SendableTranscript,
  copy: readonly unknown[],
  settings: CheckSettings,
): TranscriptReport<TranscriptFormat> | undefined {
  const { format } = settings;
  const list = [...transcript.messages, ...copy];
  let outcome: CheckOutcome<TranscriptRule>;
  try {
    outcome = FORMAT_DRIVERS[format].check(list, contextOf(undefined, settings), []);
  } catch {
    return undefined;
  }
  if (outcome.failures.length > 0) {
    return { result: 'rejected', format, failures: outcome.failures, openToolCalls: outcome.openToolCalls };
  }
  const extended = mintSendable(format, Object.freeze(list) as readonly TranscriptMessage<TranscriptFormat>[]);
  carry(extended, outcome.analysis, list.length, settings);
  return { result: 'accepted', format, failures: [], openToolCalls: outcome.openToolCalls, transcript: extended };
}

/**
 * Checks a checked history grown by `tail`: the report `checkTranscript([...transcript.messages,
 * ...tail], { format: transcript.format, ...options })` gives (the same verdict, failures and
 * snapshot), without reading the history's messages again where it can:
 * - the check's first pass (JSON data, no other format's structure, the frozen copy) runs over
 *   the tail only: the history's messages are the frozen copy that pass made;
 * - for `openai-chat` (without a dialect), `chat`, `anthropic`, `openai-responses`, `gemini`,
 *   `aisdk`, `mistral`, `langchain` and `bedrock-converse`, whose rules pair calls and results by
 *   id or position or read one message or its predecessor, the rules run over the tail only (for
 *   `gemini`, `mistral` and `bedrock-converse`, after a message or two standing for the history's last), in
 *   time proportional to it, when the history was itself minted by `extendTranscript` (its check
 *   carries the call ids seen, and what the format's rules read across the boundary), the tail's
 *   own check accepts it and repeats none of them (and, for `anthropic`, the history leaves no
 *   server call open and does not end in an empty assistant message; for `openai-responses`,
 *   no item id repeats and the reasoning rule runs on both sides or on neither; for `gemini`, no
 *   content leaves its role out; for `aisdk`, no approval id repeats and the history's final
 *   message settles no call by an approval response); the new
 *   transcript then shares the history's frozen messages (its list is made when first read);
 * - otherwise the rules run over the whole history.
 * An input error in the tail is worded by the full check. Values the check kept as they are
 * rather than copying (a `Date`, an object written through its `toJSON`) are not read again.
 *
 * A loop extends the transcript of its last step by the new messages: the first extension
 * checks the whole history once, each later one reads only its tail.
 *
 * @param transcript - A transcript the check minted (`checkTranscript` or `extendTranscript`).
 * @param tail - The messages that follow it, in the transcript's format.
 * @param options - The `model` and `dialect` the whole history is checked for.
 * @returns The report of the whole history: `accepted` with its `SendableTranscript`, `rejected`
 *   with every failure (paths into the whole history), or `invalid`.
 * @throws {@link UncheckedTranscriptError} for a transcript the check did not mint; `TypeError`
 *   for a `tail` that is not an array.
 * @example
 * ```ts
 * import { checkTranscript, extendTranscript } from 'turngate/transcripts';
 * const first = checkTranscript([{ role: 'user', content: 'Weather in Oslo?' }], { format: 'openai-chat' });
 * if (first.result === 'accepted') {
 *   const next = extendTranscript(first.transcript, [
 *     { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
 *     { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 *   ]);
 *   next.result; //=> 'accepted'
 *   const orphan = extendTranscript(first.transcript, [{ role: 'tool', tool_call_id: 'call_9', content: 'Snow' }]);
 *   orphan.failures.map((f) => `${f.rule} ${f.at}`); //=> ['openai-chat.tool_message_orphan messages[1]']
 * }
 * ```
 */
export function extendTranscript<F extends TranscriptFormat, M extends TranscriptMessage<F>>(
  transcript: SendableTranscript<F, M>,
  tail: readonly TranscriptMessage<F>[],
  options: ExtendTranscriptOptions = {},
): TranscriptReport<F, TranscriptMessage<F>, 'sendable'> {
  if (!isSendableTranscript(transcript)) {
    throw new UncheckedTranscriptError(
      'forged',
      'extendTranscript: this transcript was not returned by checkTranscript (a literal, cast or copy)',
    );
  }
  if (!Array.isArray(tail)) {
    throw new TypeError(
      `extendTranscript: tail: expected an array of ${transcript.format} messages, got ${tail === null ? 'null' : typeof tail}`,
    );
  }
  const settings: CheckSettings = {
    format: transcript.format,
    expect: 'sendable',
    model: own(options, 'model'),
    dialect: own(options, 'dialect'),
  };
  refuseBadSettings(settings);
  return extendWith(transcript, tail, settings) as TranscriptReport<F, TranscriptMessage<F>, 'sendable'>;
}

/** `extendTranscript` with its settings read. */
function extendWith(
  transcript: SendableTranscript,
  tail: readonly unknown[],
  settings: CheckSettings,
): TranscriptReport<TranscriptFormat> {
  if (objectPrototypeIsClean()) {
    // The check's first pass (JSON data, no other format's structure, the frozen copy the rules
    // read), over the tail only: the prefix passed it when it was checked.
    const scan = scanMessages(tail, settings.format, FORMAT_DRIVERS[settings.format].field, MAX_DATA_DEPTH, true);
    if (scan.refused === undefined) {
      const copy = scan.copy ?? (frozenCopy(tail) as readonly unknown[]);
      const carried = CARRIED.get(transcript);
      const fits =
        carried !== undefined &&
        carried.model === settings.model &&
        carried.dialect === settings.dialect &&
        carried.stage === settings.stage;
      const report =
        (fits ? tailCheck(transcript, carried, copy, settings) : undefined) ?? rulesCheck(transcript, copy, settings);
      if (report !== undefined) return report;
    }
  }
  return fullCheck([...transcript.messages, ...tail], settings);
}

/** The model and stage an internal check or extension runs for (`checkExtendable`, `extendChecked`). */
export interface ExtendSettings {
  readonly model?: string | undefined;
  readonly stage?: CheckSettings['stage'];
}

/**
 * `extendTranscript` for a checked history of `format`, checked for `settings` (a model, the
 * AI SDK's prompt stage). Internal (the AI SDK middleware).
 */
export function extendChecked<F extends TranscriptFormat>(
  transcript: SendableTranscript<F>,
  tail: readonly unknown[],
  settings: ExtendSettings = {},
): TranscriptReport<F, TranscriptMessage<F>, 'sendable'> {
  return extendWith(transcript, tail, {
    format: transcript.format,
    expect: 'sendable',
    model: settings.model,
    ...(settings.stage === undefined ? {} : { stage: settings.stage }),
  }) as TranscriptReport<F, TranscriptMessage<F>, 'sendable'>;
}

/**
 * The check of `messages` (an array) as `extendTranscript` starts a lineage: a full check whose
 * transcript carries what its extensions need. Internal (the adapters' tool loop).
 */
export function checkExtendable<F extends TranscriptFormat>(
  messages: readonly unknown[],
  format: F,
  settings: ExtendSettings = {},
): TranscriptReport<F, TranscriptMessage<F>, 'sendable'> {
  return fullCheck(messages, {
    format,
    expect: 'sendable',
    model: settings.model,
    ...(settings.stage === undefined ? {} : { stage: settings.stage }),
  }) as TranscriptReport<F, TranscriptMessage<F>, 'sendable'>;
}
