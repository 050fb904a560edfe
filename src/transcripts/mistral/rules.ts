/**
 * The rules of Mistral chat completions the transcript check enforces: one entry per rule id,
 * with its failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * Most rest on Mistral's request validator, which the API's 400s quote word for word
 * (`mistral-common`, `MistralRequestValidator` and its V3/V13 subclasses), and on public reports
 * of those 400s.
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const VALIDATOR =
  'https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/protocol/instruct/validator.py';
const FUNCTION_CALLING = 'https://docs.mistral.ai/capabilities/function_calling/';

/** The mistral rules, by rule id. */
export const MISTRAL_RULES = {
  'mistral.tool_call_unanswered': {
    class: MISSING,
    summary: "assistant 'tool_calls' without a tool message for each call right after it",
    fix: 'Follow the assistant message directly with one tool message per tool call, before any other message.',
    source: `${VALIDATOR} (_validate_tool_calls_followed_by_tool_messages); ${FUNCTION_CALLING}; https://github.com/mistralai/client-ts/issues/106; https://github.com/camel-ai/camel/issues/1467`,
    providerError: 'Not the same number of function calls and responses',
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_message_orphan': {
    class: ORPHAN,
    summary: 'tool message for a tool_call_id no assistant message called',
    fix: 'Remove the tool message, or restore the assistant tool call it answers.',
    source: `${VALIDATOR} (MistralRequestValidatorV13: unexpected tool call id); https://github.com/mistralai/client-python/issues/234`,
    providerError: 'Unexpected tool call id … in tool results',
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_message_not_adjacent': {
    class: ORDER,
    summary: 'tool message separated from the assistant message that made its call (after a user or system message)',
    fix: 'Move the tool message into the run of tool messages directly after the assistant message with its tool call.',
    source: `${VALIDATOR} (_validate_message_order: only assistant or tool after tool, only tool after a call's assistant message); https://github.com/charmbracelet/crush/issues/279`,
    providerError: "Unexpected role 'tool' after role 'user'",
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_message_before_call': {
    class: ORDER,
    summary: 'tool message before the assistant message that made its call',
    fix: 'Move the tool message after the assistant message with its tool call, into the run of tool messages right after it.',
    source: `${VALIDATOR} (_validate_message_order, _validate_tool_calls_followed_by_tool_messages)`,
    providerError: "Unexpected role 'tool' after role 'user'",
    repairable: true,
    kind: 'observed',
  },
  'mistral.duplicate_tool_message': {
    class: SCHEMA,
    summary: 'second tool message for one tool_call_id',
    fix: 'Keep one tool message per tool_call_id and remove the others.',
    source: `${VALIDATOR} (MistralRequestValidatorV13: duplicate tool call id in tool results)`,
    providerError: 'Duplicate tool call id … in tool results',
    repairable: true,
    kind: 'observed',
  },
  'mistral.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'tool call id used twice in the request',
    fix: 'Give every tool call its own id; drop an assistant message that was appended twice.',
    source: `${VALIDATOR} (MistralRequestValidatorV13: duplicate tool call id in assistant message)`,
    providerError: 'Duplicate tool call id … in assistant message',
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_message_missing_id': {
    class: SCHEMA,
    summary: 'tool message without tool_call_id',
    fix: 'Give the tool message the tool_call_id of the call it answers.',
    source: `${VALIDATOR} (MistralRequestValidatorV3._validate_tool_message); ${FUNCTION_CALLING} (tool message with tool_call_id)`,
    providerError: 'Tool call id has to be defined.',
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_call_id_invalid': {
    class: SCHEMA,
    summary: 'tool call id that is not exactly 9 characters of a-z, A-Z, 0-9',
    fix: 'Give the tool call an id of exactly 9 letters and digits (a-z, A-Z, 0-9), and its tool message the same id.',
    source: `${VALIDATOR} (MistralRequestValidatorV3: ^[a-zA-Z0-9]{9}$ on tool calls and tool messages); https://github.com/anomalyco/opencode/issues/1680; https://github.com/langchain-ai/langchain/pull/24668; https://github.com/jackmpcollins/magentic/issues/276; https://github.com/nearai/ironclaw/issues/1241`,
    providerError: 'Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9.',
    repairable: true,
    kind: 'observed',
  },
  'mistral.user_after_tool': {
    class: ORDER,
    summary: 'user message right after a tool message (the model has not answered the tool results)',
    fix: 'Let the model answer the tool results (an assistant message) before the next user message.',
    source: `${VALIDATOR} (_validate_message_order: after tool, only assistant or tool); https://github.com/zed-industries/zed/issues/37021; https://github.com/onyx-dot-app/onyx/issues/6458; https://github.com/datapizza-labs/datapizza-ai/issues/98; https://github.com/avante-corp/avante.nvim/pull/2695`,
    providerError: "Unexpected role 'user' after role 'tool'",
    repairable: true,
    kind: 'observed',
  },
  'mistral.tool_after_user': {
    class: ORDER,
    summary:
      'tool message right after a user or system message (tool messages follow the assistant message with the calls, or another tool message)',
    fix: 'Put each tool message right after the assistant message with its call (or after the other tool messages of that call), before the next user message.',
    source: `${VALIDATOR} (_validate_message_order: after user, only assistant, system or user; after system, only assistant, system or user); https://github.com/zed-industries/zed/issues/37021`,
    providerError: "Unexpected role 'tool' after role 'user'",
    repairable: true,
    kind: 'observed',
  },
  'mistral.system_message_misplaced': {
    class: ORDER,
    summary: 'system message right after an assistant or tool message',
    fix: 'Put system messages before the conversation (or right after a user or system message), not after an assistant or tool message.',
    source: `${VALIDATOR} (_validate_message_order: after assistant, only assistant, user or tool); https://github.com/swarmauri/swarmauri-sdk/issues/276`,
    providerError: "Unexpected role 'system' after role 'assistant'",
    repairable: false,
    kind: 'observed',
  },
  'mistral.last_message_assistant': {
    class: ORDER,
    summary: "history to send ending with an assistant message that is not a prefix ('prefix': true)",
    fix: 'End the history with a user or tool message, or mark a final assistant message the model should continue with prefix: true.',
    source: `${VALIDATOR} (_validate_last_message, serving mode); https://github.com/0xPlaygrounds/rig/issues/708; https://github.com/0xPlaygrounds/rig/pull/1130`,
    providerError: 'Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant',
    repairable: false,
    kind: 'observed',
  },
  'mistral.prefix_not_last': {
    class: SCHEMA,
    summary: "assistant message with 'prefix': true that is not the last message",
    fix: 'Remove prefix: true from every assistant message but a final one.',
    source: `${VALIDATOR} (_validate_assistant_message: prefix); https://docs.mistral.ai/guides/prefix/`,
    providerError: 'Assistant message with prefix True must be last message',
    repairable: true,
    kind: 'observed',
  },
  'mistral.assistant_message_empty': {
    class: SCHEMA,
    summary: 'assistant message with neither content nor tool_calls',
    fix: 'Give the assistant message its text, or remove the message.',
    source: `${VALIDATOR} (_validate_assistant_message); https://github.com/OpenHands/OpenHands/issues/8685; https://github.com/solbrowse/extension/issues/16`,
    providerError: 'Assistant message must have either content or tool_calls, but not none.',
    repairable: false,
    kind: 'observed',
  },
  'mistral.function_name_invalid': {
    class: SCHEMA,
    summary:
      "tool call function name (or tool message 'name') empty, longer than 64 characters, or with characters other than a-z, A-Z, 0-9, _ and -",
    fix: 'Name the function with 1 to 64 of a-z, A-Z, 0-9, _ and -, the same in `tools`, in the calls and in the tool messages.',
    source: `${VALIDATOR} (_validate_function_call, _validate_tool_message)`,
    providerError:
      'Function name was … but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.',
    repairable: false,
    kind: 'observed',
  },
} as const satisfies Readonly<Record<`mistral.${string}`, TranscriptRuleInfo>>;

/** The mistral rule ids (`mistral.<rule_name>`): the only ones this format's check and repair name. */
export type MistralRule = keyof typeof MISTRAL_RULES;
