/**
 * The LangChain.js rules over a serialized message history. The reader validates what
 * `LangChainMessageSchema` validates (a property test holds the two together), tells each
 * message's form and kind, collects the tool calls of AIMessages and the ToolMessages, and finds
 * the shape failures of calls and ToolMessages in the same pass; the tool-run rules
 * (`core/tool-runs.ts`, as for Chat Completions: LangChain's integrations send each ToolMessage
 * as the provider's tool result, which must follow the call's message) decide the rest.
 *
 * The calls of an AIMessage are its `tool_calls`; when that list is absent or empty, the raw
 * provider calls in `additional_kwargs.tool_calls` (`ChatOpenAI` sends those then, and the
 * `AIMessage` constructor parses them into `tool_calls` when `tool_calls` is absent).
 * `invalid_tool_calls` are not sent by the JS integrations (nothing answers them).
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { contentParts, invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { type LocatedFailure, locate } from '../core/report.ts';
import {
  CARRIED,
  checkToolRuns,
  NO_OWNER,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from '../core/tool-runs.ts';
import { LANGCHAIN_RULES, type LangChainRule } from './rules.ts';
import { CLASS_KINDS, LIKE_KINDS, type LangChainKind, STORED_KINDS } from './wire.ts';

const at = (i: number) => `messages[${i}]`;

type Rule = LangChainRule;

/** A message's serialized form: `toJSON()`, `StoredMessage`, or a message-like object. */
export type LangChainForm = 'constructor' | 'stored' | 'like';

/** Where a form keeps the message's fields, after the message's own path. */
export const FIELDS_AT: Readonly<Record<LangChainForm, string>> = { constructor: '.kwargs', stored: '.data', like: '' };

/** What {@link readLangChain} collects, beyond the tool runs: each message's form and kind. */
export interface LangChainRead extends ToolRunRead<LangChainRule> {
  readonly forms: readonly LangChainForm[];
  readonly kinds: readonly LangChainKind[];
}

/** The form of a message already read (the reader's test, without validation). */
export function formOf(message: JsonObject): LangChainForm {
  return message['lc'] !== undefined ? 'constructor' : message['data'] !== undefined ? 'stored' : 'like';
}

/** A message's fields (the `kwargs`, the `data`, or the message itself), for a message already read. */
export function fieldsOf(message: JsonObject): JsonObject {
  const form = formOf(message);
  return (form === 'constructor' ? message['kwargs'] : form === 'stored' ? message['data'] : message) as JsonObject;
}

/**
 * The list an AIMessage's calls come from (read already): `tool_calls` when it holds some, else
 * `additional_kwargs.tool_calls`; with its path after the message's own.
 */
export function callList(fields: JsonObject): { readonly list: readonly unknown[]; readonly raw: boolean } {
  const calls = fields['tool_calls'];
  if (Array.isArray(calls) && calls.length > 0) return { list: calls, raw: false };
  const extra = fields['additional_kwargs'];
  const raw = isJsonObject(extra) ? extra['tool_calls'] : undefined;
  return Array.isArray(raw) && raw.length > 0 ? { list: raw, raw: true } : { list: [], raw: false };
}

/** Where the call at `slot` of message `message` stands (a message already read). */
export function langChainCallAt(messages: readonly unknown[], message: number, slot: number): string {
  const m = messages[message] as JsonObject;
  const form = formOf(m);
  const { raw } = callList(fieldsOf(m));
  return `${listAt(message, form, raw)}[${slot}]`;
}

const fail = locate<Rule>;

/** Where the calls of message `i` stand: `messages[i]` + the form's field + `.tool_calls` (raw: under `additional_kwargs`). */
const listAt = (i: number, form: LangChainForm, raw: boolean) =>
  `${at(i)}${FIELDS_AT[form]}${raw ? '.additional_kwargs' : ''}.tool_calls`;

/** A LangChain `ToolCall` (`{ id, name, args }`), or `undefined` for one without an id (a rule failure). */
function readCall(
  call: unknown,
  form: LangChainForm,
  i: number,
  k: number,
  seq: number,
  shape: LocatedFailure<LangChainRule>[],
) {
  if (!isJsonObject(call)) invalid(`${listAt(i, form, false)}[${k}]`, 'a tool call object ({ id, name, args })');
  const name = call['name'];
  if (typeof name !== 'string') invalid(`${listAt(i, form, false)}[${k}].name`, 'a string');
  const id = call['id'];
  if (id !== undefined && id !== null && typeof id !== 'string')
    invalid(`${listAt(i, form, false)}[${k}].id`, 'a string');
  const hasId = typeof id === 'string' && id !== '';
  if (!isJsonObject(call['args'])) {
    const ids = hasId ? [id] : [];
    fail(shape, 'langchain.tool_call_args_not_object', ids, `${listAt(i, form, false)}[${k}].args`, i, k);
  }
  if (!hasId) {
    fail(shape, 'langchain.tool_call_id_missing', [], `${listAt(i, form, false)}[${k}].id`, i, k);
    return undefined;
  }
  const site: CallSite = { key: id, name, message: i, slot: k, seq, server: false, answered: false, claimed: false };
  return site;
}

/** A raw provider call of `additional_kwargs.tool_calls` (`{ id, function: { name, arguments } }`); LangChain skips entries without `function`. */
function readRawCall(
  call: unknown,
  form: LangChainForm,
  i: number,
  k: number,
  seq: number,
  shape: LocatedFailure<LangChainRule>[],
) {
  if (!isJsonObject(call)) return undefined;
  const fn = call['function'];
  if (!isJsonObject(fn)) return undefined;
  const id = call['id'];
  const name = fn['name'];
  if (typeof id !== 'string' || id === '') {
    fail(shape, 'langchain.tool_call_id_missing', [], `${listAt(i, form, true)}[${k}].id`, i, k);
    return undefined;
  }
  const site: CallSite = {
    key: id,
    name: typeof name === 'string' ? name : '',
    message: i,
    slot: k,
    seq,
    server: false,
    answered: false,
    claimed: false,
  };
  return site;
}

/** The kind of message `i` (of form `form`), or raises for a value that is no LangChain message. */
function kindOf(message: JsonObject, form: LangChainForm, i: number): LangChainKind {
  const type = message['type'];
  let kind: LangChainKind | undefined;
  if (form === 'constructor') {
    if (message['lc'] !== 1) invalid(`${at(i)}.lc`, '1 (a message serialized by toJSON())');
    if (type !== 'constructor') invalid(`${at(i)}.type`, "'constructor'");
    const id = message['id'];
    if (!Array.isArray(id) || id.length === 0)
      invalid(`${at(i)}.id`, "the class path, e.g. ['langchain_core', 'messages', 'AIMessage']");
    for (let k = 0; k < id.length; k++) if (typeof id[k] !== 'string') invalid(`${at(i)}.id[${k}]`, 'a string');
    kind = CLASS_KINDS.get(id[id.length - 1] as string);
    if (kind === undefined)
      invalid(
        `${at(i)}.id[${id.length - 1}]`,
        'a message class: HumanMessage, AIMessage, SystemMessage, ToolMessage, FunctionMessage or ChatMessage (or its Chunk)',
      );
    if (!isJsonObject(message['kwargs'])) invalid(`${at(i)}.kwargs`, 'the message fields object');
  } else if (form === 'stored') {
    kind = typeof type === 'string' ? STORED_KINDS.get(type) : undefined;
    if (kind === undefined) invalid(`${at(i)}.type`, "'human', 'ai', 'system', 'tool', 'function' or 'generic'");
    if (!isJsonObject(message['data'])) invalid(`${at(i)}.data`, 'the message fields object');
  } else {
    kind = typeof type === 'string' ? LIKE_KINDS.get(type) : undefined;
    if (kind === undefined)
      invalid(`${at(i)}.type`, "'human', 'user', 'ai', 'assistant', 'system', 'developer' or 'tool'");
  }
  return kind;
}

/** Reads a history: raises a `TranscriptInputError` for input that is not LangChain messages. */
export function readLangChain(messages: readonly unknown[]): LangChainRead {
  const n = messages.length;
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  const shape: LocatedFailure<LangChainRule>[] = [];
  const forms: LangChainForm[] = [];
  const kinds: LangChainKind[] = [];
  let seq = 0;
  // The run of ToolMessages being read: the message it follows, and that message's calls.
  let owner = CARRIED;
  let from = 0;
  let to = 0;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const form = formOf(message);
    const kind = kindOf(message, form, i);
    forms.push(form);
    kinds.push(kind);
    const fields = (
      form === 'constructor' ? message['kwargs'] : form === 'stored' ? message['data'] : message
    ) as JsonObject;
    const content = fields['content'];
    if (content !== undefined && content !== null && typeof content !== 'string')
      contentParts(content, `${at(i)}${FIELDS_AT[form]}.content`, false);
    if (kind === 'tool') {
      const id = fields['tool_call_id'];
      if (id !== undefined && id !== null && typeof id !== 'string')
        invalid(`${at(i)}${FIELDS_AT[form]}.tool_call_id`, 'a string');
      const status = fields['status'];
      if (status !== undefined && status !== null && status !== 'success' && status !== 'error')
        invalid(`${at(i)}${FIELDS_AT[form]}.status`, "'success' or 'error'");
      const key = typeof id === 'string' && id !== '' ? id : undefined;
      toolMessages.push({ key, message: i, seq: seq++, incomplete: key === undefined, owner, from, to });
      continue;
    }
    if (kind === 'ai') {
      const list = fields['tool_calls'];
      if (list !== undefined && list !== null && !Array.isArray(list))
        invalid(`${at(i)}${FIELDS_AT[form]}.tool_calls`, 'an array of tool calls');
      const first = calls.length;
      if (Array.isArray(list) && list.length > 0) {
        for (let k = 0; k < list.length; k++) {
          const call = readCall(list[k], form, i, k, seq, shape);
          if (call !== undefined) {
            calls.push(call);
            seq++;
          }
        }
      } else {
        // The raw provider calls, as callList reads them (written out: no list object per message).
        const extra = fields['additional_kwargs'];
        const raw = isJsonObject(extra) ? extra['tool_calls'] : undefined;
        const count = Array.isArray(raw) ? raw.length : 0;
        for (let k = 0; k < count; k++) {
          const call = readRawCall((raw as unknown[])[k], form, i, k, seq, shape);
          if (call !== undefined) {
            calls.push(call);
            seq++;
          }
        }
      }
      owner = i;
      from = first;
      to = calls.length;
      continue;
    }
    if (kind === 'function' && typeof fields['name'] !== 'string')
      invalid(`${at(i)}${FIELDS_AT[form]}.name`, 'a string');
    if (kind === 'generic' && typeof fields['role'] !== 'string')
      invalid(`${at(i)}${FIELDS_AT[form]}.role`, 'a string');
    owner = NO_OWNER;
    from = 0;
    to = 0;
  }
  return { lastOwner: owner, calls, toolMessages, shape, forms, kinds };
}

/** The LangChain rules, as the tool-run rules name them (no id length or call count limit: LangChain sets none). */
export const LANGCHAIN_TOOL_RUNS: ToolRunRules<LangChainRule> = {
  table: LANGCHAIN_RULES,
  unanswered: 'langchain.tool_call_unanswered',
  orphan: 'langchain.tool_message_orphan',
  notAdjacent: 'langchain.tool_message_not_adjacent',
  beforeCall: 'langchain.tool_message_before_call',
  duplicateResult: 'langchain.duplicate_tool_message',
  duplicateCall: 'langchain.duplicate_tool_call_id',
  missingField: 'langchain.tool_message_missing_id',
};

/** Checks a LangChain history against every LangChain rule. */
export function checkLangChain(messages: readonly unknown[], context: CheckContext): CheckOutcome<LangChainRule> {
  return checkToolRuns(readLangChain(messages), LANGCHAIN_TOOL_RUNS, context, (call) =>
    langChainCallAt(messages, call.message, call.slot),
  );
}
