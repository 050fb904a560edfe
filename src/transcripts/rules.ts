/**
 * The provider rules the transcript check enforces: one entry per rule id, with its failure
 * class, what breaks it, the one-sentence fix, and its source. The one home of rule metadata:
 * the checkers emit rule ids, the report reads class and fix from here.
 *
 * `kind: 'observed'` marks a rule that rests on the provider's behaviour (its 400 error texts in
 * public bug reports) rather than on a documentation page. `conformance/transcripts/RULES.md`
 * states each rule in full, with the provider's error text.
 *
 * @module
 */
import type { FailureClass } from '../failures/index.ts';

const ANTHROPIC_TOOL_CALLS = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls';
const ANTHROPIC_PARALLEL = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use';
const ANTHROPIC_SERVER_TOOLS = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools';
const ANTHROPIC_THINKING = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';
const OPENAI_FUNCTION_CALLING = 'https://platform.openai.com/docs/guides/function-calling';
const OPENAI_CHAT_REFERENCE = 'https://platform.openai.com/docs/api-reference/chat/create';
const OPENAI_RESPONSES_REFERENCE = 'https://platform.openai.com/docs/api-reference/responses/create';
const OPENAI_REASONING = 'https://platform.openai.com/docs/guides/reasoning';
const AISDK_MISSING_RESULTS = 'https://ai-sdk.dev/docs/troubleshooting/missing-tool-results-error';
const AISDK_APPROVAL = 'https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-invalid-tool-approval-error';
const AISDK_APPROVAL_CALL = 'https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-tool-call-not-found-for-approval-error';
const GEMINI_FUNCTION_CALLING = 'https://ai.google.dev/gemini-api/docs/function-calling';
const GEMINI_FUNCTION_RESPONSE = 'https://ai.google.dev/api/caching#FunctionResponse';
const LLM_PROVIDER = 'OpenArmature llm-provider §3 (tool_call_id answers a tool call earlier in the list)';

const MISSING: FailureClass = 'tool.result_missing';
const ORPHAN: FailureClass = 'tool.result_orphan';
const ORDER: FailureClass = 'protocol.parallel_transport_order_invalid';
const SCHEMA: FailureClass = 'tool.schema_invalid';

/**
 * One rule: its failure class, what breaks it (`summary`), how to fix it (`fix`), its source
 * (a provider doc page, or a public bug report for `observed` rules) and `kind`.
 *
 * @example
 * ```ts
 * import { TRANSCRIPT_RULES, type TranscriptRuleInfo } from 'turngate/transcripts';
 * const info: TranscriptRuleInfo = TRANSCRIPT_RULES['openai-chat.tool_call_unanswered'];
 * info.class; //=> 'tool.result_missing'
 * ```
 */
export interface TranscriptRuleInfo {
  /** The failure class (`FAILURE_CLASSES`). */
  readonly class: FailureClass;
  /** What breaks the rule, in a few words. */
  readonly summary: string;
  /** One sentence telling the user what to change. */
  readonly fix: string;
  /** The provider doc page (and section) or public bug report the rule rests on. */
  readonly source: string;
  /** `doc` when a documentation page states it, `observed` when it rests on provider behaviour. */
  readonly kind: 'doc' | 'observed';
}

/**
 * Every rule the transcript check enforces, by rule id (`<format>.<rule_name>`).
 *
 * @example
 * ```ts
 * import { TRANSCRIPT_RULES } from 'turngate/transcripts';
 * TRANSCRIPT_RULES['anthropic.tool_result_not_first'].class; //=> 'protocol.parallel_transport_order_invalid'
 * ```
 */
export const TRANSCRIPT_RULES = {
  // Anthropic Messages API. Source of the pairing and position rules: "Handle tool calls",
  // section "Tool result formatting" (results in the next user message, first in its content),
  // and "Parallel tool use" (every result of a batch in that one message).
  'anthropic.tool_use_unanswered': {
    class: MISSING,
    summary: 'tool_use without a tool_result in the user turn right after it',
    fix: 'Put a tool_result block for each of these ids at the start of the user message that directly follows the assistant message.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting); ${ANTHROPIC_PARALLEL}`,
    kind: 'doc',
  },
  'anthropic.tool_result_not_first': {
    class: ORDER,
    summary: 'content before a tool_result in its user turn',
    fix: 'Move the tool_result blocks to the start of the user turn; text and other content go after them.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting); ${ANTHROPIC_PARALLEL}`,
    kind: 'doc',
  },
  'anthropic.tool_result_not_immediately_after': {
    class: ORDER,
    summary: 'tool_result not in the user turn right after its tool_use',
    fix: 'Move the tool_result into the user message that directly follows the assistant message holding its tool_use.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    kind: 'doc',
  },
  'anthropic.tool_result_before_call': {
    class: ORDER,
    summary: 'tool_result before its tool_use',
    fix: 'Move the tool_result after the assistant message holding its tool_use, into the user message right after it.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    kind: 'doc',
  },
  'anthropic.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool_result for a tool_use id that is not in the request',
    fix: 'Remove the tool_result, or restore the assistant tool_use it answers.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    kind: 'doc',
  },
  // Observed: "`tool_use` ids must be unique" (https://github.com/anthropics/claude-code/issues/20573).
  'anthropic.duplicate_tool_use_id': {
    class: SCHEMA,
    summary: 'tool_use id used twice in the request',
    fix: 'Give every tool_use and server_tool_use block its own id; drop a block that was appended twice.',
    source: 'https://github.com/anthropics/claude-code/issues/20573; https://github.com/HKUDS/nanobot/issues/4442',
    kind: 'observed',
  },
  // Observed: a second result for one tool_use is refused (https://github.com/QwenLM/qwen-code/pull/8163).
  'anthropic.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool_result for one tool_use',
    fix: 'Keep one tool_result per tool_use id and remove the others.',
    source: 'https://github.com/QwenLM/qwen-code/pull/8163; https://github.com/RooCodeInc/Roo-Code/pull/9248',
    kind: 'observed',
  },
  // "Server tools" (pause_turn): a paused turn goes back as it is; otherwise observed 400s
  // (https://github.com/anthropics/anthropic-sdk-python/issues/1339).
  'anthropic.server_tool_use_unanswered': {
    class: MISSING,
    summary: 'server_tool_use without its result block in the same assistant message',
    fix: 'Send the assistant message back exactly as the API returned it (its server result block included); only a pause_turn message may end unanswered, as the last message.',
    source: `${ANTHROPIC_SERVER_TOOLS} (pause_turn); https://github.com/anthropics/anthropic-sdk-python/issues/1339; https://github.com/anthropics/anthropic-sdk-python/issues/961`,
    kind: 'observed',
  },
  // Observed (https://github.com/anthropics/claude-code/issues/64383).
  'anthropic.server_tool_result_orphan': {
    class: ORPHAN,
    summary: 'server tool result block without its server_tool_use before it',
    fix: 'Keep the server result block after its server_tool_use in the same assistant message, or remove it.',
    source: 'https://github.com/anthropics/claude-code/issues/64383',
    kind: 'observed',
  },
  'anthropic.server_tool_answered_by_client': {
    class: ORPHAN,
    summary: 'client tool_result answering a server_tool_use',
    fix: 'Remove the tool_result: the API runs server tools and writes their results into the assistant message itself.',
    source: `${ANTHROPIC_SERVER_TOOLS} (how server tools work)`,
    kind: 'doc',
  },
  'anthropic.thinking_block_missing': {
    class: SCHEMA,
    summary: 'thinking enabled but the assistant message answered last does not start with its thinking block',
    fix: 'Pass the assistant message back unchanged, starting with its thinking or redacted_thinking block (signature included).',
    source: `${ANTHROPIC_THINKING} (preserving thinking blocks)`,
    kind: 'doc',
  },

  // OpenAI Chat Completions: the guide appends one tool message per call after the assistant
  // message; the position rules are enforced by the API (observed error texts).
  'openai-chat.tool_call_unanswered': {
    class: MISSING,
    summary: "assistant 'tool_calls' without a tool message for each id right after it",
    fix: 'Follow the assistant message directly with one tool message per tool_call_id, before any other message.',
    source: `${OPENAI_FUNCTION_CALLING} (handling function calls); https://github.com/BerriAI/litellm/issues/10083`,
    kind: 'observed',
  },
  'openai-chat.tool_message_orphan': {
    class: ORPHAN,
    summary: 'tool message for a tool_call_id that is not in the request',
    fix: 'Remove the tool message, or restore the assistant tool call it answers.',
    source: 'https://github.com/openai/openai-go/issues/43',
    kind: 'observed',
  },
  'openai-chat.tool_message_not_adjacent': {
    class: ORDER,
    summary: 'tool message separated from the assistant message that made its call',
    fix: 'Move the tool message into the run of tool messages directly after the assistant message with its tool call; other messages go after that run.',
    source: 'https://github.com/sdcb/chats/pull/132; https://github.com/dimagi/open-chat-studio/issues/1659',
    kind: 'observed',
  },
  'openai-chat.tool_message_before_call': {
    class: ORDER,
    summary: 'tool message before the assistant message that made its call',
    fix: 'Move the tool message after the assistant message with its tool call, into the run of tool messages right after it.',
    source: 'https://github.com/run-llama/llama_index/issues/10493',
    kind: 'observed',
  },
  'openai-chat.duplicate_tool_message': {
    class: SCHEMA,
    summary: 'second tool message for one tool_call_id',
    fix: 'Keep one tool message per tool_call_id and remove the others.',
    source: 'https://github.com/agno-agi/agno/issues/5116; https://github.com/neuron-core/neuron-ai/issues/46',
    kind: 'observed',
  },
  'openai-chat.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the request',
    fix: 'Give every tool call its own id; drop an assistant message that was appended twice.',
    source: 'https://github.com/openclaw/openclaw/pull/40996; https://github.com/can1357/oh-my-pi/issues/2055',
    kind: 'observed',
  },
  'openai-chat.tool_message_missing_field': {
    class: SCHEMA,
    summary: 'tool message without tool_call_id or content',
    fix: 'Give the tool message the tool_call_id of the call it answers and its content (a string or text parts).',
    source: `${OPENAI_CHAT_REFERENCE} (messages, tool message)`,
    kind: 'doc',
  },

  // OpenAI Responses: pairing by call_id anywhere after the call (observed error texts).
  'openai-responses.function_call_unanswered': {
    class: MISSING,
    summary: 'call item without an output item with its call_id after it',
    fix: 'Add an output item (function_call_output, custom_tool_call_output, ...) with this call_id after the call.',
    source: `${OPENAI_FUNCTION_CALLING} (function tool example); https://github.com/openai/openai-support-agent-demo/issues/12`,
    kind: 'observed',
  },
  'openai-responses.function_call_output_orphan': {
    class: ORPHAN,
    summary: 'output item for a call_id that is not in the input',
    fix: 'Remove the output item, or add the call item it answers before it (or send previous_response_id).',
    source:
      'https://github.com/continuedev/continue/issues/10092; https://community.openai.com/t/issue-with-new-responses-api-400-no-tool-call-found-for-function-call-output-with-call-id/1142327',
    kind: 'observed',
  },
  'openai-responses.function_call_output_before_call': {
    class: ORDER,
    summary: 'output item before its call item',
    fix: 'Move the output item after the call item with the same call_id.',
    source: 'https://github.com/continuedev/continue/issues/10092 (the API resolves call_id against earlier items)',
    kind: 'observed',
  },
  'openai-responses.duplicate_item_id': {
    class: SCHEMA,
    summary: 'item id used twice in the input',
    fix: 'Send each item once; drop the repeated item (or the items the server already holds under previous_response_id).',
    source:
      'https://github.com/vercel/ai/issues/13307; https://github.com/vercel/ai/issues/7883; https://github.com/MacPaw/OpenAI/issues/432',
    kind: 'observed',
  },
  'openai-responses.duplicate_function_call_output': {
    class: SCHEMA,
    summary: 'second output item for one call_id',
    fix: 'Keep one output item per call_id and remove the others.',
    source: 'https://github.com/NousResearch/hermes-agent/pull/111443',
    kind: 'observed',
  },
  'openai-responses.reasoning_without_following_item': {
    class: ORDER,
    summary: 'reasoning item without the item that followed it in the response',
    fix: 'Keep each reasoning item directly before the call or message it came with, or drop the reasoning item.',
    source: `${OPENAI_REASONING} (keeping reasoning items in context); https://github.com/openai/openai-agents-js/issues/326; https://github.com/continuedev/continue/issues/8933`,
    kind: 'observed',
  },
  'openai-responses.output_missing_field': {
    class: SCHEMA,
    summary: 'output item without output or call_id',
    fix: 'Give the output item the call_id of its call and its output.',
    source: `${OPENAI_RESPONSES_REFERENCE} (input items, function tool call output)`,
    kind: 'doc',
  },

  // AI SDK: MissingToolResultsError (doc); the rest are the providers' rules behind it.
  'aisdk.tool_call_unanswered': {
    class: MISSING,
    summary: 'tool-call without its tool-result before the next user or system message',
    fix: 'Add a tool message with a tool-result part for each of these toolCallIds before the next user or system message.',
    source: AISDK_MISSING_RESULTS,
    kind: 'doc',
  },
  'aisdk.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool-result for a toolCallId that is not in the messages',
    fix: 'Remove the tool-result part, or restore the assistant tool-call it answers.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    kind: 'observed',
  },
  'aisdk.tool_result_before_call': {
    class: ORDER,
    summary: 'tool-result before its tool-call',
    fix: 'Move the tool-result into a tool message after the assistant message with its tool-call.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    kind: 'observed',
  },
  'aisdk.tool_result_separated': {
    class: ORDER,
    summary: 'tool-result after a user or system message that follows its tool-call',
    fix: 'Move the tool-result into the tool messages right after its tool-call, before the next user or system message.',
    source: 'https://github.com/MayDay-wpf/snow-app/pull/9; https://github.com/dimagi/open-chat-studio/issues/1659',
    kind: 'observed',
  },
  'aisdk.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'toolCallId used by two tool-call parts',
    fix: 'Give every tool-call its own toolCallId; drop an assistant message that was appended twice.',
    source: 'https://github.com/vercel/ai/issues/13307',
    kind: 'observed',
  },
  'aisdk.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool-result for one toolCallId',
    fix: 'Keep one tool-result per toolCallId and remove the others.',
    source: 'https://github.com/agno-agi/agno/issues/5116',
    kind: 'observed',
  },
  'aisdk.approval_response_unknown': {
    class: ORPHAN,
    summary: 'tool-approval-response without its tool-approval-request',
    fix: 'Answer only approval requests that stand in an earlier assistant message (same approvalId), or remove the response.',
    source: `${AISDK_APPROVAL}; https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling (tool execution approval)`,
    kind: 'doc',
  },
  'aisdk.approval_request_unknown_call': {
    class: SCHEMA,
    summary: 'tool-approval-request for a toolCallId that is not in the messages',
    fix: 'Point the approval request at the toolCallId of a tool-call in the messages, or remove it.',
    source: AISDK_APPROVAL_CALL,
    kind: 'doc',
  },

  // Gemini generateContent: the function calling guide; the position rules are observed 400s.
  'gemini.function_call_unanswered': {
    class: MISSING,
    summary: 'functionCall without a functionResponse in the user content right after it',
    fix: 'Answer every functionCall of the model content with a functionResponse part in the user content that directly follows it.',
    source: `${GEMINI_FUNCTION_CALLING} (parallel function calling); https://github.com/google-gemini/gemini-cli/issues/4217`,
    kind: 'observed',
  },
  'gemini.function_response_orphan': {
    class: ORPHAN,
    summary: 'functionResponse for a call that is not in the contents',
    fix: 'Remove the functionResponse part, or restore the model functionCall it answers.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    kind: 'observed',
  },
  'gemini.function_response_not_after_call': {
    class: ORDER,
    summary: 'functionResponse not in the user content right after its call',
    fix: 'Move the functionResponse into the user content that directly follows the model content with its functionCall.',
    source:
      'https://github.com/langchain-ai/langchain/issues/27799; https://github.com/GoogleCloudPlatform/generative-ai/pull/368',
    kind: 'observed',
  },
  'gemini.function_call_turn_misplaced': {
    class: ORDER,
    summary: 'function call turn not directly after a user content',
    fix: 'Put a user content (a user turn or the function responses) directly before the model content with function calls.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/11814',
    kind: 'observed',
  },
  'gemini.duplicate_function_response': {
    class: SCHEMA,
    summary: 'second functionResponse for one call',
    fix: 'Keep one functionResponse per functionCall and remove the others.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    kind: 'observed',
  },
  'gemini.function_response_missing_name': {
    class: SCHEMA,
    summary: 'functionResponse without name or response',
    fix: 'Give the functionResponse the name of the function it answers and its response object.',
    source: `${GEMINI_FUNCTION_RESPONSE} (name and response are required)`,
    kind: 'doc',
  },

  // turngate ChatMessage: llm-provider §3, with Chat Completions' position rules.
  'chat.tool_call_unanswered': {
    class: MISSING,
    summary: 'assistant tool_calls without a tool message for each id right after it',
    fix: 'Follow the assistant message directly with one tool message per tool call id, before any other message.',
    source: `${LLM_PROVIDER}; the openai-chat rule`,
    kind: 'doc',
  },
  'chat.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool message for a tool call id that is not in the messages',
    fix: 'Remove the tool message, or restore the assistant tool call it answers.',
    source: LLM_PROVIDER,
    kind: 'doc',
  },
  'chat.tool_result_not_adjacent': {
    class: ORDER,
    summary: 'tool message separated from the assistant message that made its call',
    fix: 'Move the tool message into the run of tool messages directly after the assistant message with its tool call.',
    source: 'issue 7 (position rules); the openai-chat rule',
    kind: 'doc',
  },
  'chat.tool_result_before_call': {
    class: ORDER,
    summary: 'tool message before the assistant message that made its call',
    fix: 'Move the tool message after the assistant message with its tool call.',
    source: LLM_PROVIDER,
    kind: 'doc',
  },
  'chat.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool message for one tool call id',
    fix: 'Keep one tool message per tool call id and remove the others.',
    source: 'the openai-chat rule',
    kind: 'doc',
  },
  'chat.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the messages',
    fix: 'Give every tool call its own id; drop an assistant message that was appended twice.',
    source: 'the openai-chat rule',
    kind: 'doc',
  },
} as const satisfies Readonly<Record<string, TranscriptRuleInfo>>;

/**
 * A rule id, e.g. `anthropic.tool_result_not_first`.
 *
 * @example
 * ```ts
 * import type { TranscriptRule } from 'turngate/transcripts';
 * const rule: TranscriptRule = 'gemini.function_call_unanswered';
 * ```
 */
export type TranscriptRule = keyof typeof TRANSCRIPT_RULES;
