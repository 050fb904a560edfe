/**
 * The rules of OpenAI Chat Completions the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';
import { TOO_MANY_TOOL_CALLS, TOOL_CALL_ID_TOO_LONG } from '../core/chat-completions.ts';

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
  // The shape of tool calls and tool messages: 400s the API answers for a history whose tool
  // structure is recognizable but malformed (the error texts of public reports).
  'openai-chat.tool_calls_empty': {
    class: SCHEMA,
    summary: "assistant message with an empty 'tool_calls' list",
    fix: 'Leave tool_calls out of an assistant message that made no tool call.',
    source:
      'https://github.com/openai/openai-node/pull/1341; https://github.com/openai/openai-python/issues/2061; https://github.com/home-assistant/core/pull/118577',
    providerError:
      "Invalid 'messages[N].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.too_many_tool_calls': TOO_MANY_TOOL_CALLS,
  'openai-chat.tool_call_type_invalid': {
    class: SCHEMA,
    summary: "tool call with a 'function' object whose 'type' is missing or not 'function'",
    fix: "Set the tool call's type to 'function'.",
    source: 'https://github.com/langchain-ai/langchain-azure/issues/35',
    providerError: "Missing required parameter: 'messages[N].tool_calls[K].type'.",
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.function_name_invalid': {
    class: SCHEMA,
    summary:
      'tool call function name empty, longer than 64 characters, or with characters other than a-z, A-Z, 0-9, _ and -',
    fix: 'Name the function with 1 to 64 of a-z, A-Z, 0-9, _ and -, the same in `tools` and in the history.',
    source: `${OPENAI_CHAT_REFERENCE} (tools, function name); https://github.com/continuedev/continue/issues/9784; https://github.com/mcp-use/mcp-use/pull/94; https://github.com/microsoft/foundry-dev-tools/issues/723; https://portkey.ai/error-library/input-validation-error-10047 (the model's own multi_tool_use.parallel)`,
    providerError:
      "Invalid 'messages[N].tool_calls[K].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead. (also: string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.; string too long. Expected a string with maximum length 64, but got a string with length … instead.; earlier: '…' does not match '^[a-zA-Z0-9_-]{1,64}$' - 'messages.N.tool_calls.0.function.name')",
    repairable: false,
    kind: 'observed',
  },
  'openai-chat.tool_call_arguments_not_string': {
    class: SCHEMA,
    summary: "tool call whose 'function.arguments' is not a string (the JSON text of the arguments)",
    fix: "Send the arguments as their JSON text: arguments: JSON.stringify(args), '{}' for none.",
    source: `${OPENAI_CHAT_REFERENCE} (assistant message, tool_calls); https://github.com/aaif-goose/goose-mobile/pull/20; https://github.com/mark3labs/mcphost/issues/117`,
    providerError:
      "Invalid type for 'messages[N].tool_calls[K].function.arguments': expected a string, but got an object instead. (absent: Missing required parameter: 'messages[N].tool_calls[K].function.arguments'.)",
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.tool_call_id_too_long': TOOL_CALL_ID_TOO_LONG,
  'openai-chat.function_call_with_tool_calls': {
    class: SCHEMA,
    summary: "assistant message holding both the legacy 'function_call' and 'tool_calls'",
    fix: "Drop the legacy function_call: tool_calls carries the model's calls.",
    source: 'https://github.com/langchain-ai/langchain/pull/31198',
    repairable: true,
    kind: 'observed',
  },
  'openai-chat.assistant_message_empty': {
    class: SCHEMA,
    summary: 'assistant message with neither content nor tool_calls (nor function_call, refusal or audio)',
    fix: "Give the assistant message its text, or content: '' when it said nothing.",
    source: `${OPENAI_CHAT_REFERENCE} (assistant message, content: required unless tool_calls or function_call is specified); https://github.com/vercel/ai/pull/13744; https://github.com/vercel/ai/pull/14950`,
    providerError: "Invalid value for 'content': expected a string, got null.",
    repairable: true,
    kind: 'doc',
  },
  'openai-chat.tool_message_content_not_text': {
    class: SCHEMA,
    summary: 'tool message whose content is neither a string nor a list of content parts (a raw JSON value)',
    fix: 'Send the tool result as text: content: JSON.stringify(result).',
    source: `${OPENAI_CHAT_REFERENCE} (tool message, content); https://github.com/langchain-ai/langgraphjs/issues/506; https://github.com/neuron-core/neuron-ai/issues/76`,
    providerError: "Missing required parameter: 'messages[N].content[0].type'.",
    repairable: true,
    kind: 'doc',
  },
  'openai-chat.tool_message_non_text_part': {
    class: SCHEMA,
    summary: 'tool message content part that is not text (an image, audio or file part)',
    fix: 'Keep only text in the tool message; send the image in a user message after the run of tool messages.',
    source: `${OPENAI_CHAT_REFERENCE} (tool message, content parts: text only); https://github.com/OpenHands/OpenHands/issues/7700`,
    providerError:
      "Invalid 'messages[N]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
    repairable: false,
    kind: 'doc',
  },
  'openai-chat.function_message_name_missing': {
    class: SCHEMA,
    summary: "legacy 'function' message without the string 'name' of the function it answers",
    fix: 'Give the function message the name of the function_call it answers, or send the result as a tool message with its tool_call_id.',
    source: `${OPENAI_CHAT_REFERENCE} (function message, deprecated: name required)`,
    providerError: "Missing required parameter: 'messages[N].name'.",
    repairable: false,
    kind: 'doc',
  },
  // Dialect rules (`options.dialect`): providers that take Chat Completions messages with
  // requirements of their own; each runs only for its dialects.
  'openai-chat.deepseek_reasoning_content_missing': {
    class: SCHEMA,
    summary: "DeepSeek thinking mode: assistant message with tool calls sent back without its 'reasoning_content'",
    fix: 'Send every assistant message that made tool calls back with the reasoning_content the API returned with it.',
    source:
      'https://api-docs.deepseek.com/guides/thinking_mode (Tool Calls); https://github.com/continuedev/continue/issues/10193; https://github.com/hotovo/aider-desk/issues/529; https://github.com/openai/openai-agents-python/issues/2155',
    providerError:
      'Missing `reasoning_content` field in the assistant message at message index N. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
    repairable: false,
    kind: 'doc',
    dialects: ['deepseek'],
    models:
      'DeepSeek thinking mode: deepseek-reasoner and the deepseek-v4 models, or a body with thinking: {type: "enabled"} (not thinking: {type: "disabled"})',
  },
  'openai-chat.kimi_reasoning_content_missing': {
    class: SCHEMA,
    summary: "Kimi thinking model: assistant message with tool calls sent back without its 'reasoning_content'",
    fix: 'Send every assistant message that made tool calls back with the reasoning_content the API returned with it.',
    source:
      'https://github.com/continuedev/continue/issues/11600; https://github.com/continuedev/continue/issues/11711; https://github.com/sipeed/picoclaw/issues/588; https://github.com/continuedev/continue/pull/11806',
    providerError: 'thinking is enabled but reasoning_content is missing in assistant tool call message at index N',
    repairable: false,
    kind: 'observed',
    dialects: ['kimi'],
    models:
      'Kimi thinking models: kimi-k2-thinking*, kimi-k2.5 and later, or a body with thinking: {type: "enabled"} (not thinking: {type: "disabled"})',
  },
  'openai-chat.groq_message_name_unsupported': {
    class: SCHEMA,
    summary: "Groq: message with a 'name' field (messages[].name is not supported)",
    fix: 'Leave name out of the messages sent to Groq.',
    source: 'https://console.groq.com/docs/openai (Currently Unsupported OpenAI Features: messages[].name)',
    repairable: true,
    kind: 'doc',
    dialects: ['groq'],
  },
  'openai-chat.groq_message_property_unsupported': {
    class: SCHEMA,
    summary:
      "Groq: message with a property Groq's message schema does not have for its role (reasoning_content, status, metadata, timestamp, id, reasoning on a model without reasoning ...)",
    fix: 'Send Groq only the fields of its message schema: role, content, tool_calls on assistant messages, tool_call_id on tool messages.',
    source:
      'https://console.groq.com/docs/api-reference#chat-create (messages); https://github.com/SimonSchubert/Kai/issues/265; https://github.com/janhq/jan/issues/8136; https://github.com/ServiceStack/llms/issues/17; https://github.com/karthink/gptel/issues/774; https://github.com/vercel/ai/pull/8057',
    providerError:
      "'messages.N' : for 'role:assistant' the following must be satisfied[('messages.N' : property 'reasoning_content' is unsupported)]",
    repairable: true,
    kind: 'observed',
    dialects: ['groq'],
  },
  'openai-chat.kimi_assistant_message_empty': {
    class: SCHEMA,
    summary: "Kimi: assistant message without tool calls whose content is empty ('' or [])",
    fix: 'Leave the empty assistant message out of the history sent to Kimi, or give it its text.',
    source:
      'https://github.com/AstrBotDevs/AstrBot/issues/7200; https://github.com/MoonshotAI/kimi-code/issues/1985; https://github.com/lobehub/lobehub/pull/8419; https://github.com/labring/FastGPT/issues/3575',
    providerError: "Invalid request: the message at position N with role 'assistant' must not be empty",
    repairable: false,
    kind: 'observed',
    dialects: ['kimi'],
  },
  'openai-chat.xai_assistant_content_missing': {
    class: SCHEMA,
    summary: 'xAI: assistant message with tool calls and no content element (content absent, null or [])',
    fix: "Give the assistant message content: '' when it made tool calls without text.",
    source: 'https://github.com/langchain-ai/langchain/issues/34140; https://github.com/charmbracelet/crush/issues/964',
    providerError: 'Invalid request content: Each message must have at least one content element.',
    repairable: true,
    kind: 'observed',
    dialects: ['xai'],
  },
  'openai-chat.xai_tool_call_arguments_not_json': {
    class: SCHEMA,
    summary: "xAI: tool call whose 'function.arguments' is a string that is not JSON text (an empty string included)",
    fix: "Send the arguments as their JSON text: '{}' for none.",
    source: 'https://github.com/spiceai/spiceai/issues/4734',
    providerError:
      'The arguments to a tool_call with ID \'…\' are not a valid JSON string. Parsing error: Error("EOF while parsing a value", line: 1, column: 0)',
    repairable: false,
    kind: 'observed',
    dialects: ['xai'],
  },
} as const satisfies Readonly<Record<`openai-chat.${string}`, TranscriptRuleInfo>>;

/** The openai-chat rule ids (`openai-chat.<rule_name>`): the only ones this format's check and repair name. */
export type OpenAIChatRule = keyof typeof OPENAI_CHAT_RULES;
