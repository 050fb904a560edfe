/**
 * The rules of the AI SDK `ModelMessage[]` the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const AISDK_MISSING_RESULTS = 'https://ai-sdk.dev/docs/troubleshooting/missing-tool-results-error';
const AISDK_APPROVAL = 'https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-invalid-tool-approval-error';
const AISDK_APPROVAL_CALL = 'https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-tool-call-not-found-for-approval-error';
const AISDK_APPROVAL_FLOW = 'https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#tool-execution-approval';
const AISDK_MODEL_MESSAGE = 'https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message';
const AISDK_MIGRATION_5 =
  'https://ai-sdk.dev/docs/migration-guides/migration-guide-5-0 (Tool Property Changes (args/result → input/output))';
const AISDK_INVALID_PROMPT = 'https://ai-sdk.dev/docs/reference/ai-sdk-errors/ai-invalid-prompt-error';

/** What `generateText` / `streamText` throw (AI SDK 5, then 6) for messages that fail the `ModelMessage` schema. */
const INVALID_PROMPT_TEXT =
  'Invalid prompt: The messages must be a ModelMessage[]. If you have passed a UIMessage[], you can use convertToModelMessages to convert them. (AI_InvalidPromptError, ai 5); Invalid prompt: The messages do not match the ModelMessage[] schema. (ai 6)';
const MISSING_RESULTS_TEXT =
  'Tool result is missing for tool call …. / Tool results are missing for tool calls …. (AI_MissingToolResultsError)';
const ANTHROPIC_ORPHAN_TEXT =
  'messages.…: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.';
const ANTHROPIC_UNANSWERED_TEXT =
  'messages.…: `tool_use` ids were found without `tool_result` blocks immediately after: …. Each `tool_use` block must have a corresponding `tool_result` block in the next message.';
const INPUT_NOT_OBJECT_TEXT =
  'messages.….content.….tool_use.input: Input should be a valid dictionary (Anthropic); The format of the value at messages.….content.….toolUse.input is invalid. Provide a json object for the field and try again. (Amazon Bedrock)';
const INPUT_REPORTS =
  'https://github.com/vercel/ai/issues/13645 (Anthropic); https://github.com/vercel/ai/issues/14442 (Amazon Bedrock); https://github.com/vercel/ai/pull/8173 (Google)';

/** The aisdk rules, by rule id. */
export const AISDK_RULES = {
  // AI SDK: MissingToolResultsError (doc); the rest are the providers' rules behind it.
  'aisdk.tool_call_unanswered': {
    class: MISSING,
    summary: 'tool-call without its tool-result before the next user or system message',
    fix: 'Add a tool message with a tool-result part for each of these toolCallIds before the next user or system message.',
    source: AISDK_MISSING_RESULTS,
    providerError: MISSING_RESULTS_TEXT,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool-result for a toolCallId that is not in the messages',
    fix: 'Remove the tool-result part, or restore the assistant tool-call it answers.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    providerError: ANTHROPIC_ORPHAN_TEXT,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_result_before_call': {
    class: ORDER,
    summary: 'tool-result before its tool-call',
    fix: 'Move the tool-result into a tool message after the assistant message with its tool-call.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    providerError: ANTHROPIC_ORPHAN_TEXT,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_result_separated': {
    class: ORDER,
    summary: 'tool-result after a user or system message that follows its tool-call',
    fix: 'Move the tool-result into the tool messages right after its tool-call, before the next user or system message.',
    source: 'https://github.com/MayDay-wpf/snow-app/pull/9; https://github.com/dimagi/open-chat-studio/issues/1659',
    providerError: ANTHROPIC_UNANSWERED_TEXT,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_result_in_assistant_message': {
    class: ORDER,
    summary: 'tool-result for a client tool-call inside an assistant message',
    fix: 'Move the tool-result into a tool message after the assistant message: only the result of a providerExecuted call stays in the assistant message.',
    source: `${AISDK_MISSING_RESULTS}; ${AISDK_MODEL_MESSAGE} (ToolResultPart: the result of a tool call in a tool message)`,
    providerError: MISSING_RESULTS_TEXT,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'toolCallId used by two tool-call parts',
    fix: 'Give every tool-call its own toolCallId; drop an assistant message that was appended twice.',
    source: 'https://github.com/vercel/ai/issues/13307',
    providerError: 'Duplicate item found with id fc_…. (OpenAI Responses); `tool_use` ids must be unique (Anthropic)',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool-result for one toolCallId',
    fix: 'Keep one tool-result per toolCallId and remove the others.',
    source: 'https://github.com/agno-agi/agno/issues/5116',
    providerError: "Invalid parameter: Duplicate value for 'tool_call_id' … (OpenAI)",
    repairable: true,
    kind: 'observed',
  },
  'aisdk.provider_executed_call_answered_by_client': {
    class: ORPHAN,
    summary: 'client tool-result in a tool message for a providerExecuted tool-call',
    fix: 'Remove the tool-result: the provider runs a providerExecuted call and its result stays in the assistant message (only an execution-denied result for a denied approval goes in a tool message).',
    source: 'https://github.com/vercel/ai/issues/17366 (fixed by https://github.com/vercel/ai/pull/17400)',
    providerError: ANTHROPIC_ORPHAN_TEXT,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.approval_response_unknown': {
    class: ORPHAN,
    summary: 'tool-approval-response without its tool-approval-request',
    fix: 'Answer only approval requests that stand in an earlier assistant message (same approvalId), or remove the response.',
    source: `${AISDK_APPROVAL}; ${AISDK_APPROVAL_FLOW}`,
    providerError:
      'Tool approval response references unknown approvalId: "…". No matching tool-approval-request found in message history. (AI_InvalidToolApprovalError)',
    repairable: true,
    kind: 'doc',
  },
  'aisdk.approval_request_unknown_call': {
    class: SCHEMA,
    summary: 'tool-approval-request for a toolCallId that is not in the messages',
    fix: 'Point the approval request at the toolCallId of a tool-call in the messages, or remove it.',
    source: AISDK_APPROVAL_CALL,
    providerError: 'Tool call "…" not found for approval request "…". (AI_ToolCallNotFoundForApprovalError)',
    repairable: true,
    kind: 'doc',
  },
  'aisdk.approved_call_without_result': {
    class: MISSING,
    summary:
      'tool-call approved before the last message (or anywhere in the prompt the SDK hands its model), with no tool-result: it was never executed',
    fix: 'Keep the tool message with the result the SDK wrote when it ran the approved call (result.response.messages), or add its tool-result after the approval response.',
    source: `${AISDK_APPROVAL_FLOW}; https://github.com/vercel/eve/issues/460; https://github.com/vercel/eve/issues/236; https://github.com/vercel/ai/issues/10980`,
    providerError: `${ANTHROPIC_UNANSWERED_TEXT} (Anthropic); No tool output found for function call …. (OpenAI Responses); Tool result is missing for tool call …. (AI_MissingToolResultsError, ai 7)`,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.denied_call_without_result': {
    class: MISSING,
    summary: 'tool-call denied before the last message, with no execution-denied tool-result',
    fix: "Keep the tool-result { type: 'execution-denied', reason } the SDK wrote for the denial (result.response.messages), or add it after the approval response.",
    source: `${AISDK_APPROVAL_FLOW}; https://github.com/vercel/ai/issues/14428 (https://github.com/vercel/ai/pull/14479)`,
    providerError: "Missing required parameter: 'input[…].output'. (OpenAI Responses)",
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_call_input_json_string': {
    class: SCHEMA,
    summary: 'tool-call input is a JSON string, not the object it encodes',
    fix: 'Store the tool-call input as the object itself (JSON.parse the string).',
    source: `${INPUT_REPORTS}; ${AISDK_MODEL_MESSAGE} (ToolCallPart: input is a JSON-serializable object)`,
    providerError: INPUT_NOT_OBJECT_TEXT,
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_call_input_not_object': {
    class: SCHEMA,
    summary:
      'tool-call input that is not a JSON object (missing, null, an array, a number, or text that is no JSON object)',
    fix: 'Set input to the object of arguments the tool was called with ({} for a tool without parameters).',
    source: `${INPUT_REPORTS}; https://github.com/vercel/ai/pull/14280 (the SDK now writes {} for an input that is no JSON)`,
    providerError: INPUT_NOT_OBJECT_TEXT,
    repairable: false,
    kind: 'observed',
  },
  'aisdk.tool_call_legacy_args': {
    class: SCHEMA,
    summary: 'tool-call with the AI SDK 4 args field instead of input',
    fix: 'Rename args to input: AI SDK 5 renamed it, and the SDK hands the provider the call without args.',
    source: AISDK_MIGRATION_5,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_legacy_result': {
    class: SCHEMA,
    summary: 'tool-result with the AI SDK 4 result field instead of output: { type, value }',
    fix: "Replace result with output: { type: 'text', value } for a string, { type: 'json', value } otherwise.",
    source: `${AISDK_MIGRATION_5}; https://github.com/get-convex/agent/issues/122; https://github.com/vercel/ai/issues/6947`,
    providerError: INVALID_PROMPT_TEXT,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_output_malformed': {
    class: SCHEMA,
    summary:
      "tool-result output missing, or not one of { type: 'text' | 'error-text', value: string }, { type: 'json' | 'error-json', value }, { type: 'content', value: [...] }, { type: 'execution-denied' }",
    fix: "Wrap the tool's value in output: { type: 'text', value } for a string, { type: 'json', value } otherwise.",
    source: `${AISDK_MODEL_MESSAGE} (ToolResultOutput); ${AISDK_INVALID_PROMPT}; https://github.com/vercel/ai/issues/8649`,
    providerError: INVALID_PROMPT_TEXT,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_content_part_invalid': {
    class: SCHEMA,
    summary: "content output item that is not { type: 'text', text } or a file or image part",
    fix: "Write each item of a content output as { type: 'text', text } or one of the file and image parts of ToolResultOutput.",
    source: `${AISDK_MODEL_MESSAGE} (ToolResultOutput, type 'content'); ${AISDK_INVALID_PROMPT}`,
    providerError: INVALID_PROMPT_TEXT,
    repairable: false,
    kind: 'doc',
  },
  'aisdk.tool_result_name_missing': {
    class: SCHEMA,
    summary: 'tool-result without a toolName string',
    fix: 'Set toolName to the toolName of the tool-call it answers.',
    source: `${AISDK_MODEL_MESSAGE} (ToolResultPart.toolName); ${AISDK_INVALID_PROMPT}`,
    providerError: INVALID_PROMPT_TEXT,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_name_mismatch': {
    class: SCHEMA,
    summary: "tool-result whose toolName is not its tool-call's toolName",
    fix: "Set the tool-result's toolName to the toolName of its tool-call: Gemini pairs a function response with its call by name.",
    source:
      'https://github.com/cline/cline/pull/12904; https://github.com/binaricat/Netcatty/pull/350; https://github.com/NousResearch/hermes-agent/issues/72089',
    providerError: 'GenerateContentRequest.contents[…].parts[…].function_response.name: Name cannot be empty.',
    models: 'Gemini models (a model id containing "gemini")',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.content_not_allowed_for_role': {
    class: SCHEMA,
    summary:
      "content the message's role does not hold (tool: only tool-result and tool-approval-response parts; user: no tool or reasoning parts; assistant: no tool-approval-response; system: a string)",
    fix: 'Move the part into a message of the role that holds it (a tool-call into an assistant message, a tool-result into a tool message), or remove it.',
    source: `${AISDK_MODEL_MESSAGE}; ${AISDK_INVALID_PROMPT}`,
    providerError: INVALID_PROMPT_TEXT,
    repairable: false,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`aisdk.${string}`, TranscriptRuleInfo>>;

/** Whether a model id names a Gemini model (the models `aisdk.tool_result_name_mismatch` holds for). */
export function isGeminiModel(model: string | undefined): boolean {
  return model !== undefined && /gemini/i.test(model);
}

/** The aisdk rule ids (`aisdk.<rule_name>`): the only ones this format's check and repair name. */
export type AISDKRule = keyof typeof AISDK_RULES;
