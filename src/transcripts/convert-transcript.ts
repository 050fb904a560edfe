/**
 * `convertTranscript`: a history in one wire format made into a sendable history in another,
 * with one typed record per change. The steps: the source is repaired in its own format (input
 * that is not a transcript of it is refused), converted to `ChatMessage`s (`toChatMessages`), its signed
 * reasoning dropped unless kept, its tool call ids remapped to the target's grammar, repaired
 * as a `chat` history, converted to the target (`fromChatMessages`) and repaired as the target.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Result } from '../failures/index.ts';
import { own } from '../internal/own-field.ts';
import type { Expectation } from './check.ts';
import type { ChatMessage } from './chat/message.ts';
import { TranscriptInputError } from './core/report.ts';
import type { TranscriptFailure } from './rules.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import {
  dropReasoning,
  fillReasoningContent,
  IdTrail,
  lossChanges,
  reasoningByCall,
  remapIds,
  repairChanges,
  standIns,
  type ToolCallIdPair,
  type TranscriptChange,
} from './convert-steps.ts';

import type { OpenAIChatDialect } from './core/dialects.ts';
import type { TurnMisuse } from '../typestate/index.ts';
import type {
  AnyTranscriptInput,
  InputMessage,
  MisnamedOptionMessage,
  OptionMessage,
  TranscriptArgument,
} from './misuse.ts';
import type { WrittenMessages } from './written.ts';
import type { TranscriptMessage } from './messages.ts';
import { runRepair } from './repair.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { SendableTranscript } from './sendable.ts';
import {
  hasSystemField,
  readSystem,
  SYSTEM_FIELDS,
  type SystemPrompt,
  type SystemPromptFormat,
  takeAnthropicSystem,
  takeSystem,
  writeSystem,
} from './convert-system.ts';
import { unwrapTranscript } from './unwrap.ts';

export type { ToolCallIdPair, TranscriptChange } from './convert-steps.ts';

/**
 * Options of `convertTranscript`.
 *
 * @example
 * ```ts
 * import type { ConvertTranscriptOptions } from 'turngate/transcripts';
 * const options: ConvertTranscriptOptions<'openai-chat', 'anthropic'> = { from: 'openai-chat', to: 'anthropic', model: 'claude-sonnet-4-5' };
 * ```
 */
export interface ConvertTranscriptOptions<F extends TranscriptFormat, G extends TranscriptFormat> {
  /** The source format. */
  readonly from: F;
  /** The target format. */
  readonly to: G;
  /**
   * Not an option here (`checkTranscript` and `repairTranscript` take `format`): a conversion
   * names its source format `from`; its type is the sentence saying so.
   */
  readonly format?: TurnMisuse<MisnamedOptionMessage<'convertTranscript', 'format', 'from (the source format) and to'>>;
  /** The target model, for the target's model-specific rules (Gemini 3's thought signatures). */
  readonly model?: string;
  /**
   * `to: 'openai-chat'` only: the OpenAI-compatible provider the history goes to (`deepseek`,
   * `kimi`, `groq`, `xai`): its rules run in the target's repair and check, and its tool call id
   * grammar (Kimi's `functions.<name>:<index>`) is the one ids are remapped into.
   */
  readonly dialect?: G extends 'openai-chat' ? OpenAIChatDialect : TurnMisuse<OptionMessage<'dialect', 'openai-chat'>>;
  /**
   * `drop` (the default across formats): thinking blocks, redacted thinking and every signature
   * are removed, each with a record, since a provider checks only its own signatures. `keep`
   * carries them where the target has a place (the default when `from` is `to`).
   */
  readonly reasoning?: 'drop' | 'keep';
  /** As `checkTranscript`: `received` leaves the last message's calls open. Default `sendable`. */
  readonly expect?: Expectation;
  /**
   * The `toolCallIds` of an earlier conversion the other way: an id it minted comes home as the
   * original (a reply converted back gets the caller's own ids).
   */
  readonly toolCallIds?: readonly ToolCallIdPair[];
  /** As `repairTranscript`: tools whose calls change nothing (for synthesized results). */
  readonly readOnlyTools?: readonly string[];
}

/**
 * A converted transcript: the target's messages, every change made, the remapped tool call ids,
 * the target's failures no repair fixes, and (under `sendable`, when none remain) the
 * `SendableTranscript` a guarded call takes.
 *
 * @example
 * ```ts
 * import { convertTranscript, type ConvertedTranscript } from 'turngate/transcripts';
 * const converted = convertTranscript([{ role: 'user', content: 'Hi' }], { from: 'openai-chat', to: 'gemini' });
 * if (converted.ok) {
 *   const value: ConvertedTranscript<'gemini'> = converted.value;
 *   value.messages; //=> [{ role: 'user', parts: [{ text: 'Hi' }] }]
 * }
 * ```
 */
export interface ConvertedTranscript<G extends TranscriptFormat, M = WrittenMessages[G]> {
  /** The target format. */
  readonly format: G;
  /**
   * The target's messages (items, contents), typed as the target SDK's messages take them
   * (`WrittenMessages`), so they go to its client without a cast; within one format, the
   * input's own message type too.
   */
  readonly messages: M[];
  /**
   * The system prompt, for a target that takes it outside its messages (Anthropic's top-level
   * `system`, Gemini's `systemInstruction`, Bedrock's `system`), in that field's shape
   * (`SystemPrompts`); `undefined` when the history holds none, and for every other target
   * (whose system messages stay in `messages`).
   */
  readonly system: SystemPrompt<G>;
  /** Every change, in the order made. */
  readonly changes: readonly TranscriptChange[];
  /**
   * Every tool call id the result holds under another name than the source's, whichever step
   * renamed it (the remapping into the target's grammar, or a repair of the source, the chat
   * step or the target: a repeated id, one too long); pass it back as `toolCallIds` to bring a
   * reply's ids home.
   */
  readonly toolCallIds: readonly ToolCallIdPair[];
  /** Failures of the target's rules no repair fixes (empty when `transcript` is set). */
  readonly remaining: readonly TranscriptFailure<G>[];
  /**
   * Under `sendable`, the checked target transcript a guarded call takes, typed by the written
   * messages (`M`), so a `guardSend` typed with the target SDK's message type takes it.
   */
  readonly transcript: SendableTranscript<G, [M] extends [TranscriptMessage<G>] ? M : TranscriptMessage<G>> | undefined;
}

/**
 * The `Result` of `convertTranscript`: the {@link ConvertedTranscript} as `value`, or `failures`
 * holding one input error for input that is not a transcript of the source format.
 *
 * @example
 * ```ts
 * import { convertTranscriptJson, type ConvertResult } from 'turngate/transcripts';
 * const refused: ConvertResult<'anthropic'> = convertTranscriptJson([{ role: 'model', parts: [] }], { from: 'openai-chat', to: 'anthropic' });
 * refused.ok || refused.failures[0]?.field; //=> 'messages[0].role'
 * ```
 */
export type ConvertResult<G extends TranscriptFormat, M = WrittenMessages[G]> = Result<
  ConvertedTranscript<G, M>,
  TranscriptInputError
>;

/**
 * The message type of `convertTranscript`'s result from format `F` into `G` for the input `I`:
 * what a conversion writes into `G` (`WrittenMessages`); within one format (`F` is `G`), also
 * the input's own message type, since an accepted history comes back as it is.
 *
 * @example
 * ```ts
 * import type { ConvertedMessage, WrittenMessages } from 'turngate/transcripts';
 * type Across = ConvertedMessage<'openai-chat', 'anthropic', unknown>; //=> WrittenMessages['anthropic']
 * const written: Across = { role: 'user', content: 'Hi' };
 * ```
 */
export type ConvertedMessage<F extends TranscriptFormat, G extends TranscriptFormat, I> = [F] extends [G]
  ? [G] extends [F]
    ? InputMessage<F, I> | WrittenMessages[G]
    : WrittenMessages[G]
  : WrittenMessages[G];

/** The settings of `options`, read from its own fields. */
function settingsOf(options: ConvertTranscriptOptions<TranscriptFormat, TranscriptFormat>) {
  const from = options.from;
  const to = options.to;
  for (const [field, format] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!(typeof format === 'string' && Object.hasOwn(FORMAT_DRIVERS, format)))
      throw new TypeError(`options.${field} must be one of ${Object.keys(FORMAT_DRIVERS).join(', ')}`);
  }
  const reasoning = own(options, 'reasoning') ?? (from === to ? 'keep' : 'drop');
  if (reasoning !== 'drop' && reasoning !== 'keep') throw new TypeError("options.reasoning must be 'drop' or 'keep'");
  const pairs = own(options, 'toolCallIds') ?? [];
  if (
    !Array.isArray(pairs) ||
    !pairs.every((pair) => typeof pair?.source === 'string' && typeof pair?.target === 'string')
  )
    throw new TypeError('options.toolCallIds must be an array of { source, target } pairs of strings');
  return {
    from,
    to,
    reasoning,
    pairs,
    expect: own(options, 'expect') ?? 'sendable',
    model: own(options, 'model'),
    dialect: own(options, 'dialect') as OpenAIChatDialect | undefined,
    readOnlyTools: own(options, 'readOnlyTools') ?? [],
  };
}

/**
 * Converts a history in format `from` into a history format `to` accepts: through
 * `ChatMessage`, with tool call ids the target refuses remapped bijectively into its grammar
 * (minted from the id's SHA-256, so converting again gives the same ids), signed reasoning
 * dropped across formats (and `reasoning_content` filled where a dialect's thinking mode demands
 * it), and the target's order rules met by its repair. Every change is one
 * {@link TranscriptChange}. A target that takes the system prompt outside its messages
 * (Anthropic, Gemini, Bedrock Converse) gets it as the result's `system` (`SystemPrompts`), never
 * as a message; a source request body's system prompt is read as its first system message.
 *
 * The result passes `checkTranscript` for `to` (tested over every pair of formats on every
 * conformance transcript), except for rules no repair fixes, listed in `remaining`.
 *
 * @param history - The messages (items, contents) of `from`, or a request body holding them.
 * @param options - `from`, `to`; `model` (the target model), `dialect` (with `to: 'openai-chat'`), `reasoning`, `expect`, `toolCallIds`, `readOnlyTools`.
 * @returns The converted history with its records, or the input error for input that is not a transcript of `from`.
 * @throws TypeError for options outside their types (a format not in `TRANSCRIPT_FORMATS`, ...).
 * @example
 * ```ts
 * import { convertTranscript } from 'turngate/transcripts';
 * const converted = convertTranscript(
 *   [
 *     { role: 'user', content: 'Weather in Oslo?' },
 *     { role: 'assistant', content: null, tool_calls: [{ id: 'call:1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
 *     { role: 'tool', tool_call_id: 'call:1', content: 'Snow' },
 *   ],
 *   { from: 'openai-chat', to: 'anthropic' },
 * );
 * converted.ok && converted.value.toolCallIds; //=> [{ source: 'call:1', target: 'toolu_K8xXa4Vd4kDCfxaFbueFiTkw' }]
 * converted.ok && converted.value.transcript !== undefined; //=> true
 * ```
 */
export function convertTranscript<
  const F extends TranscriptFormat,
  // `never` when `to` is missing: the error names the missing option, not every format.
  const G extends TranscriptFormat = never,
  I extends AnyTranscriptInput<F> = AnyTranscriptInput<F>,
>(
  history: TranscriptArgument<F, I, 'convertTranscriptJson'>,
  options: ConvertTranscriptOptions<F, G>,
): ConvertResult<G, ConvertedMessage<F, G, I>> {
  return runConvert(history, options) as ConvertResult<G, ConvertedMessage<F, G, I>>;
}

/**
 * `convertTranscript` for a value of unknown shape (parsed JSON).
 *
 * @param value - Any value: an array of messages, or a request body.
 * @param options - As `convertTranscript`.
 * @returns As `convertTranscript`.
 * @example
 * ```ts
 * import { convertTranscriptJson } from 'turngate/transcripts';
 * convertTranscriptJson('not a transcript', { from: 'gemini', to: 'anthropic' }).ok; //=> false
 * ```
 */
export function convertTranscriptJson<const F extends TranscriptFormat, const G extends TranscriptFormat>(
  value: unknown,
  options: ConvertTranscriptOptions<F, G>,
): ConvertResult<G, ConvertedMessage<F, G, readonly TranscriptMessage<F>[]>> {
  return runConvert(value, options) as ConvertResult<G, ConvertedMessage<F, G, readonly TranscriptMessage<F>[]>>;
}

function runConvert(
  input: unknown,
  options: ConvertTranscriptOptions<TranscriptFormat, TranscriptFormat>,
): ConvertResult<TranscriptFormat, unknown> {
  const settings = settingsOf(options);
  const { from, to, expect, model, dialect, readOnlyTools } = settings;
  const targetSettings = { format: to, expect, model, dialect, readOnlyTools };
  if (from === to && dialect === undefined && settings.pairs.length === 0 && settings.reasoning === 'keep') {
    const system = sourceSystem(input, from);
    if (!system.ok) return system;
    const changes: TranscriptChange[] = lossChanges(system.value.losses, 'source');
    const texts = system.value.text === undefined ? [] : [system.value.text];
    const own = to === 'anthropic' ? anthropicWithoutSystem(input, texts, changes) : input;
    const repaired = runRepair(own, targetSettings);
    if (!repaired.ok) return repaired;
    const { messages, repairs, remaining, transcript } = repaired.value;
    const text = texts.length === 0 ? undefined : texts.join('\n\n');
    return {
      ok: true,
      value: {
        format: to,
        messages: writable(messages),
        system: text === undefined || !hasSystemField(to) ? undefined : writeSystem(to, text),
        changes: [...changes, ...repairChanges(repairs, 'target')],
        toolCallIds: [],
        remaining,
        transcript,
      },
    };
  }
  // The source repaired in its own format first: what its own rules fix (a repeated id, a
  // result out of place) is fixed where the source's structure still tells what belongs where.
  const source = runRepair(input, { format: from, expect, model: undefined, readOnlyTools });
  if (!source.ok) return source;
  const changes: TranscriptChange[] = repairChanges(source.value.repairs, 'source');
  const system = sourceSystem(input, from);
  if (!system.ok) return system;
  changes.push(...lossChanges(system.value.losses, 'source'));
  let chat: ChatMessage[];
  try {
    const read = FORMAT_DRIVERS[from].toChat(source.value.messages);
    changes.push(...lossChanges(read.losses, 'source'));
    chat = read.messages as ChatMessage[];
    const text = system.value.text;
    if (text !== undefined) chat = [{ role: 'system', content: text }, ...chat];
  } catch (error) {
    if (error instanceof TranscriptInputError) return { ok: false, failures: [error] };
    throw error;
  }
  const trail = new IdTrail();
  trail.repaired(source.value.repairs);
  const reasoning = reasoningByCall(chat, (id) => trail.origin(id));
  if (settings.reasoning === 'drop') chat = dropReasoning(chat, changes);
  const remapped = remapIds(chat, to, dialect, settings.pairs, changes);
  for (const pair of remapped.pairs) trail.renamed(pair.source, pair.target, false);
  // Ids over ChatMessage's 40 characters that the target takes cross the chat step under stand-ins.
  const stand = standIns(remapped.messages);
  const chatRepair = runRepair(stand.messages, { format: 'chat', expect, model: undefined, readOnlyTools });
  if (!chatRepair.ok) {
    // The source passed its reader but breaks a rule no repair fixes (an empty tool name, ...),
    // and `ChatMessage` cannot hold it: name the field as the ChatMessage form has it.
    const [error] = chatRepair.failures as [TranscriptInputError];
    return {
      ok: false,
      failures: [new TranscriptInputError(error.field, `${error.expected} (in the history as ChatMessages)`)],
    };
  }
  const chatRepairs = chatRepair.value.repairs.map((repair) => restoreRepair(repair, stand.restore));
  trail.repaired(chatRepairs);
  changes.push(...repairChanges(chatRepairs, 'chat'));
  const separated = separateSystem(stand.restoreMessages(chatRepair.value.messages as ChatMessage[]), to, changes);
  const written = FORMAT_DRIVERS[to].fromChat(separated.messages);
  changes.push(...lossChanges(written.losses, 'chat'));
  let target = runRepair(written.messages, targetSettings);
  if (!target.ok) return target;
  trail.repaired(target.value.repairs);
  changes.push(...repairChanges(target.value.repairs, 'target'));
  const filled = fillReasoningContent(target.value, reasoning, trail, changes);
  if (filled !== undefined) {
    target = runRepair(filled, targetSettings);
    if (!target.ok) return target;
    trail.repaired(target.value.repairs);
    changes.push(...repairChanges(target.value.repairs, 'target'));
  }
  return {
    ok: true,
    value: {
      format: to,
      messages: writable(target.value.messages),
      system: separated.system,
      changes,
      toolCallIds: trail.pairs(),
      remaining: target.value.remaining,
      transcript: target.value.transcript,
    },
  };
}

/** The system prompt of a request body of `from` (`readSystem`), or the input error. */
function sourceSystem(
  input: unknown,
  from: TranscriptFormat,
): Result<ReturnType<typeof readSystem>, TranscriptInputError> {
  try {
    return { ok: true, value: readSystem(from, unwrapTranscript(input, from, false).body) };
  } catch (error) {
    if (error instanceof TranscriptInputError) return { ok: false, failures: [error] };
    throw error;
  }
}

/** The Messages API refuses role "system" in messages: an Anthropic history without them, their texts added to `texts`. */
function anthropicWithoutSystem(input: unknown, texts: string[], changes: TranscriptChange[]): unknown {
  let unwrapped: ReturnType<typeof unwrapTranscript>;
  try {
    unwrapped = unwrapTranscript(input, 'anthropic', false);
  } catch (error) {
    if (error instanceof TranscriptInputError) return input;
    throw error;
  }
  const taken = takeAnthropicSystem(unwrapped.messages);
  if (taken.taken.length === 0) return input;
  texts.push(...taken.texts);
  changes.push(...lossChanges(taken.losses, 'source'), ...systemChanges('anthropic', taken.taken, 'source'));
  return unwrapped.body === undefined ? taken.rest : { ...unwrapped.body, messages: taken.rest };
}

/** One `system_separated` record per system message taken out for `to`. */
function systemChanges(
  to: SystemPromptFormat,
  taken: readonly { readonly index: number; readonly leading: boolean }[],
  stage: 'source' | 'chat',
): TranscriptChange[] {
  const field = SYSTEM_FIELDS[to];
  return taken.map(({ index, leading }) => ({
    kind: 'system_separated',
    stage,
    at: `messages[${index}]`,
    detail: leading
      ? `${to} takes the system prompt in the request's ${field}, not in its messages: it is the result's system`
      : `a system message after the conversation started: ${to} takes none among its messages, so it joins the system prompt (the result's system, the request's ${field})`,
  }));
}

/**
 * For a target that takes the system prompt outside its messages, the history's system messages
 * taken out into that field's shape, each with a record; other targets keep them.
 */
function separateSystem(
  messages: ChatMessage[],
  to: TranscriptFormat,
  changes: TranscriptChange[],
): { readonly messages: ChatMessage[]; readonly system: SystemPrompt<TranscriptFormat> } {
  if (!hasSystemField(to)) return { messages, system: undefined };
  const { text, rest, taken } = takeSystem(messages);
  changes.push(...systemChanges(to, taken, 'chat'));
  return { messages: rest, system: text === undefined ? undefined : writeSystem(to, text) };
}

/** A chat-step repair record with the stand-ins of long ids (`standIns`) given their own ids back. */
function restoreRepair(repair: TranscriptRepair, restore: (text: string) => string): TranscriptRepair {
  const restored = {
    ...repair,
    ids: repair.ids.map(restore),
    detail: restore(repair.detail),
  };
  return repair.removed === undefined
    ? restored
    : { ...restored, removed: JSON.parse(restore(JSON.stringify(repair.removed))) as unknown };
}

/**
 * The result's messages as the SDKs' mutable message arrays take them. The array is the repair's
 * (a new one, or within one format the caller's own when it needed nothing): never shared with
 * this module's state, so handing it out writable lets nothing here change under the caller.
 */
function writable(messages: readonly unknown[]): unknown[] {
  return messages as unknown[];
}
