/**
 * The rules of OpenAI Chat Completions the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const OPENAI_FUNCTION_CALLING = 'https://platform.openai.com/docs/guides/function-calling';
const OPENAI_CHAT_REFERENCE = 'https://platform.openai.com/docs/api-reference/chat/create';

/** The openai-chat rules, by rule id. */
export const OPENAI_CHAT_RULES = {
  // OpenAI Chat Completions: the guide appends one tool message per call after the assistant
  // message; the position rules are enforced by the API (observed error texts).
  'openai-chat.tool_call_unanswered': {
    class: MISSING,
    summary: "assistant 'tool_calls' without a tool message for each id right after it",
    fix: 'Follow the assistant message directly with one tool message per tool_call_id, before any other message.',
    source: `${OPENAI_FUNCTION_CALLING} (handling function calls); https://github.com/BerriAI/litellm/issues/10083`,
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.tool_message_orphan': {
    class: ORPHAN,
    summary: 'tool message for a tool_call_id that is not in the request',
    fix: 'Remove the tool message, or restore the assistant tool call it answers.',
    source: 'https://github.com/openai/openai-go/issues/43',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.tool_message_not_adjacent': {
    class: ORDER,
    summary: 'tool message separated from the assistant message that made its call',
    fix: 'Move the tool message into the run of tool messages directly after the assistant message with its tool call; other messages go after that run.',
    source: 'https://github.com/sdcb/chats/pull/132; https://github.com/dimagi/open-chat-studio/issues/1659',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.tool_message_before_call': {
    class: ORDER,
    summary: 'tool message before the assistant message that made its call',
    fix: 'Move the tool message after the assistant message with its tool call, into the run of tool messages right after it.',
    source: 'https://github.com/run-llama/llama_index/issues/10493',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.duplicate_tool_message': {
    class: SCHEMA,
    summary: 'second tool message for one tool_call_id',
    fix: 'Keep one tool message per tool_call_id and remove the others.',
    source: 'https://github.com/agno-agi/agno/issues/5116; https://github.com/neuron-core/neuron-ai/issues/46',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the request',
    fix: 'Give every tool call its own id; drop an assistant message that was appended twice.',
    source: 'https://github.com/openclaw/openclaw/pull/40996; https://github.com/can1357/oh-my-pi/issues/2055',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.tool_message_missing_field': {
    class: SCHEMA,
    summary: 'tool message without tool_call_id or content',
    fix: 'Give the tool message the tool_call_id of the call it answers and its content (a string or text parts).',
    source: `${OPENAI_CHAT_REFERENCE} (messages, tool message)`,
    repairable: true,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`openai-chat.${string}`, TranscriptRuleInfo>>;
