/**
 * The Mistral chat completions rules over `messages`. The reader validates what
 * `MistralMessageSchema` validates, collects calls and tool messages, and finds in the same pass
 * the failures of Mistral's own rules (the order of roles, the tool call id grammar, `prefix`,
 * empty assistant messages, function names); the tool-run rules shared with `openai-chat`
 * (`core/tool-runs.ts`) decide pairing and position. Paths are written only for failures.
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import type { Extension } from '../core/driver.ts';
import { digestChars, type ToolCallIdGrammar } from '../core/ids.ts';
import { contentParts, invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { isToolName } from '../core/names.ts';
import { type LocatedFailure, locate } from '../core/report.ts';
import {
  CARRIED,
  checkToolRuns,
  NO_OWNER,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from '../core/tool-runs.ts';
import { MISTRAL_RULES, type MistralRule } from './rules.ts';

const at = (i: number) => `messages[${i}]`;
const callPath = (i: number, k: number) => `messages[${i}].tool_calls[${k}]`;

type Rule = MistralRule;

/**
 * The tool call ids Mistral takes: exactly 9 of `a-z A-Z 0-9`, on calls and tool messages alike
 * (mistral-common `MistralRequestValidatorV3`: "Tool call id was … but must be a-z, A-Z, 0-9,
 * with a length of 9.").
 */
export const MISTRAL_TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

/** Whether `id` matches {@link MISTRAL_TOOL_CALL_ID} (a loop over its 9 characters: this runs once per call). */
function isMistralId(id: string): boolean {
  if (id.length !== 9) return false;
  for (let i = 0; i < 9; i++) {
    const c = id.charCodeAt(i);
    // 0-9, A-Z, a-z
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/** The Mistral id grammar: {@link MISTRAL_TOOL_CALL_ID}, minted as 9 alphanumerics of the seed's digest. */
export const MISTRAL_TOOL_CALL_IDS: ToolCallIdGrammar = {
  description: 'exactly 9 characters of a-z, A-Z, 0-9',
  accepts: isMistralId,
  mint: (seed) => digestChars(seed.digest, 9),
};

/** What the Mistral reader collects: the tool-run read, and whether the history ends with an assistant message that is no prefix and makes no call. */
export interface MistralRead extends ToolRunRead<MistralRule> {
  /** The index of the last message when it is an assistant message without `prefix: true` and without tool calls; -1 otherwise. */
  readonly closingAssistant: number;
  /** The last message's role (`undefined` for no message). */
  readonly lastRole: 'system' | 'user' | 'assistant' | 'tool' | undefined;
}

const fail = locate<Rule>;

function readCall(call: unknown, i: number, k: number, seq: number, shape: LocatedFailure<MistralRule>[]): CallSite {
  if (!isJsonObject(call)) invalid(callPath(i, k), 'a tool call object');
  const id = call['id'];
  if (typeof id !== 'string') invalid(`${callPath(i, k)}.id`, 'a string');
  const fn = call['function'];
  if (!isJsonObject(fn)) invalid(`${callPath(i, k)}.function`, 'an object with name and arguments');
  const name = fn['name'];
  if (typeof name !== 'string') invalid(`${callPath(i, k)}.function.name`, 'a string');
  if (!isToolName(name)) fail(shape, 'mistral.function_name_invalid', [id], `${callPath(i, k)}.function.name`, i, k);
  const args = fn['arguments'];
  if (typeof args !== 'string' && !isJsonObject(args)) {
    invalid(`${callPath(i, k)}.function.arguments`, 'an arguments object or its JSON text');
  }
  return { key: id, name, message: i, slot: k, seq, server: false, answered: false, claimed: false };
}

/** Refuses the SDK's camelCase name of a wire field (`toolCalls`, `toolCallId`), naming the wire's. */
function camelCase(message: JsonObject, i: number, sdk: string, wire: string): void {
  if (message[sdk] !== undefined) {
    invalid(`${at(i)}.${sdk}`, `${wire} (the wire JSON's field; ${sdk} is the SDK's TypeScript name for it)`);
  }
}

/** Reads `messages`: raises a `TranscriptInputError` for input that is not Mistral messages. */
export function readMistral(messages: readonly unknown[]): MistralRead {
  const n = messages.length;
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  const shape: LocatedFailure<MistralRule>[] = [];
  let seq = 0;
  // The run of tool messages being read: the message it follows, and that message's calls.
  let owner = CARRIED;
  let from = 0;
  let to = 0;
  let previous: unknown;
  let closingAssistant = -1;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    const content = message['content'];
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (id === undefined) camelCase(message, i, 'toolCallId', 'tool_call_id');
      if (id !== undefined && id !== null && typeof id !== 'string') invalid(`${at(i)}.tool_call_id`, 'a string');
      const key = typeof id === 'string' ? id : undefined;
      contentParts(content, `${at(i)}.content`, false);
      const name = message['name'];
      if (name !== undefined && name !== null) {
        if (typeof name !== 'string') invalid(`${at(i)}.name`, 'a string');
        if (!isToolName(name))
          fail(shape, 'mistral.function_name_invalid', key === undefined ? [] : [key], `${at(i)}.name`, i);
      }
      // Every failure of the message is reported: its place in the role order here, its pairing
      // by the tool-run rules.
      if (previous === 'user' || previous === 'system') fail(shape, 'mistral.tool_after_user', [], at(i), i);
      toolMessages.push({ key, message: i, seq: seq++, incomplete: key === undefined, owner, from, to });
      previous = role;
      continue;
    }
    if (role === 'assistant') {
      const hasContent =
        contentParts(content, `${at(i)}.content`, false) && !(Array.isArray(content) && content.length === 0);
      const list = message['tool_calls'];
      if (list === undefined) camelCase(message, i, 'toolCalls', 'tool_calls');
      const first = calls.length;
      let count = 0;
      if (list !== undefined && list !== null) {
        if (!Array.isArray(list)) invalid(`${at(i)}.tool_calls`, 'an array of tool calls');
        count = list.length;
        for (let k = 0; k < count; k++) calls.push(readCall(list[k], i, k, seq++, shape));
      }
      if (count === 0 && !hasContent) fail(shape, 'mistral.assistant_message_empty', [], `${at(i)}.content`, i);
      const prefix = message['prefix'] === true;
      if (prefix && i !== n - 1) fail(shape, 'mistral.prefix_not_last', [], `${at(i)}.prefix`, i);
      if (i === n - 1 && !prefix && count === 0) closingAssistant = i;
      owner = i;
      from = first;
      to = calls.length;
      previous = role;
      continue;
    }
    owner = NO_OWNER;
    from = 0;
    to = 0;
    if (role === 'user') {
      contentParts(content, `${at(i)}.content`, false);
      if (previous === 'tool') fail(shape, 'mistral.user_after_tool', [], at(i), i);
    } else if (role === 'system') {
      contentParts(content, `${at(i)}.content`, true);
      if (previous === 'assistant' || previous === 'tool')
        fail(shape, 'mistral.system_message_misplaced', [], at(i), i);
    } else {
      invalid(`${at(i)}.role`, "'system', 'user', 'assistant' or 'tool'");
    }
    previous = role;
  }
  return {
    lastOwner: owner,
    calls,
    toolMessages,
    shape,
    closingAssistant,
    lastRole: previous as MistralRead['lastRole'],
  };
}

/** The Mistral rules, as the tool-run rules name them. */
export const MISTRAL_TOOL_RUNS: ToolRunRules<MistralRule> = {
  table: MISTRAL_RULES,
  unanswered: 'mistral.tool_call_unanswered',
  orphan: 'mistral.tool_message_orphan',
  notAdjacent: 'mistral.tool_message_not_adjacent',
  beforeCall: 'mistral.tool_message_before_call',
  duplicateResult: 'mistral.duplicate_tool_message',
  duplicateCall: 'mistral.duplicate_tool_call_id',
  missingField: 'mistral.tool_message_missing_id',
  idGrammar: { rule: 'mistral.tool_call_id_invalid', grammar: MISTRAL_TOOL_CALL_IDS },
};

/** Where a Mistral tool call stands. */
export const mistralCallAt = (call: CallSite): string => callPath(call.message, call.slot);

/**
 * Checks Mistral `messages` against every Mistral rule. A history about to be sent must not end
 * with an assistant message unless it is a prefix (`mistral.last_message_assistant`); one just
 * received (`expect: 'received'`) ends with the model's own message.
 */
export function checkMistral(messages: readonly unknown[], context: CheckContext): CheckOutcome<MistralRule> {
  const read = readMistral(messages);
  if (read.closingAssistant >= 0 && context.expect === 'sendable') {
    (read.shape as LocatedFailure<MistralRule>[]).push({
      rule: 'mistral.last_message_assistant',
      ids: [],
      message: read.closingAssistant,
      slot: -1,
      at: at(read.closingAssistant),
    });
  }
  return checkToolRuns(read, MISTRAL_TOOL_RUNS, context, mistralCallAt);
}

/** The id of the call standing for a history that ends with a tool message (9 letters, as the grammar takes). */
const LEAD_CALL_ID = 'leadCall0';

/** The messages standing for a history's last message, by its role (none of them fails a rule). */
const LEADS: Readonly<Record<NonNullable<MistralRead['lastRole']>, readonly unknown[]>> = {
  system: [{ role: 'system', content: '.' }],
  user: [{ role: 'user', content: '.' }],
  assistant: [{ role: 'assistant', content: '.', prefix: true }],
  tool: [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: LEAD_CALL_ID, type: 'function', function: { name: 'lead', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: LEAD_CALL_ID, content: '.' },
  ],
};

/**
 * What a checked Mistral history carries for its extension by a tail read alone
 * (`FormatDriver.extendable`): its calls (the tool-run rules pair by id within a run, as
 * `openai-chat`'s do: `toolRunCalls`), and messages standing for its last message, which the
 * tail's check reads first: the role-order rules (`user_after_tool`, `tool_after_user`,
 * `system_message_misplaced`) read a message's predecessor. A history ending with a tool message
 * is stood for by a call and its answer, so a tail tool message is paired in neither (as in the
 * whole history, where the history's calls are all answered); one ending with an assistant
 * message (a prefix, the only one an accepted history ends with) by a prefix, which a tail makes
 * `prefix_not_last` in both checks.
 */
export function mistralExtendable(analysis: unknown): Extension {
  const read = analysis as MistralRead;
  return read.lastRole === undefined ? { calls: read.calls } : { calls: read.calls, lead: LEADS[read.lastRole] };
}
