/**
 * The rules of turngate's `ChatMessage` the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';
import { TOO_MANY_TOOL_CALLS, TOOL_CALL_ID_TOO_LONG } from '../core/chat-completions.ts';

const LLM_PROVIDER = 'OpenArmature llm-provider §3 (tool_call_id answers a tool call earlier in the list)';

/** The chat rules, by rule id. */
export const CHAT_RULES = {
  // turngate ChatMessage: llm-provider §3, with Chat Completions' position rules.
  'chat.tool_call_unanswered': {
    class: MISSING,
    summary: 'assistant tool_calls without a tool message for each id right after it',
    fix: 'Follow the assistant message directly with one tool message per tool call id, before any other message.',
    source: `${LLM_PROVIDER}; the openai-chat rule`,
    repairable: true,
    kind: 'doc',
  },
  'chat.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool message for a tool call id that is not in the messages',
    fix: 'Remove the tool message, or restore the assistant tool call it answers.',
    source: LLM_PROVIDER,
    repairable: true,
    kind: 'doc',
  },
  'chat.tool_result_not_adjacent': {
    class: ORDER,
    summary: 'tool message separated from the assistant message that made its call',
    fix: 'Move the tool message into the run of tool messages directly after the assistant message with its tool call.',
    source: 'issue 7 (position rules); the openai-chat rule',
    repairable: true,
    kind: 'doc',
  },
  'chat.tool_result_before_call': {
    class: ORDER,
    summary: 'tool message before the assistant message that made its call',
    fix: 'Move the tool message after the assistant message with its tool call.',
    source: LLM_PROVIDER,
    repairable: true,
    kind: 'doc',
  },
  'chat.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool message for one tool call id',
    fix: 'Keep one tool message per tool call id and remove the others.',
    source: 'the openai-chat rule',
    repairable: true,
    kind: 'doc',
  },
  'chat.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the messages',
    fix: 'Give every tool call its own id; drop an assistant message that was appended twice.',
    source: 'the openai-chat rule',
    repairable: true,
    kind: 'doc',
  },
  // Chat Completions' limits on tool calls: a ChatMessage keeps its call ids unchanged on the
  // way to every provider, so a history Chat Completions would refuse for them is refused here
  // (the openai-chat rules, with their sources).
  'chat.tool_call_id_too_long': {
    ...TOOL_CALL_ID_TOO_LONG,
    source: `the openai-chat rule (${TOOL_CALL_ID_TOO_LONG.source})`,
  },
  'chat.too_many_tool_calls': {
    ...TOO_MANY_TOOL_CALLS,
    source: `the openai-chat rule (${TOO_MANY_TOOL_CALLS.source})`,
  },
} as const satisfies Readonly<Record<`chat.${string}`, TranscriptRuleInfo>>;

/** The chat rule ids (`chat.<rule_name>`): the only ones this format's check and repair name. */
export type ChatRule = keyof typeof CHAT_RULES;
