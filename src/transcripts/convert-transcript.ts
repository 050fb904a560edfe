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
import type { AssistantContentBlock, ChatMessage, ToolCall } from './chat-message.ts';
import type { ConversionLoss } from './core/convert.ts';
import { seedDigest } from './core/ids.ts';
import type { TranscriptRepair } from './core/repair.ts';
import { TranscriptInputError, type TranscriptFailure } from './core/report.ts';
import type { FormatDriver } from './core/driver.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { FormatMisuse } from './core/markers.ts';
import type { BodyMessage, TranscriptMessage, TranscriptRequestBody } from './messages.ts';
import { runRepair } from './repair.ts';
import type { SendableTranscript } from './sendable.ts';

/**
 * A tool call id before and after a conversion: `source` in the source format, `target` in the
 * target's grammar.
 *
 * @example
 * ```ts
 * import type { ToolCallIdPair } from 'turngate/transcripts';
 * const pair: ToolCallIdPair = { source: 'call_9f8e7d6c5b4a39281706f5e4d3c2b1a0fedcba98', target: 'toolu_Q2x9' };
 * ```
 */
export interface ToolCallIdPair {
  readonly source: string;
  readonly target: string;
}

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
  /** The target model, for the target's model-specific rules (Gemini 3's thought signatures). */
  readonly model?: string;
  /**
   * `to: 'openai-chat'` only: the OpenAI-compatible provider the history goes to (`deepseek`,
   * `kimi`, `groq`, `xai`): its rules run in the target's repair and check, and its tool call id
   * grammar (Kimi's `functions.<name>:<index>`) is the one ids are remapped into.
   */
  readonly dialect?: G extends 'openai-chat' ? OpenAIChatDialect : never;
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
 * One change a conversion made. `stage` says what `at` is a path into: the source's messages
 * (`source`), the `ChatMessage`s between the two (`chat`) or the target's messages (`target`).
 *
 * - `lost`: a part the other side has no place for (a `ConversionLoss`);
 * - `reasoning_dropped`: a thinking block, redacted thinking or a signature removed;
 * - `reasoning_filled`: `reasoning_content` written where the target's dialect demands it
 *   (DeepSeek's and Kimi's thinking modes), from the source's thinking text, or empty;
 * - `tool_call_id_remapped`: a tool call id outside the target's grammar, renamed in the call and its results;
 * - `repaired`: a repair of the source in its own format, of the chat history or of the target's
 *   (`repair` is the record).
 */
export type TranscriptChange =
  | { readonly kind: 'lost'; readonly stage: 'source' | 'chat'; readonly at: string; readonly detail: string }
  | { readonly kind: 'reasoning_dropped'; readonly stage: 'chat'; readonly at: string; readonly detail: string }
  | { readonly kind: 'reasoning_filled'; readonly stage: 'target'; readonly at: string; readonly detail: string }
  | {
      readonly kind: 'tool_call_id_remapped';
      readonly stage: 'chat';
      readonly source: string;
      readonly target: string;
      readonly detail: string;
    }
  | {
      readonly kind: 'repaired';
      readonly stage: 'source' | 'chat' | 'target';
      readonly at: string;
      readonly detail: string;
      readonly repair: TranscriptRepair;
    };

/** A converted transcript. */
export interface ConvertedTranscript<G extends TranscriptFormat> {
  /** The target format. */
  readonly format: G;
  /** The target's messages (items, contents). */
  readonly messages: readonly TranscriptMessage<G>[];
  /** Every change, in the order made. */
  readonly changes: readonly TranscriptChange[];
  /** Every remapped tool call id; pass it back as `toolCallIds` to bring a reply's ids home. */
  readonly toolCallIds: readonly ToolCallIdPair[];
  /** Failures of the target's rules no repair fixes (empty when `transcript` is set). */
  readonly remaining: readonly TranscriptFailure<G>[];
  /** Under `sendable`, the checked target transcript a guarded call takes. */
  readonly transcript: SendableTranscript<G> | undefined;
}

/**
 * The `Result` of `convertTranscript`: the {@link ConvertedTranscript} as `value`, or `failures`
 * holding one input error for input that is not a transcript of the source format.
 */
export type ConvertResult<G extends TranscriptFormat> = Result<ConvertedTranscript<G>, TranscriptInputError>;

const lossChanges = (losses: readonly ConversionLoss[], stage: 'source' | 'chat'): TranscriptChange[] =>
  losses.map((loss) => ({ kind: 'lost', stage, at: loss.at, detail: loss.what }));

const repairChanges = (repairs: readonly TranscriptRepair[], stage: 'source' | 'chat' | 'target'): TranscriptChange[] =>
  repairs.map((repair) => ({ kind: 'repaired', stage, at: repair.at, detail: repair.detail, repair }));

/** Signed reasoning out of an assistant message's content, each removal recorded. */
function dropReasoning(messages: readonly ChatMessage[], changes: TranscriptChange[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') {
      out.push(message);
      return;
    }
    let touched = false;
    const blocks: AssistantContentBlock[] = [];
    const content = message.content;
    if (content !== undefined && typeof content !== 'string') {
      content.forEach((block, j) => {
        const at = `messages[${i}].content[${j}]`;
        if (block.type === 'thinking' || block.type === 'redacted_thinking') {
          changes.push({ kind: 'reasoning_dropped', stage: 'chat', at, detail: `a ${block.type} block` });
          touched = true;
        } else if (block.signature !== undefined) {
          changes.push({ kind: 'reasoning_dropped', stage: 'chat', at: `${at}.signature`, detail: 'a text signature' });
          const { signature: _, ...rest } = block;
          blocks.push(rest);
          touched = true;
        } else blocks.push(block);
      });
    }
    const calls: ToolCall[] = (message.tool_calls ?? []).map((call, k) => {
      if (call.signature === undefined) return call;
      changes.push({
        kind: 'reasoning_dropped',
        stage: 'chat',
        at: `messages[${i}].tool_calls[${k}].signature`,
        detail: `the signature of tool call ${call.id}`,
      });
      touched = true;
      const { signature: _, ...rest } = call;
      return rest;
    });
    if (!touched) {
      out.push(message);
      return;
    }
    const [first, ...more] = calls;
    const [block, ...rest] = blocks;
    const kept: string | [AssistantContentBlock, ...AssistantContentBlock[]] =
      block === undefined ? '' : block.type === 'text' && rest.length === 0 ? block.text : [block, ...rest];
    if (first !== undefined) out.push({ role: 'assistant', content: kept, tool_calls: [first, ...more] });
    else if (kept !== '') out.push({ role: 'assistant', content: kept });
    else
      changes.push({
        kind: 'reasoning_dropped',
        stage: 'chat',
        at: `messages[${i}]`,
        detail: 'an assistant message that held only reasoning',
      });
  });
  return out;
}

/** The thinking text of each assistant message with tool calls, by its first call's id (before any remapping). */
function reasoningByCall(messages: readonly ChatMessage[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of messages) {
    const first = message.role === 'assistant' ? message.tool_calls?.[0] : undefined;
    if (first === undefined || message.role !== 'assistant' || typeof message.content === 'string') continue;
    const text = (message.content ?? []).flatMap((block) => (block.type === 'thinking' ? [block.text] : [])).join('\n');
    out.set(first.id, text);
  }
  return out;
}

/** The rules of the dialects that take the reasoning of every tool-call turn back (thinking modes). */
const REASONING_CONTENT_RULES: ReadonlySet<string> = new Set([
  'openai-chat.deepseek_reasoning_content_missing',
  'openai-chat.kimi_reasoning_content_missing',
]);

/**
 * DeepSeek's and Kimi's thinking modes refuse a tool-call turn without `reasoning_content`
 * (`TRANSCRIPT_RULES`): each such turn the target's check still fails gets the thinking text the
 * source held for it (as text: those providers check no signature), or `''` when it held none,
 * with a record. `undefined` when no turn needs it.
 */
function fillReasoningContent(
  target: { readonly messages: readonly unknown[]; readonly remaining: readonly TranscriptFailure[] },
  reasoning: ReadonlyMap<string, string>,
  pairs: readonly ToolCallIdPair[],
  changes: TranscriptChange[],
): unknown[] | undefined {
  const missing = target.remaining.filter((failure) => REASONING_CONTENT_RULES.has(failure.rule));
  if (missing.length === 0) return undefined;
  const sourceId = new Map(pairs.map((pair) => [pair.target, pair.source]));
  const messages = [...target.messages];
  for (const failure of missing) {
    const message = messages[failure.messageIndex] as { readonly tool_calls?: readonly { readonly id?: unknown }[] };
    const id = message.tool_calls?.[0]?.id;
    const text = typeof id === 'string' ? (reasoning.get(sourceId.get(id) ?? id) ?? '') : '';
    messages[failure.messageIndex] = { ...message, reasoning_content: text };
    changes.push({
      kind: 'reasoning_filled',
      stage: 'target',
      at: failure.at,
      detail:
        text === ''
          ? `${failure.rule}: the source held no reasoning for this turn, so reasoning_content is empty`
          : `${failure.rule}: the source's thinking text for this turn`,
    });
  }
  return messages;
}

/** How many minting attempts a collision may take before the grammar is judged too small. */
const MAX_MINT_ATTEMPTS = 64;

/**
 * The target id of each tool call id: an id coming home (`pairs`) first, then every id the
 * target takes as it is, then a minted id for the rest; distinct ids stay distinct.
 */
function remapIds(
  messages: readonly ChatMessage[],
  to: TranscriptFormat,
  dialect: OpenAIChatDialect | undefined,
  pairs: readonly ToolCallIdPair[],
  changes: TranscriptChange[],
): { messages: ChatMessage[]; pairs: ToolCallIdPair[] } {
  const driver: FormatDriver<TranscriptFormat> = FORMAT_DRIVERS[to];
  const grammar = driver.toolCallIdsFor?.(dialect) ?? driver.toolCallIds;
  const seen = new Map<string, { name: string; index: number }>();
  for (const message of messages) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? [])
        if (!seen.has(call.id)) seen.set(call.id, { name: call.name, index: seen.size });
    if (message.role === 'tool' && !seen.has(message.tool_call_id))
      seen.set(message.tool_call_id, { name: '', index: seen.size });
  }
  const home = new Map(pairs.map((pair) => [pair.target, pair.source]));
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  const assign = (id: string, target: string) => {
    assigned.set(id, target);
    taken.add(target);
  };
  for (const id of seen.keys()) {
    const original = home.get(id);
    if (original !== undefined && grammar.accepts(original) && !taken.has(original)) assign(id, original);
  }
  for (const id of seen.keys()) if (!assigned.has(id) && grammar.accepts(id) && !taken.has(id)) assign(id, id);
  const out: ToolCallIdPair[] = [];
  for (const [id, { name, index }] of seen) {
    let target = assigned.get(id);
    for (let attempt = 0; target === undefined; attempt++) {
      if (attempt === MAX_MINT_ATTEMPTS) throw new Error(`no free ${to} tool call id for ${id}`);
      const minted = grammar.mint({ digest: seedDigest(id, attempt), name, index });
      if (grammar.accepts(minted) && !taken.has(minted)) {
        assign(id, minted);
        target = minted;
      }
    }
    if (target === id) continue;
    out.push({ source: id, target });
    changes.push({
      kind: 'tool_call_id_remapped',
      stage: 'chat',
      source: id,
      target,
      detail:
        home.get(id) === target
          ? `${id} came home as ${target}`
          : `${dialect === undefined ? to : `${to} (${dialect})`} takes tool call ids of ${grammar.description}: ${id} became ${target}`,
    });
  }
  if (out.length === 0) return { messages: [...messages], pairs: out };
  const rename = (id: string) => assigned.get(id) ?? id;
  return {
    pairs: out,
    messages: messages.map((message): ChatMessage => {
      if (message.role === 'tool') return { ...message, tool_call_id: rename(message.tool_call_id) };
      if (message.role !== 'assistant' || message.tool_calls === undefined) return message;
      const [first, ...more] = message.tool_calls.map((call) => ({ ...call, id: rename(call.id) }));
      return first === undefined ? message : { ...message, tool_calls: [first, ...more] };
    }),
  };
}

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
 * {@link TranscriptChange}.
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
  const G extends TranscriptFormat,
  M extends TranscriptMessage<F>,
>(history: readonly M[] & FormatMisuse<F, M>, options: ConvertTranscriptOptions<F, G>): ConvertResult<G>;
export function convertTranscript<
  const F extends TranscriptFormat,
  const G extends TranscriptFormat,
  B extends TranscriptRequestBody<F>,
>(body: B & FormatMisuse<F, BodyMessage<F, B>>, options: ConvertTranscriptOptions<F, G>): ConvertResult<G>;
export function convertTranscript<const F extends TranscriptFormat, const G extends TranscriptFormat>(
  history: unknown,
  options: ConvertTranscriptOptions<F, G>,
): ConvertResult<G> {
  return runConvert(history, options) as ConvertResult<G>;
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
): ConvertResult<G> {
  return runConvert(value, options) as ConvertResult<G>;
}

function runConvert(
  input: unknown,
  options: ConvertTranscriptOptions<TranscriptFormat, TranscriptFormat>,
): ConvertResult<TranscriptFormat> {
  const settings = settingsOf(options);
  const { from, to, expect, model, dialect, readOnlyTools } = settings;
  const targetSettings = { format: to, expect, model, dialect, readOnlyTools };
  if (from === to && dialect === undefined && settings.pairs.length === 0 && settings.reasoning === 'keep') {
    const repaired = runRepair(input, targetSettings);
    if (!repaired.ok) return repaired;
    const { messages, repairs, remaining, transcript } = repaired.value;
    return {
      ok: true,
      value: {
        format: to,
        messages,
        changes: repairChanges(repairs, 'target'),
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
  let chat: ChatMessage[];
  try {
    const read = FORMAT_DRIVERS[from].toChat(source.value.messages);
    changes.push(...lossChanges(read.losses, 'source'));
    chat = read.messages as ChatMessage[];
  } catch (error) {
    if (error instanceof TranscriptInputError) return { ok: false, failures: [error] };
    throw error;
  }
  const reasoning = reasoningByCall(chat);
  if (settings.reasoning === 'drop') chat = dropReasoning(chat, changes);
  const remapped = remapIds(chat, to, dialect, settings.pairs, changes);
  const chatRepair = runRepair(remapped.messages, { format: 'chat', expect, model: undefined, readOnlyTools });
  if (!chatRepair.ok) {
    // The source passed its reader but breaks a rule no repair fixes (an empty tool name, ...),
    // and `ChatMessage` cannot hold it: name the field as the ChatMessage form has it.
    const [error] = chatRepair.failures as [TranscriptInputError];
    return {
      ok: false,
      failures: [new TranscriptInputError(error.field, `${error.expected} (in the history as ChatMessages)`)],
    };
  }
  changes.push(...repairChanges(chatRepair.value.repairs, 'chat'));
  const written = FORMAT_DRIVERS[to].fromChat(chatRepair.value.messages);
  changes.push(...lossChanges(written.losses, 'chat'));
  let target = runRepair(written.messages, targetSettings);
  if (!target.ok) return target;
  changes.push(...repairChanges(target.value.repairs, 'target'));
  const filled = fillReasoningContent(target.value, reasoning, remapped.pairs, changes);
  if (filled !== undefined) {
    target = runRepair(filled, targetSettings);
    if (!target.ok) return target;
    changes.push(...repairChanges(target.value.repairs, 'target'));
  }
  return {
    ok: true,
    value: {
      format: to,
      messages: target.value.messages,
      changes,
      toolCallIds: remapped.pairs,
      remaining: target.value.remaining,
      transcript: target.value.transcript,
    },
  };
}
