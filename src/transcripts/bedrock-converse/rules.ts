/**
 * The rules of the Amazon Bedrock Converse API (`messages` of `Converse` / `ConverseStream`) the
 * transcript check enforces: one entry per rule id, with its failure class, what breaks it, the
 * fix, its source and the provider's own error text (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const API = 'https://docs.aws.amazon.com/bedrock/latest/APIReference';
const TOOL_USE = 'https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html';
const THINKING = 'https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html';

/** The count error: Bedrock answers it for a user message holding more results than the calls before it. */
const EXCEEDS =
  'The number of toolResult blocks at messages.….content exceeds the number of toolUse blocks of previous turn.';

/** The bedrock-converse rules, by rule id. */
export const BEDROCK_CONVERSE_RULES = {
  // Turn order: the API's own 400s.
  'bedrock-converse.first_message_not_user': {
    class: ORDER,
    summary: 'conversation that does not start with a user message',
    fix: 'Start messages with a user message (the system prompt goes in the request system field, not in messages).',
    source:
      'https://github.com/langgenius/dify/issues/12340; https://github.com/elastic/kibana/pull/246393; https://github.com/strands-agents/harness-sdk/issues/2085',
    providerError:
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    repairable: true,
    kind: 'observed',
  },
  'bedrock-converse.roles_not_alternating': {
    class: ORDER,
    summary: 'message followed by a message of the same role (roles must alternate user, assistant)',
    fix: 'Join consecutive messages of one role into one message: one user message holds all the tool results of a turn and any text that follows them.',
    source: `${API}/API_runtime_Message.html (role user or assistant); https://github.com/langchain-ai/langchain-aws/issues/130; https://github.com/microsoft/semantic-kernel/issues/10281; https://github.com/Portkey-AI/gateway/issues/748`,
    providerError:
      'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
    repairable: true,
    kind: 'observed',
  },
  // Pairing: the tool use guide (results go back in the next user message) and the count errors.
  'bedrock-converse.tool_use_unanswered': {
    class: MISSING,
    summary: 'toolUse without a toolResult in the user message right after it',
    fix: 'Answer every toolUse of the assistant message with a toolResult block in the user message that directly follows it (one message for all of them).',
    source: `${TOOL_USE} (step 3: send the tool result in a user message); https://github.com/crewAIInc/crewAI/issues/4749`,
    providerError: 'Expected toolResult blocks at messages.….content for the following Ids: …',
    repairable: true,
    kind: 'observed',
  },
  'bedrock-converse.tool_result_orphan': {
    class: ORPHAN,
    summary: 'toolResult for a toolUse that is not in the messages',
    fix: 'Remove the toolResult block, or restore the assistant toolUse it answers.',
    source:
      'https://github.com/Just-Curieous/Curie/issues/16; https://github.com/strands-agents/sdk-python/issues/1435',
    providerError: EXCEEDS,
    repairable: true,
    kind: 'observed',
  },
  'bedrock-converse.tool_result_not_after_call': {
    class: ORDER,
    summary: 'toolResult not in the user message right after the assistant message holding its toolUse',
    fix: 'Move the toolResult into the user message that directly follows the assistant message with its toolUse.',
    source: `${TOOL_USE} (step 3); https://github.com/pydantic/pydantic-ai/issues/2327; https://github.com/langgenius/dify-official-plugins/issues/765`,
    providerError: EXCEEDS,
    repairable: true,
    kind: 'observed',
  },
  'bedrock-converse.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second toolResult for one toolUse',
    fix: 'Keep one toolResult per toolUse and remove the others.',
    source: 'https://github.com/strands-agents/sdk-python/issues/1435',
    providerError: EXCEEDS,
    repairable: true,
    kind: 'observed',
  },
  // Shape of the blocks: the API reference.
  // The id grammar: the sources disagree. `ToolResultBlock` documents `[a-zA-Z0-9_-]+`; some
  // versions of `ToolUseBlock` and the streaming pages (`ToolUseBlockStart`,
  // `ToolResultBlockStart`), and the server's own validation texts reported in 2026, admit `.`
  // and `:` (`[a-zA-Z0-9_.:-]+`). The rule keeps the documented pattern of the result block, the
  // narrower one: a result carries its call's id, so it is the one a round trip takes.
  'bedrock-converse.tool_use_id_invalid': {
    class: SCHEMA,
    summary: 'toolUseId outside the API grammar (1 to 64 letters, digits, _ and -)',
    fix: 'Use tool use ids of 1 to 64 characters from [a-zA-Z0-9_-] (the same id on the toolUse and on its toolResult).',
    source: `${API}/API_runtime_ToolUseBlock.html (toolUseId); ${API}/API_runtime_ToolResultBlock.html (toolUseId: pattern [a-zA-Z0-9_-]+, length 1 to 64); ${API}/API_runtime_ToolUseBlockStart.html and some versions of ToolUseBlock admit . and : ([a-zA-Z0-9_.:-]+; not followed: the result block keeps the narrower pattern)`,
    repairable: true,
    kind: 'doc',
  },
  'bedrock-converse.tool_use_name_invalid': {
    class: SCHEMA,
    summary:
      'toolUse name in the history outside the API grammar (1 to 64 letters, digits, _ and -; a dotted name included)',
    fix: 'Send tool names of 1 to 64 characters from [a-zA-Z0-9_-] (module.function becomes module_function), in the history as in toolConfig.',
    source: `${API}/API_runtime_ToolUseBlock.html (name: pattern [a-zA-Z0-9_-]+, length 1 to 64); https://github.com/openclaw/openclaw/issues/12892; https://github.com/pydantic/pydantic-ai/pull/4631; https://github.com/vercel/ai/pull/17769`,
    providerError:
      "Value at 'messages.N.member.content.K.member.toolUse.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
    repairable: true,
    kind: 'doc',
  },
  'bedrock-converse.tool_result_status_invalid': {
    class: SCHEMA,
    summary: "toolResult whose status is neither 'success' nor 'error'",
    fix: "Set the toolResult status to 'success' or 'error', or leave it out.",
    source: `${API}/API_runtime_ToolResultBlock.html (status: valid values success | error)`,
    repairable: false,
    kind: 'doc',
  },
  'bedrock-converse.tool_result_json_not_object': {
    class: SCHEMA,
    summary: 'toolResult content json block whose value is not a JSON object',
    fix: 'Wrap the value in an object ({ "result": … }) or send it as a text block.',
    source: 'https://github.com/aws/aws-sdk-js-v3/issues/7330',
    providerError:
      'The format of the value at messages.….content.….toolResult.content.….json is invalid. Provide a json object for the field and try again.',
    repairable: true,
    kind: 'observed',
  },
  'bedrock-converse.message_content_empty': {
    class: SCHEMA,
    summary: 'message without content blocks',
    fix: 'Remove the empty message, or give it its content blocks.',
    source: `${API}/API_runtime_Message.html (content is required); https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-bedrock-promptversion-message.html (content: minimum 1)`,
    repairable: true,
    kind: 'doc',
  },
  'bedrock-converse.text_block_blank': {
    class: SCHEMA,
    summary: 'text block that is empty or only whitespace',
    fix: 'Remove the blank text block (an assistant message holding only toolUse needs no text).',
    source:
      'https://github.com/aws-amplify/amplify-backend/issues/2977; https://mwartell.github.io/posts/collaborative-development-docs-exhibit-1',
    providerError:
      'The text field in the ContentBlock object at messages.….content.… is blank. Add text to the text field, and try again.',
    repairable: true,
    kind: 'observed',
  },
  // The request around the messages.
  'bedrock-converse.tool_config_missing': {
    class: SCHEMA,
    summary: 'request body with toolUse or toolResult blocks in its messages but no toolConfig',
    fix: 'Send toolConfig (the tools the history used) with every request whose messages hold toolUse or toolResult blocks.',
    source:
      'https://github.com/langgenius/dify/issues/16421; https://github.com/vxcontrol/pentagi/issues/160; https://github.com/vercel/ai/pull/7537',
    providerError: 'The toolConfig field must be defined when using toolUse and toolResult content blocks.',
    repairable: false,
    kind: 'observed',
  },
  'bedrock-converse.reasoning_block_missing': {
    class: SCHEMA,
    summary:
      'with extended thinking on, the assistant message that opens the current tool use loop does not start with its reasoningContent block',
    fix: 'Send the assistant message back as the model returned it, with its reasoningContent block (text and signature unchanged) before its toolUse blocks.',
    source: `${THINKING} (extended thinking with tool use: pass the thinking blocks back); https://github.com/spring-projects/spring-ai/issues/6413; https://github.com/NousResearch/hermes-agent/issues/36260`,
    repairable: false,
    kind: 'observed',
  },
} as const satisfies Readonly<Record<`bedrock-converse.${string}`, TranscriptRuleInfo>>;

/** The bedrock-converse rule ids (`bedrock-converse.<rule_name>`): the only ones this format's check and repair name. */
export type BedrockConverseRule = keyof typeof BEDROCK_CONVERSE_RULES;
