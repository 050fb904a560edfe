/**
 * Each format's distinctive structure, in one table: the roles, message fields, item types and
 * block types that only some formats have. A history holding a marker of
 * formats other than the one it is checked as carries another format's structure: every
 * reader refuses it through {@link foreignStructure} (run time), and the public signatures
 * refuse message types holding one through {@link ForeignMarkers} (compile time). Unknown
 * fields that are no marker stay tolerated. Internal.
 *
 * Sources: each provider's message reference (Anthropic Messages `messages`; OpenAI Chat
 * Completions `messages`; OpenAI Responses `input`; AI SDK `ModelMessage`; Gemini `Content`;
 * Bedrock Converse `Message` and `ContentBlock`), llm-provider §3 for `chat`, and
 * `@langchain/core` `messages/` for `langchain` (its `type` values, the `lc`/`kwargs` of
 * `toJSON()`, the `data` of `StoredMessage`); Mistral's chat completion `messages` (the OpenAI-like
 * roles and tool fields, without `developer`, `function` or `function_call`).
 *
 * @module
 */
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../check/index.ts';
import { isJsonObject, type JsonObject } from './input.ts';
import { ANTHROPIC_SERVER_CALL_BLOCK_TYPES, RESPONSES_CALL_ITEM_TYPES, RESPONSES_OUTPUT_ITEM_TYPES } from './kinds.ts';
import { TranscriptInputError } from './report.ts';

/**
 * Where a marker stands: a message's `role` value, a message's field, a message's (item's)
 * `type` value, a block's (part's) `type` value in `content`, or the field of an untyped block in
 * `content` (Bedrock Converse blocks are unions told by their one field: `toolUse`). A typed block
 * is told by its type: the fields of another format's typed blocks (`tool_use_id`, `toolCallId`)
 * come with their type.
 */
export type MarkerPlace = 'role' | 'messageKey' | 'messageType' | 'blockType' | 'blockKey';

/** One marker: where, the value (or field name), the formats that have it, and what it is. */
export interface FormatMarker {
  readonly place: MarkerPlace;
  /** The value or field name; with `suffix`, the end of a block type (`_tool_result`). */
  readonly value: string;
  readonly suffix?: true;
  readonly owners: readonly TranscriptFormat[];
  /** What it is, after `is`: `an Anthropic block`. */
  readonly what: string;
  /**
   * A role another format also uses, on a content whose `parts` are untyped (Gemini's legacy
   * function-result role): there it is that format's (and that format's own rules judge it).
   */
  readonly alsoWithParts?: TranscriptFormat;
}

const ROLE_FORMATS = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'aisdk',
  'bedrock-converse',
  'chat',
  'mistral',
] as const;
const CHAT_LIKE = ['openai-chat', 'chat', 'langchain', 'mistral'] as const;
const LANGCHAIN = ['langchain'] as const;
/** The `type` values of LangChain messages (`StoredMessage`, message-like objects, `toJSON()`). */
const LANGCHAIN_TYPES = [
  'human',
  'ai',
  'generic',
  'constructor',
  'user',
  'assistant',
  'system',
  'developer',
  'tool',
  'function',
] as const;

/** The markers. A format's own valid histories hold no marker of other formats only. */
export const FORMAT_MARKERS = [
  { place: 'role', value: 'tool', owners: ['openai-chat', 'aisdk', 'chat', 'mistral'], what: 'a tool-message role' },
  {
    place: 'role',
    value: 'function',
    owners: ['openai-chat'],
    what: 'a Chat Completions role',
    alsoWithParts: 'gemini',
  },
  { place: 'role', value: 'model', owners: ['gemini'], what: 'a Gemini role' },
  { place: 'role', value: 'assistant', owners: ROLE_FORMATS, what: 'a role Gemini does not have' },
  { place: 'role', value: 'system', owners: ROLE_FORMATS, what: 'a role Gemini does not have' },
  { place: 'role', value: 'developer', owners: ['openai-chat', 'openai-responses'], what: 'an OpenAI role' },
  { place: 'messageKey', value: 'tool_calls', owners: CHAT_LIKE, what: 'a Chat Completions message field' },
  { place: 'messageKey', value: 'tool_call_id', owners: CHAT_LIKE, what: 'a Chat Completions message field' },
  ...LANGCHAIN_TYPES.map((value) => ({
    place: 'messageType' as const,
    value,
    owners: LANGCHAIN,
    what: 'a LangChain message type',
  })),
  { place: 'messageKey', value: 'lc', owners: LANGCHAIN, what: 'a LangChain serialized message field' },
  { place: 'messageKey', value: 'kwargs', owners: LANGCHAIN, what: 'a LangChain serialized message field' },
  { place: 'messageKey', value: 'data', owners: LANGCHAIN, what: 'a LangChain stored message field' },
  { place: 'messageKey', value: 'additional_kwargs', owners: LANGCHAIN, what: 'a LangChain message field' },
  { place: 'messageKey', value: 'response_metadata', owners: LANGCHAIN, what: 'a LangChain message field' },
  { place: 'messageKey', value: 'invalid_tool_calls', owners: LANGCHAIN, what: 'a LangChain message field' },
  { place: 'messageKey', value: 'function_call', owners: ['openai-chat'], what: 'a Chat Completions message field' },
  { place: 'messageKey', value: 'call_id', owners: ['openai-responses'], what: 'an OpenAI Responses item field' },
  { place: 'messageKey', value: 'parts', owners: ['gemini'], what: 'a Gemini content field' },
  ...[...RESPONSES_CALL_ITEM_TYPES, ...RESPONSES_OUTPUT_ITEM_TYPES].map((value) => ({
    place: 'messageType' as const,
    value,
    owners: ['openai-responses'] as const,
    what: 'an OpenAI Responses item',
  })),
  { place: 'blockType', value: 'tool_use', owners: ['anthropic'], what: 'an Anthropic block' },
  { place: 'blockType', value: 'tool_result', owners: ['anthropic'], what: 'an Anthropic block' },
  ...ANTHROPIC_SERVER_CALL_BLOCK_TYPES.map((value) => ({
    place: 'blockType' as const,
    value,
    owners: ['anthropic'] as const,
    what: 'an Anthropic block',
  })),
  { place: 'blockType', value: '_tool_result', suffix: true, owners: ['anthropic'], what: 'an Anthropic block' },
  { place: 'blockType', value: 'tool-call', owners: ['aisdk'], what: 'an AI SDK part' },
  { place: 'blockType', value: 'tool-result', owners: ['aisdk'], what: 'an AI SDK part' },
  { place: 'blockType', value: 'tool-approval-request', owners: ['aisdk'], what: 'an AI SDK part' },
  { place: 'blockType', value: 'tool-approval-response', owners: ['aisdk'], what: 'an AI SDK part' },
  { place: 'blockKey', value: 'toolUse', owners: ['bedrock-converse'], what: 'a Bedrock Converse block' },
  { place: 'blockKey', value: 'toolResult', owners: ['bedrock-converse'], what: 'a Bedrock Converse block' },
  { place: 'blockKey', value: 'reasoningContent', owners: ['bedrock-converse'], what: 'a Bedrock Converse block' },
] as const satisfies readonly FormatMarker[];

type Marker = (typeof FORMAT_MARKERS)[number];

/** The markers of the formats other than one, by place: what a reader of that format refuses. */
export interface ForeignTable {
  readonly role: ReadonlyMap<string, FormatMarker>;
  readonly messageType: ReadonlyMap<string, FormatMarker>;
  readonly blockType: ReadonlyMap<string, FormatMarker>;
  /** The fields that tell an untyped block of another format. */
  readonly blockKeys: ReadonlyMap<string, FormatMarker>;
  readonly suffixes: readonly FormatMarker[];
  readonly messageKeys: ReadonlyMap<string, FormatMarker>;
  /** Roles of other formats this format uses too, on a content with untyped `parts`. */
  readonly rolesWithParts: ReadonlySet<string>;
}

function foreignTable(format: TranscriptFormat): ForeignTable {
  const foreign = (FORMAT_MARKERS as readonly FormatMarker[]).filter((m) => !m.owners.includes(format));
  const byValue = (place: MarkerPlace) =>
    new Map(foreign.filter((m) => m.place === place && m.suffix !== true).map((m) => [m.value, m]));
  return {
    role: byValue('role'),
    messageType: byValue('messageType'),
    blockType: byValue('blockType'),
    blockKeys: byValue('blockKey'),
    suffixes: foreign.filter((m) => m.suffix === true),
    messageKeys: byValue('messageKey'),
    rolesWithParts: new Set(
      foreign.filter((m) => m.place === 'role' && m.alsoWithParts === format).map((m) => m.value),
    ),
  };
}

/** Per format, the markers of every other format (`FORMAT_MARKERS` it does not own), by the place they stand. */
export const FOREIGN = Object.fromEntries(TRANSCRIPT_FORMATS.map((f) => [f, foreignTable(f)])) as {
  readonly [F in TranscriptFormat]: ForeignTable;
};

/** A foreign marker found: where (after the message path), what was found, and the marker. */
interface Found {
  readonly path: string;
  readonly shown: string;
  readonly marker: FormatMarker;
}

/** The marker a content block's `type` is, if any: an exact type, or one ending in a suffix marker (not the suffix's bare name). */
export function blockTypeMarker(table: ForeignTable, type: string): FormatMarker | undefined {
  const exact = table.blockType.get(type);
  if (exact !== undefined) return exact;
  for (const marker of table.suffixes) if (type.endsWith(marker.value) && type !== marker.value.slice(1)) return marker;
  return undefined;
}

/** The marker of another format a message's role is, if any (see `alsoWithParts`). */
export function foreignRole(message: JsonObject, role: string, table: ForeignTable): FormatMarker | undefined {
  const marker = table.role.get(role);
  if (marker === undefined) return undefined;
  return table.rolesWithParts.has(role) && untypedParts(message['parts']) ? undefined : marker;
}

/** Whether `parts` is Gemini's (untyped parts), not some other list of typed parts. */
export function untypedParts(parts: unknown): boolean {
  return Array.isArray(parts) && parts.every((part) => !isJsonObject(part) || typeof part['type'] !== 'string');
}

function scanBlocks(blocks: unknown, table: ForeignTable, visit: (found: Found) => void): void {
  if (!Array.isArray(blocks)) return;
  for (let j = 0; j < blocks.length; j++) {
    const block: unknown = blocks[j];
    if (!isJsonObject(block)) continue;
    const type = block['type'];
    const byType = typeof type === 'string' ? blockTypeMarker(table, type) : undefined;
    if (byType !== undefined) visit({ path: `.content[${j}].type`, shown: JSON.stringify(type), marker: byType });
    if (typeof type === 'string' || table.blockKeys.size === 0) continue;
    for (const key in block) {
      const byKey = table.blockKeys.get(key);
      if (byKey !== undefined) visit({ path: `.content[${j}].${key}`, shown: `\`${key}\``, marker: byKey });
    }
  }
}

function blocksHoldForeign(blocks: unknown, table: ForeignTable): boolean {
  if (!Array.isArray(blocks)) return false;
  for (let j = 0; j < blocks.length; j++) {
    const block: unknown = blocks[j];
    if (!isJsonObject(block)) continue;
    const type = block['type'];
    if (typeof type === 'string') {
      if (blockTypeMarker(table, type) !== undefined) return true;
    } else if (table.blockKeys.size > 0) for (const key in block) if (table.blockKeys.has(key)) return true;
  }
  return false;
}

/** Whether one message holds a marker of another format: the check's pass, allocation-free. */
export function holdsForeign(message: JsonObject, table: ForeignTable): boolean {
  // One walk over the message's keys: a message has a few, and reading a field it does not have
  // costs more than walking the ones it has.
  for (const key in message) {
    const value = message[key];
    if (value === undefined) continue;
    if (key === 'role') {
      if (typeof value === 'string' && foreignRole(message, value, table) !== undefined) return true;
    } else if (key === 'type') {
      if (typeof value === 'string' && table.messageType.has(value)) return true;
    } else if (key === 'content') {
      if (blocksHoldForeign(value, table)) return true;
    } else if (table.messageKeys.has(key) && (key !== 'parts' || untypedParts(value))) return true;
  }
  return false;
}

/** Visits every marker of another format in one message (paths after the message's own). */
function scanMessage(message: JsonObject, table: ForeignTable, visit: (found: Found) => void): void {
  const role = message['role'];
  const byRole = typeof role === 'string' ? foreignRole(message, role, table) : undefined;
  if (byRole !== undefined) visit({ path: '.role', shown: JSON.stringify(role), marker: byRole });
  const type = message['type'];
  const byType = typeof type === 'string' ? table.messageType.get(type) : undefined;
  if (byType !== undefined) visit({ path: '.type', shown: JSON.stringify(type), marker: byType });
  for (const key in message) {
    const marker = table.messageKeys.get(key);
    const value = message[key];
    if (marker === undefined || value === undefined || (key === 'parts' && !untypedParts(value))) continue;
    visit({ path: `.${key}`, shown: `\`${key}\``, marker });
  }
  scanBlocks(message['content'], table, visit);
}

const FORMAT_LIST = (formats: readonly string[]): string => {
  const quoted = formats.map((f) => `"${f}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
};

/**
 * The first marker of another format in `messages` checked as `format`, as the input error
 * that names its path (under `root`: `messages`, `input`, `contents`), what it is, and the
 * formats the whole history looks like (the formats every foreign marker in it shares, as far
 * as they share one); `undefined` when there is none. One pass; the whole history is read
 * again only to name the formats once a marker was found.
 */
export function foreignStructure(
  messages: readonly unknown[],
  format: TranscriptFormat,
  root: string,
): TranscriptInputError | undefined {
  const table = FOREIGN[format];
  let firstAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (isJsonObject(message) && holdsForeign(message, table)) {
      firstAt = i;
      break;
    }
  }
  if (firstAt < 0) return undefined;
  const inFirst: Found[] = [];
  scanMessage(messages[firstAt] as JsonObject, table, (one) => inFirst.push(one));
  // holdsForeign and scanMessage read the same table: the message holds at least one.
  const found = inFirst[0] as Found;
  let looksLike: readonly TranscriptFormat[] = found.marker.owners;
  for (let i = firstAt; i < messages.length; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) continue;
    scanMessage(message, table, ({ marker }) => {
      const narrowed = looksLike.filter((f) => marker.owners.includes(f));
      if (narrowed.length > 0) looksLike = narrowed;
    });
  }
  const path = `${root}[${firstAt}]${found.path}`;
  return new TranscriptInputError(path, `a history of format "${format}"`, {
    message: `${path}: ${found.shown} is ${found.marker.what}; this history looks like format ${FORMAT_LIST(looksLike)}, not "${format}"`,
    looksLike,
  });
}

/** Raises {@link foreignStructure}'s error, if any. */
export function refuseForeignStructure(messages: readonly unknown[], format: TranscriptFormat, root: string): void {
  const error = foreignStructure(messages, format, root);
  if (error !== undefined) throw error;
}

/** Whether one message holds no marker of a format other than `format` (for the wire schemas). */
export function ownStructure(message: unknown, format: TranscriptFormat): boolean {
  return foreignStructure([message], format, '') === undefined;
}

// ---- Compile time: the same table over a message type. ----

/** The string literals of `T` (not `string` itself). */
type Literals<T> = T extends string ? (string extends T ? never : T) : never;

/** Every key of every member of the union `M`. */
type KeysOf<M> = M extends unknown ? keyof M : never;

/** The element type of the `content` list of a member of `M`. */
type BlocksOf<M> = M extends { readonly content?: infer C } ? (C extends readonly (infer B)[] ? B : never) : never;

/** The literal values (field names) of `M` at each place. */
type FoundAt<M, P extends MarkerPlace> = P extends 'role'
  ? Literals<M extends { readonly role?: infer R } ? R : never>
  : P extends 'messageKey'
    ? Literals<KeysOf<M>>
    : P extends 'messageType'
      ? Literals<M extends { readonly type?: infer T } ? T : never>
      : P extends 'blockType'
        ? Literals<BlocksOf<M> extends infer B ? (B extends { readonly type?: infer T } ? T : never) : never>
        : P extends 'blockKey'
          ? Literals<KeysOf<BlocksOf<M>>>
          : never;

type Pattern<X> = X extends { readonly suffix: true; readonly value: infer V extends string }
  ? `${string}${V}`
  : X extends { readonly value: infer V }
    ? V
    : never;

/** The markers of `M` that are not format `F`'s, as the literal found and the marker. */
type ForeignFound<F extends TranscriptFormat, M, X = Marker> = X extends Marker
  ? [Extract<F, X['owners'][number]>] extends [never]
    ? Extract<FoundAt<M, X['place']>, Pattern<X>> extends infer L extends string
      ? L extends string
        ? {
            readonly place: X['place'];
            readonly found: L;
            readonly owners: X['owners'][number];
            readonly exact: X extends { readonly suffix: true } ? false : true;
          }
        : never
      : never
    : never
  : never;

/**
 * The other formats' markers a message type `M` holds when checked as format `F`: the literal
 * values (`'tool_use'`, `'tool'`, `'tool_calls'`) and the formats they belong to; `never` for
 * none, and for `any` and `never`. Only literal types count (`type: string` tells nothing).
 */
export type ForeignMarkers<F extends TranscriptFormat, M> = 0 extends 1 & M ? never : ForeignFound<F, M>;

/** The exact markers found, when there are some (a suffix marker can match many block types). */
type Exact<X> = [Extract<X, { readonly exact: true }>] extends [never] ? X : Extract<X, { readonly exact: true }>;

/** The found markers of the most telling place: block types (and block fields), then item types, message fields, roles. */
export type MostTelling<X> = [Extract<X, { readonly place: 'blockType' | 'blockKey' }>] extends [never]
  ? [Extract<X, { readonly place: 'messageType' }>] extends [never]
    ? [Extract<X, { readonly place: 'messageKey' }>] extends [never]
      ? X
      : Extract<X, { readonly place: 'messageKey' }>
    : Extract<X, { readonly place: 'messageType' }>
  : Exact<Extract<X, { readonly place: 'blockType' | 'blockKey' }>>;
