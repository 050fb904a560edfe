/**
 * The rules of the OpenAI Responses API the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix, its source and the provider's error text (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const OPENAI_FUNCTION_CALLING = 'https://platform.openai.com/docs/guides/function-calling';
const OPENAI_RESPONSES_REFERENCE = 'https://platform.openai.com/docs/api-reference/responses/create';
const OPENAI_REASONING = 'https://platform.openai.com/docs/guides/reasoning';

/** The longest `call_id` the Responses API takes (its 400 names the limit). */
export const MAX_CALL_ID_LENGTH = 64;

/** The openai-responses rules, by rule id. */
export const OPENAI_RESPONSES_RULES = {
  // OpenAI Responses: pairing by call_id anywhere after the call (observed error texts).
  'openai-responses.function_call_unanswered': {
    class: MISSING,
    summary: 'call item without an output item with its call_id after it',
    fix: 'Add an output item (function_call_output, custom_tool_call_output, ...) with this call_id after the call.',
    source: `${OPENAI_FUNCTION_CALLING} (function tool example); https://github.com/openai/openai-support-agent-demo/issues/12; https://github.com/Soju06/codex-lb/issues/1168`,
    providerError:
      'No tool output found for function call call_…. (custom tools: No tool output found for custom tool call call_….)',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_output_orphan': {
    class: ORPHAN,
    summary: 'output item for a call_id that is not in the input',
    fix: 'Remove the output item, or add the call item it answers before it (or send previous_response_id).',
    source:
      'https://github.com/continuedev/continue/issues/10092; https://community.openai.com/t/issue-with-new-responses-api-400-no-tool-call-found-for-function-call-output-with-call-id/1142327',
    providerError: 'No tool call found for function call output with call_id call_….',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_output_before_call': {
    class: ORDER,
    summary: 'output item before its call item',
    fix: 'Move the output item after the call item with the same call_id.',
    source: 'https://github.com/continuedev/continue/issues/10092 (the API resolves call_id against earlier items)',
    providerError: 'No tool call found for function call output with call_id call_….',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.output_type_mismatch': {
    class: ORPHAN,
    summary: 'output item of another type than its call (a custom_tool_call answered by a function_call_output, ...)',
    fix: 'Answer each call with the output type of its own type: function_call -> function_call_output, custom_tool_call -> custom_tool_call_output, computer_call -> computer_call_output, local_shell_call -> local_shell_call_output, shell_call -> shell_call_output, apply_patch_call -> apply_patch_call_output.',
    source: `${OPENAI_FUNCTION_CALLING} (custom tools: custom_tool_call_output); ${OPENAI_RESPONSES_REFERENCE} (input items: each output type names the call type it answers); https://github.com/diegosouzapw/OmniRoute/issues/8946; https://github.com/Soju06/codex-lb/issues/1168`,
    providerError:
      'No tool call found for custom tool call output with call_id call_…. (and for the call: No tool output found for function call call_….)',
    repairable: true,
    kind: 'doc',
  },
  'openai-responses.duplicate_item_id': {
    class: SCHEMA,
    summary: 'item id used twice in the input',
    fix: 'Send each item once; drop the repeated item (or the items the server already holds under previous_response_id).',
    source:
      'https://github.com/vercel/ai/issues/13307; https://github.com/vercel/ai/issues/7883; https://github.com/MacPaw/OpenAI/issues/432',
    providerError: 'Duplicate item found with id fc_…. Remove duplicate items from your input and try again.',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.item_id_invalid': {
    class: SCHEMA,
    summary:
      "item id that is not a non-empty string with its type's prefix (fc for function_call, ctc for custom_tool_call, rs for reasoning, msg for an assistant message)",
    fix: "Send the item id the API returned for this item, or leave `id` out of the item (only call_id pairs a call with its output); a reasoning item needs its own 'rs_' id.",
    source:
      'https://github.com/Wei-Shaw/sub2api/issues/3785; https://github.com/nodetool-ai/nodetool/pull/4252; https://github.com/jlcodes99/cockpit-tools/issues/2090; https://github.com/mastra-ai/mastra/issues/10815; https://github.com/BigPizzaV3/CodexPlusPlus/issues/1796; https://github.com/langchain-ai/langchainjs/issues/11044',
    providerError:
      "Invalid 'input[…].id': 'item_…'. Expected an ID that begins with 'fc'. (or 'rs', 'msg', 'ctc'; an empty id: Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.)",
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.call_id_too_long': {
    class: SCHEMA,
    summary: `call_id longer than ${MAX_CALL_ID_LENGTH} characters`,
    fix: `Give the call and its outputs one shorter call_id (at most ${MAX_CALL_ID_LENGTH} characters), the same on both sides.`,
    source:
      'https://github.com/AnswerDotAI/fastllm/issues/45; https://github.com/decolua/9router/issues/393; https://github.com/V1ki/dsh-plugin-subscriptions/issues/29; https://github.com/fitchmultz/pi-cursor-sdk/pull/237; https://github.com/orchidfiles/ungate/pull/41',
    providerError: `Invalid 'input[…].call_id': string too long. Expected a string with maximum length ${MAX_CALL_ID_LENGTH}, but got a string with length … instead.`,
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.duplicate_call_id': {
    class: SCHEMA,
    summary: 'second call item with a call_id an earlier call item has',
    fix: 'Give every call its own call_id (a per-turn counter such as call_0 repeats across turns: make it unique per request), or drop the call item appended twice.',
    source:
      'https://github.com/NousResearch/hermes-agent/issues/102629; https://github.com/mnfst/llm-gateway/pull/2858; https://github.com/openai/gpt-oss/issues/308',
    providerError:
      'Duplicate function_call_output for call_id …. Each function_call must have exactly one matching function_call_output',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.duplicate_function_call_output': {
    class: SCHEMA,
    summary: 'second output item for one call_id',
    fix: 'Keep one output item per call_id and remove the others.',
    source: 'https://github.com/NousResearch/hermes-agent/pull/111443',
    providerError: 'Duplicate function_call_output for call_id …',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.reasoning_without_following_item': {
    class: ORDER,
    summary: 'reasoning item without the item that followed it in the response',
    fix: 'Keep each reasoning item directly before the call or message it came with, or drop the reasoning item.',
    source: `${OPENAI_REASONING} (keeping reasoning items in context); https://github.com/openai/openai-agents-js/issues/326; https://github.com/continuedev/continue/issues/8933`,
    providerError: "Item 'rs_…' of type 'reasoning' was provided without its required following item.",
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_without_reasoning': {
    class: ORDER,
    summary:
      "function_call replayed by its item id without the reasoning item that preceded it in the model's response (a reasoning model)",
    fix: 'Keep every item of the response as it came, the reasoning item before its calls; or leave the id out of the function_call item (call_id pairs it).',
    source: `${OPENAI_REASONING} (keeping reasoning items in context); https://github.com/mastra-ai/mastra/issues/8738; https://github.com/0xPlaygrounds/rig/issues/751; https://github.com/vercel/ai/issues/7099`,
    providerError: "Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
    repairable: true,
    kind: 'observed',
    models:
      'OpenAI reasoning models (o-series, gpt-5 and later, not -chat), or any model when the input holds reasoning items; not under store: false',
  },
  'openai-responses.reasoning_not_persisted': {
    class: SCHEMA,
    summary:
      'reasoning item sent by id without encrypted_content while the request sets store: false (no earlier response is stored to resolve it)',
    fix: "Request include: ['reasoning.encrypted_content'] and send the reasoning item with its encrypted_content, or drop the reasoning item (or send store: true).",
    source: `${OPENAI_REASONING} (encrypted reasoning items); https://github.com/vercel/ai/issues/7543; https://github.com/vercel/ai/pull/13234; https://github.com/openai/openai-agents-js/issues/546; https://github.com/anomalyco/opencode/issues/8987`,
    providerError:
      "Item with id 'rs_…' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input. (HTTP 404)",
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.output_missing_field': {
    class: SCHEMA,
    summary: 'output item without output or a string call_id',
    fix: 'Give the output item the call_id of its call and its output.',
    source: `${OPENAI_RESPONSES_REFERENCE} (input items, function tool call output); https://github.com/openai/codex/issues/42088`,
    providerError: "Missing required parameter: 'input[…].output'.",
    repairable: true,
    kind: 'doc',
  },
  'openai-responses.output_not_content': {
    class: SCHEMA,
    summary: 'output of a function or custom tool call output that is neither a string nor a list of content parts',
    fix: 'Send the output as a string (JSON.stringify a structured result) or as a list of input_text, input_image and input_file parts.',
    source: `${OPENAI_RESPONSES_REFERENCE} (function tool call output: output is a string or a list of content); https://github.com/langchain-ai/deepagents/issues/202`,
    providerError: 'Invalid type for function_call_output.output: expected string, received list.',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_arguments_not_string': {
    class: SCHEMA,
    summary: 'function_call item whose arguments are not a JSON string',
    fix: 'Send arguments as the JSON string the model produced (JSON.stringify the object).',
    source: `${OPENAI_RESPONSES_REFERENCE} (function tool call: arguments, a JSON string); ${OPENAI_FUNCTION_CALLING}`,
    providerError: "Invalid type for 'input[…].arguments': expected a string, but got an object instead.",
    repairable: true,
    kind: 'doc',
  },
  'openai-responses.tool_search_arguments_not_object': {
    class: SCHEMA,
    summary: 'tool_search_call item whose arguments are a string, not an object',
    fix: 'Send the arguments of a tool_search_call as a JSON object (JSON.parse the string).',
    source: 'https://github.com/Wei-Shaw/sub2api/issues/3818; https://github.com/farion1231/cc-switch/pull/5100',
    providerError: "Invalid type for 'input[…].arguments': expected an object, but got a string instead.",
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_name_empty': {
    class: SCHEMA,
    summary: 'function_call or custom_tool_call item with an empty name',
    fix: 'Send the name of the tool the model called; a call whose name was lost cannot be sent back.',
    source: `${OPENAI_RESPONSES_REFERENCE} (function tool call: name); https://github.com/Wei-Shaw/sub2api/issues/3818`,
    providerError:
      "Invalid 'input[…].name': empty string. Expected a string with minimum length 1, but got an empty string instead.",
    repairable: false,
    kind: 'observed',
  },
  'openai-responses.mcp_approval_response_orphan': {
    class: ORPHAN,
    summary: 'mcp_approval_response whose approval_request_id names no mcp_approval_request in the input',
    fix: 'Answer only the mcp_approval_request items in the input (or send previous_response_id); approve a local tool call by running it and sending its output, not with an MCP approval.',
    source:
      'https://platform.openai.com/docs/guides/tools-connectors-mcp (approvals); https://github.com/microsoft/agent-framework/issues/7452',
    repairable: true,
    kind: 'observed',
  },
} as const satisfies Readonly<Record<`openai-responses.${string}`, TranscriptRuleInfo>>;

/** The openai-responses rule ids (`openai-responses.<rule_name>`): the only ones this format's check and repair name. */
export type OpenAIResponsesRule = keyof typeof OPENAI_RESPONSES_RULES;
