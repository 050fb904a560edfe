/**
 * The rules of the `openai-chat` dialects (`options.dialect`): providers that take Chat
 * Completions messages with requirements of their own. Each rule's metadata names its dialects
 * (`TRANSCRIPT_RULES[rule].dialects`); the reader runs these checks in its one pass, only when
 * the dialect is given. What each provider shares with OpenAI (pairing, position, an empty
 * `tool_calls`, ...) stays the format's own rule. Internal.
 *
 * Sources, per dialect:
 * - DeepSeek, thinking mode (https://api-docs.deepseek.com/guides/thinking_mode, "Tool
 *   Calls"): an assistant message of a turn that made tool calls must carry its
 *   `reasoning_content` back in every later request.
 * - Kimi (Moonshot), thinking models: the same for assistant tool-call messages (the API's 400
 *   in public reports); tool call ids of the form `functions.<name>:<index>` (Kimi K2's tool
 *   call guidance; no 400 is reported for other ids, so it is the id grammar, not a rule).
 * - Groq (https://console.groq.com/docs/openai, "Currently Unsupported OpenAI Features"):
 *   `messages[].name` is refused; any other message property Groq's message schema does not
 *   have (https://console.groq.com/docs/api-reference#chat-create, `messages`) is refused too
 *   (`reasoning_content`, `status`, `metadata`, `timestamp`, `reasoning` on a model without
 *   reasoning: the API's 400 in public reports).
 * - Kimi: an assistant message without tool calls whose content is empty (`''`, `[]`) is
 *   refused (the API's 400 in public reports).
 * - xAI: an assistant message with tool calls and no content (absent, `null` or `[]`) is
 *   refused; tool call arguments must be JSON text.
 *
 * @module
 */
import type { OpenAIChatRule } from './rules.ts';
import type { CheckContext } from '../core/context.ts';
import type { OpenAIChatDialect } from '../core/dialects.ts';
import type { ToolCallIdGrammar } from '../core/ids.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { type LocatedFailure, locate } from '../core/report.ts';
import { MAX_TOOL_CALL_ID } from '../core/tool-runs.ts';

type Rule = OpenAIChatRule;

/** The checks of one dialect, called by the reader for each message of the roles they concern. */
export interface DialectChecks {
  /** An assistant message; `calls` is its number of tool calls. */
  readonly assistant?: (message: JsonObject, i: number, calls: number, shape: LocatedFailure<OpenAIChatRule>[]) => void;
  /** A message of any other role. */
  readonly other?: (message: JsonObject, i: number, shape: LocatedFailure<OpenAIChatRule>[]) => void;
}

const at = (i: number) => `messages[${i}]`;

const fail = locate<Rule>;

/** The ids of an assistant message's tool calls (those with a string id). */
function callIds(message: JsonObject): string[] {
  const list = message['tool_calls'];
  if (!Array.isArray(list)) return [];
  const ids: string[] = [];
  for (const call of list) if (isJsonObject(call) && typeof call['id'] === 'string') ids.push(call['id']);
  return ids;
}

/** The request body's `thinking.type` (`enabled`, `disabled`), if it says. */
function thinkingType(context: CheckContext): unknown {
  const thinking = context.body?.['thinking'];
  return isJsonObject(thinking) ? thinking['type'] : undefined;
}

/**
 * Whether DeepSeek runs in thinking mode: `thinking.type` in the body when it says, else the
 * model (`deepseek-reasoner`; the V4 models, thinking by default; not `deepseek-chat`). With
 * neither, the rule does not run.
 */
export function deepseekThinks(context: CheckContext): boolean {
  const type = thinkingType(context);
  if (type === 'enabled') return true;
  if (type === 'disabled') return false;
  const model = context.model?.toLowerCase();
  return model !== undefined && (model.includes('deepseek-reasoner') || model.includes('deepseek-v4'));
}

/**
 * Whether Kimi thinks: `thinking.type` in the body when it says, else the model (the
 * `kimi-k2-thinking` models, `kimi-k2.5` and later).
 */
export function kimiThinks(context: CheckContext): boolean {
  const type = thinkingType(context);
  if (type === 'enabled') return true;
  if (type === 'disabled') return false;
  const model = context.model?.toLowerCase();
  return model !== undefined && /kimi-k2-thinking|kimi-k2\.[5-9]|kimi-k[3-9]/.test(model);
}

/** An assistant tool-call message without a string `reasoning_content` fails `rule`. */
function reasoningRequired(rule: Rule): DialectChecks {
  return {
    assistant: (message, i, calls, shape) => {
      if (calls > 0 && typeof message['reasoning_content'] !== 'string') {
        fail(shape, rule, callIds(message), `${at(i)}.reasoning_content`, i);
      }
    },
  };
}

/** Whether `text` is JSON text. */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The message properties Groq's schema has, by role (its API reference, `messages`); `name` is
 * in the schema but refused (its own rule). `reasoning` is the assistant field of Groq's
 * reasoning models only (`reasoning_format: 'parsed'`): see {@link groqTakesReasoning}.
 */
const GROQ_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'function_call']),
  tool: new Set(['role', 'content', 'tool_call_id', 'name']),
  function: new Set(['role', 'content', 'name']),
};

/** Whether the model is one of Groq's reasoning models, which take `reasoning` back on assistant messages. */
export function groqTakesReasoning(model: string | undefined): boolean {
  const name = model?.toLowerCase();
  return name !== undefined && /gpt-oss|qwen3|qwen-qwq|deepseek-r1/.test(name);
}

/** A message property's path: `messages[i].key`, or `messages[i]["key"]` for a key that is no identifier. */
export const fieldPath = (i: number, key: string): string =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${at(i)}.${key}` : `${at(i)}[${JSON.stringify(key)}]`;

/**
 * The properties of a message Groq's schema does not have for its role (none for a role it does
 * not know: the format's reader judges the role). `reasoning` counts when `reasoning` is false.
 */
export function groqUnknownFields(message: JsonObject, reasoning: boolean): string[] {
  const role = message['role'];
  const known = typeof role === 'string' ? GROQ_FIELDS[role] : undefined;
  if (known === undefined) return [];
  const unknown: string[] = [];
  for (const key of Object.keys(message)) {
    if (known.has(key) || (reasoning && role === 'assistant' && key === 'reasoning')) continue;
    unknown.push(key);
  }
  return unknown;
}

function groq(reasoning: boolean): DialectChecks {
  const properties = (
    message: JsonObject,
    i: number,
    ids: readonly string[],
    shape: LocatedFailure<OpenAIChatRule>[],
  ) => {
    for (const key of groqUnknownFields(message, reasoning)) {
      fail(shape, 'openai-chat.groq_message_property_unsupported', ids, fieldPath(i, key), i);
    }
    if (message['name'] !== undefined && message['role'] !== 'function') {
      fail(shape, 'openai-chat.groq_message_name_unsupported', [], `${at(i)}.name`, i);
    }
  };
  return {
    assistant: (message, i, _calls, shape) => properties(message, i, callIds(message), shape),
    other: (message, i, shape) => properties(message, i, [], shape),
  };
}

/** Whether a message has no content element: content absent, `null` or `[]` (`''` is a text, if empty). */
const noContent = (content: unknown): boolean =>
  content === undefined || content === null || (Array.isArray(content) && content.length === 0);

/** Kimi refuses an assistant message without tool calls whose content is `''` or `[]` (absent or `null` is the format's own rule). */
function kimi(thinks: boolean): DialectChecks {
  const reasoning = thinks ? reasoningRequired('openai-chat.kimi_reasoning_content_missing') : undefined;
  return {
    assistant: (message, i, calls, shape) => {
      reasoning?.assistant?.(message, i, calls, shape);
      const content = message['content'];
      if (calls === 0 && (content === '' || (Array.isArray(content) && content.length === 0))) {
        fail(shape, 'openai-chat.kimi_assistant_message_empty', [], `${at(i)}.content`, i);
      }
    },
  };
}

const XAI: DialectChecks = {
  assistant: (message, i, calls, shape) => {
    if (calls === 0) return;
    if (noContent(message['content'])) {
      fail(shape, 'openai-chat.xai_assistant_content_missing', callIds(message), `${at(i)}.content`, i);
    }
    const list = message['tool_calls'] as readonly unknown[];
    for (let k = 0; k < list.length; k++) {
      const call = list[k] as JsonObject;
      const fn = call['function'];
      const args = isJsonObject(fn) ? fn['arguments'] : undefined;
      if (typeof args === 'string' && !isJsonText(args)) {
        fail(
          shape,
          'openai-chat.xai_tool_call_arguments_not_json',
          typeof call['id'] === 'string' ? [call['id']] : [],
          `${at(i)}.tool_calls[${k}].function.arguments`,
          i,
          k,
        );
      }
    }
  },
};

/** The checks of `context.dialect` (with its model conditions settled once), or `undefined` for none. */
export function dialectChecks(context: CheckContext): DialectChecks | undefined {
  switch (context.dialect) {
    case 'deepseek':
      return deepseekThinks(context) ? reasoningRequired('openai-chat.deepseek_reasoning_content_missing') : undefined;
    case 'kimi':
      return kimi(kimiThinks(context));
    case 'groq':
      return groq(groqTakesReasoning(context.model));
    case 'xai':
      return XAI;
    default:
      return undefined;
  }
}

const KIMI_PREFIX = 'functions.';
const KIMI_ID = /^functions\.[A-Za-z0-9_-]+:\d+$/;

/**
 * Kimi's tool call ids: `functions.<name>:<index>`, the index counting the history's tool calls
 * from 0 (Kimi K2's tool call guidance; https://github.com/sgl-project/sglang/pull/9606), within
 * the format's {@link MAX_TOOL_CALL_ID} characters (the name is cut to fit).
 */
export const KIMI_TOOL_CALL_IDS: ToolCallIdGrammar = {
  description: `functions.<name>:<index>, at most ${MAX_TOOL_CALL_ID} characters`,
  accepts: (id) => id.length <= MAX_TOOL_CALL_ID && KIMI_ID.test(id),
  mint: (seed) => {
    const suffix = `:${seed.index}`;
    const name = seed.name.replace(/[^A-Za-z0-9_-]/g, '_') || 'tool';
    return `${KIMI_PREFIX}${name.slice(0, MAX_TOOL_CALL_ID - KIMI_PREFIX.length - suffix.length)}${suffix}`;
  },
};

/** The id grammar of a dialect: Kimi's own, else `base` (the format's). */
export function dialectToolCallIds(
  base: ToolCallIdGrammar,
): (dialect: OpenAIChatDialect | undefined) => ToolCallIdGrammar {
  return (dialect) => (dialect === 'kimi' ? KIMI_TOOL_CALL_IDS : base);
}
