/**
 * The rules of LangChain.js message histories the transcript check enforces: one entry per
 * rule id, with its failure class, what breaks it, the fix and its source (see
 * `TRANSCRIPT_RULES`). LangChain passes a history to the provider through its chat model
 * integrations (`ChatOpenAI`, `ChatAnthropic`, ...), so the rules are LangChain's own error
 * pages and code, and the provider 400s LangChain.js and LangGraph.js users report.
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const INVALID_TOOL_RESULTS = 'https://docs.langchain.com/oss/javascript/langchain/errors/INVALID_TOOL_RESULTS';
const INVALID_CHAT_HISTORY = 'https://docs.langchain.com/oss/javascript/langgraph/errors/INVALID_CHAT_HISTORY';
const CORE = 'https://github.com/langchain-ai/langchainjs/blob/main/libs/langchain-core/src';

/** The langchain rules, by rule id. */
export const LANGCHAIN_RULES = {
  'langchain.tool_call_unanswered': {
    class: MISSING,
    summary: "AIMessage 'tool_calls' without a ToolMessage for each id right after it",
    fix: 'Follow the AIMessage directly with one ToolMessage per tool call id (tool_call_id), before any other message.',
    source: `${INVALID_TOOL_RESULTS} (insufficient responses); ${INVALID_CHAT_HISTORY}; https://github.com/langchain-ai/langchainjs/issues/6621`,
    providerError:
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: …",
    repairable: true,
    kind: 'doc',
  },
  'langchain.tool_message_orphan': {
    class: ORPHAN,
    summary: 'ToolMessage whose tool_call_id is no tool call in the history',
    fix: 'Remove the ToolMessage, or restore the AIMessage tool call it answers.',
    source: `${INVALID_TOOL_RESULTS} (orphaned tool messages); https://github.com/langchain-ai/task_mAIstro/issues/1; https://github.com/langchain-ai/langgraph/issues/5582`,
    providerError:
      "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'. (Anthropic: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.)",
    repairable: true,
    kind: 'doc',
  },
  'langchain.tool_message_not_adjacent': {
    class: ORDER,
    summary: 'ToolMessage separated from the AIMessage that made its call',
    fix: 'Move the ToolMessage into the run of ToolMessages directly after the AIMessage with its tool call; other messages go after that run.',
    source:
      'https://github.com/langchain-ai/langchainjs/issues/7573; https://github.com/langchain-ai/langchainjs/pull/11021',
    providerError:
      'Did not find … `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    repairable: true,
    kind: 'observed',
  },
  'langchain.tool_message_before_call': {
    class: ORDER,
    summary: 'ToolMessage before the AIMessage that made its call',
    fix: 'Move the ToolMessage after the AIMessage with its tool call, into the run of ToolMessages right after it.',
    source: `${INVALID_TOOL_RESULTS} (a ToolMessage without a preceding AIMessage holding its call); https://github.com/langchain-ai/task_mAIstro/issues/1`,
    providerError:
      "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.",
    repairable: true,
    kind: 'doc',
  },
  'langchain.duplicate_tool_message': {
    class: SCHEMA,
    summary: 'second ToolMessage for one tool_call_id',
    fix: 'Keep one ToolMessage per tool_call_id and remove the others.',
    source: `${INVALID_TOOL_RESULTS} (duplicate responses)`,
    repairable: true,
    kind: 'doc',
  },
  'langchain.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the history',
    fix: 'Give every tool call its own id (in tool_calls and in any provider block of the content that carries it); drop an AIMessage appended twice.',
    source:
      'https://github.com/anthropics/claude-code/issues/20631 (ChatAnthropic sends tool call ids as tool_use ids unchanged); https://github.com/langchain-ai/langchainjs/issues/8300',
    providerError: 'messages.N.content.K: `tool_use` ids must be unique',
    repairable: false,
    kind: 'observed',
  },
  'langchain.tool_message_missing_id': {
    class: SCHEMA,
    summary: 'ToolMessage without a tool_call_id (absent, null or empty)',
    fix: 'Give the ToolMessage the tool_call_id of the tool call it answers.',
    source: `${CORE}/messages/utils.ts (mapStoredMessageToChatMessage: "Tool call ID must be defined for tool messages"; coerceMessageLikeToMessage: MESSAGE_COERCION_FAILURE); https://github.com/langchain-ai/langchain/issues/22600`,
    providerError: "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
    repairable: true,
    kind: 'doc',
  },
  'langchain.tool_call_id_missing': {
    class: SCHEMA,
    summary: 'AIMessage tool call without an id (absent, null or empty)',
    fix: 'Give the tool call the id the model returned, and its ToolMessage the same tool_call_id.',
    source: `${CORE}/output_parsers/openai_tools/json_output_tools_parsers.ts (convertLangChainToolCallToOpenAI); https://github.com/langchain-ai/langchainjs/blob/main/libs/providers/langchain-anthropic/src/utils/message_inputs.ts (_convertLangChainToolCallToAnthropic)`,
    providerError:
      'All OpenAI tool calls must have an "id" field. (ChatAnthropic: Anthropic requires all tool calls to have an "id".)',
    repairable: false,
    kind: 'doc',
  },
  'langchain.tool_call_args_not_object': {
    class: SCHEMA,
    summary: "tool call whose 'args' is not an object (a JSON string, an array, null or absent)",
    fix: 'Give the tool call its arguments as an object: args: JSON.parse(text) for the JSON text a provider returned, {} for none.',
    source: `${CORE}/messages/tool.ts (ToolCall.args: an object); https://github.com/langchain-ai/langchain/pull/28915 (maintainer: args should always be a dict); ChatAnthropic sends args as the tool_use input, which the Messages API takes as an object`,
    repairable: false,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`langchain.${string}`, TranscriptRuleInfo>>;

/** The langchain rule ids (`langchain.<rule_name>`): the only ones this format's check and repair name. */
export type LangChainRule = keyof typeof LANGCHAIN_RULES;
