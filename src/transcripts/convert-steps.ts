/**
 * The steps of `convertTranscript` between reading the source and writing the target, and the
 * records they write: signed reasoning dropped (and, for the dialects whose thinking modes demand
 * it, `reasoning_content` filled), tool call ids remapped into the target's grammar. Internal,
 * except the record types, which `turngate/transcripts` exports.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { AssistantContentBlock, ChatMessage, ToolCall } from './chat/message.ts';
import type { ConversionLoss } from './core/convert.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { FormatDriver } from './core/driver.ts';
import { seedDigest } from './core/ids.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { TranscriptFailure } from './rules.ts';
import { MAX_TOOL_CALL_ID } from './core/tool-runs.ts';
import { FORMAT_DRIVERS } from './formats.ts';

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
 * One change a conversion made. `stage` says what `at` is a path into: the source's messages
 * (`source`), the `ChatMessage`s between the two (`chat`) or the target's messages (`target`).
 *
 * - `lost`: a part the other side has no place for (a `ConversionLoss`);
 * - `reasoning_dropped`: a thinking block, redacted thinking or a signature removed;
 * - `reasoning_filled`: `reasoning_content` written where the target's dialect demands it
 *   (DeepSeek's and Kimi's thinking modes), from the source's thinking text, or empty;
 * - `tool_call_id_remapped`: a tool call id outside the target's grammar, renamed in the call and its results;
 * - `system_separated`: a system message taken out of the messages for a target that takes the
 *   system prompt in a field of its own (the result's `system`);
 * - `repaired`: a repair of the source in its own format, of the chat history or of the target's
 *   (`repair` is the record).
 *
 * @example
 * ```ts
 * import { convertTranscript, type TranscriptChange } from 'turngate/transcripts';
 * const converted = convertTranscript(
 *   [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'Say hi.', signature: 'EuYB' }, { type: 'text', text: 'Hi' }] }],
 *   { from: 'anthropic', to: 'chat', expect: 'received' },
 * );
 * const changes: readonly TranscriptChange[] = converted.ok ? converted.value.changes : [];
 * changes; //=> [{ kind: 'reasoning_dropped', stage: 'chat', at: 'messages[0].content[0]', detail: 'a thinking block' }]
 * ```
 */
export type TranscriptChange =
  | { readonly kind: 'lost'; readonly stage: 'source' | 'chat'; readonly at: string; readonly detail: string }
  | { readonly kind: 'reasoning_dropped'; readonly stage: 'chat'; readonly at: string; readonly detail: string }
  | { readonly kind: 'reasoning_filled'; readonly stage: 'target'; readonly at: string; readonly detail: string }
  | {
      readonly kind: 'system_separated';
      readonly stage: 'source' | 'chat';
      readonly at: string;
      readonly detail: string;
    }
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

/** The changes recording a conversion step's losses (`kind: 'lost'`), at the step that lost them. */
export const lossChanges = (losses: readonly ConversionLoss[], stage: 'source' | 'chat'): TranscriptChange[] =>
  losses.map((loss) => ({ kind: 'lost', stage, at: loss.at, detail: loss.what }));

/** The changes recording a step's repairs (`kind: 'repaired'`), each with the repair it records. */
export const repairChanges = (
  repairs: readonly TranscriptRepair[],
  stage: 'source' | 'chat' | 'target',
): TranscriptChange[] =>
  repairs.map((repair) => ({ kind: 'repaired', stage, at: repair.at, detail: repair.detail, repair }));

/** Signed reasoning out of an assistant message's content, each removal recorded. */
export function dropReasoning(messages: readonly ChatMessage[], changes: TranscriptChange[]): ChatMessage[] {
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

/** The thinking text of each assistant message with tool calls, by its first call's id (`origin`: the id in the source as given). */
export function reasoningByCall(messages: readonly ChatMessage[], origin: (id: string) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of messages) {
    const first = message.role === 'assistant' ? message.tool_calls?.[0] : undefined;
    if (first === undefined || message.role !== 'assistant' || typeof message.content === 'string') continue;
    const text = (message.content ?? []).flatMap((block) => (block.type === 'thinking' ? [block.text] : [])).join('\n');
    out.set(origin(first.id), text);
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
export function fillReasoningContent(
  target: { readonly messages: readonly unknown[]; readonly remaining: readonly TranscriptFailure[] },
  reasoning: ReadonlyMap<string, string>,
  trail: IdTrail,
  changes: TranscriptChange[],
): unknown[] | undefined {
  const missing = target.remaining.filter((failure) => REASONING_CONTENT_RULES.has(failure.rule));
  if (missing.length === 0) return undefined;
  const messages = [...target.messages];
  for (const failure of missing) {
    const message = messages[failure.messageIndex] as { readonly tool_calls?: readonly { readonly id?: unknown }[] };
    const id = message.tool_calls?.[0]?.id;
    const text = typeof id === 'string' ? (reasoning.get(trail.origin(id)) ?? '') : '';
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
export function remapIds(
  messages: readonly ChatMessage[],
  to: TranscriptFormat,
  dialect: OpenAIChatDialect | undefined,
  pairs: readonly ToolCallIdPair[],
  changes: TranscriptChange[],
): { messages: ChatMessage[]; pairs: ToolCallIdPair[] } {
  const driver: Pick<FormatDriver<TranscriptFormat>, 'toolCallIds' | 'toolCallIdsFor'> = FORMAT_DRIVERS[to];
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
    // An original the history holds itself stays with its own call (a repeated id's later call
    // got a fresh one: the pair cannot bring both home).
    if (original !== undefined && grammar.accepts(original) && !taken.has(original) && !seen.has(original))
      assign(id, original);
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

/**
 * Every tool call id's way through a conversion: each rename, whichever step made it (the
 * source's repair, the remapping into the target's grammar, the chat step's repair, the
 * target's repair), recorded against the id the source history gave, so `pairs` is every id the
 * result holds under another name than the source's (the result's `toolCallIds`).
 */
export class IdTrail {
  /** The source id of each id that holds another: by the current id. */
  readonly #origin = new Map<string, string>();

  /** The id the source history gave for `id` (itself when never renamed). */
  origin(id: string): string {
    return this.#origin.get(id) ?? id;
  }

  /**
   * `from` became `to`. `repeat`: a repeated id's later call got `to` and the first kept `from`;
   * otherwise `from` is gone.
   */
  renamed(from: string, to: string, repeat: boolean): void {
    if (from === to) return;
    const origin = this.origin(from);
    if (!repeat) this.#origin.delete(from);
    this.#origin.set(to, origin);
  }

  /** Each `renamed_call` of a repair's records. */
  repaired(repairs: readonly TranscriptRepair[]): void {
    for (const repair of repairs) {
      const [from, to] = repair.ids;
      if (repair.action === 'renamed_call' && from !== undefined && to !== undefined)
        this.renamed(from, to, /\.duplicate_/.test(repair.rule));
    }
  }

  /** Every id renamed since the source: `{ source, target }` with `target` the id the history now holds. */
  pairs(): ToolCallIdPair[] {
    const out: ToolCallIdPair[] = [];
    for (const [target, source] of this.#origin) if (target !== source) out.push({ source, target });
    return out;
  }
}

/**
 * `ChatMessage` takes tool call ids of at most 40 characters (Chat Completions' limit,
 * `chat.tool_call_id_too_long`, since a `ChatMessage` is sent with its ids as they are). Inside a
 * conversion the target's grammar decides (`remapIds` put every id in it), so a longer id
 * crosses the chat step under a stand-in of the chat grammar and gets its own back after it.
 *
 * @returns The messages under stand-ins, and `restore`, which gives an id (or a record's text)
 *   its own ids back.
 */
export function standIns(messages: readonly ChatMessage[]): {
  readonly messages: ChatMessage[];
  readonly restore: (text: string) => string;
  readonly restoreMessages: (messages: readonly ChatMessage[]) => ChatMessage[];
} {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) ids.add(call.id);
    if (message.role === 'tool') ids.add(message.tool_call_id);
  }
  const grammar = FORMAT_DRIVERS.chat.toolCallIds;
  const standIn = new Map<string, string>();
  for (const id of ids) {
    if (id.length <= MAX_TOOL_CALL_ID) continue;
    for (let attempt = 0; ; attempt++) {
      const minted = grammar.mint({ digest: seedDigest(id, attempt), name: '', index: standIn.size });
      if (!ids.has(minted) && ![...standIn.values()].includes(minted)) {
        standIn.set(id, minted);
        break;
      }
    }
  }
  const own = new Map([...standIn].map(([id, stand]) => [stand, id]));
  if (own.size === 0) return { messages: [...messages], restore: (text) => text, restoreMessages: (m) => [...m] };
  const rename = (map: ReadonlyMap<string, string>) => (list: readonly ChatMessage[]) =>
    list.map((message): ChatMessage => {
      if (message.role === 'tool')
        return { ...message, tool_call_id: map.get(message.tool_call_id) ?? message.tool_call_id };
      if (message.role !== 'assistant' || message.tool_calls === undefined) return message;
      const [first, ...more] = message.tool_calls.map((call) => ({ ...call, id: map.get(call.id) ?? call.id }));
      return first === undefined ? message : { ...message, tool_calls: [first, ...more] };
    });
  const pattern = new RegExp([...own.keys()].join('|'), 'g');
  return {
    messages: rename(standIn)(messages),
    restore: (text) => text.replace(pattern, (stand) => own.get(stand) ?? stand),
    restoreMessages: rename(own),
  };
}
