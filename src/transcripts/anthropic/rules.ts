/**
 * The rules of the Anthropic Messages API the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const ANTHROPIC_TOOL_CALLS = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls';
const ANTHROPIC_PARALLEL = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use';
const ANTHROPIC_SERVER_TOOLS = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools';
const ANTHROPIC_STOP_REASONS = 'https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons';
const ANTHROPIC_THINKING = 'https://platform.claude.com/docs/en/build-with-claude/thinking';
const ANTHROPIC_EXTENDED_THINKING = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';

/** The anthropic rules, by rule id. */
export const ANTHROPIC_RULES = {
  // Anthropic Messages API. Source of the pairing and position rules: "Handle tool calls",
  // section "Tool result formatting" (results in the next user message, first in its content),
  // and "Parallel tool use" (every result of a batch in that one message).
  'anthropic.tool_use_unanswered': {
    class: MISSING,
    summary: 'tool_use without a tool_result in the user turn right after it',
    fix: 'Put a tool_result block for each of these ids at the start of the user message that directly follows the assistant message.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting); ${ANTHROPIC_PARALLEL}`,
    providerError:
      'messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: …. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_not_first': {
    class: ORDER,
    summary: 'content stands before the tool_result blocks of the user turn that answers a tool_use',
    fix: 'Move the tool_result blocks to the start of the user turn; text and other content go after them.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting); ${ANTHROPIC_PARALLEL}`,
    providerError:
      'messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: …. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_not_immediately_after': {
    class: ORDER,
    summary:
      'a message stands between a tool_use and its tool_result (the result is not in the user turn right after the call)',
    fix: 'Move the tool_result into the user message that directly follows the assistant message holding its tool_use; a message injected in between goes after that user turn.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    providerError:
      'messages.N.content.K: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_before_call': {
    class: ORDER,
    summary: 'tool_result before its tool_use',
    fix: 'Move the tool_result after the assistant message holding its tool_use, into the user message right after it.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    providerError:
      'messages.N.content.K: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool_result for a tool_use id that is not in the request',
    fix: 'Remove the tool_result, or restore the assistant tool_use it answers.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    providerError:
      'messages.N.content.K: unexpected `tool_use_id` found in `tool_result` blocks: …. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    repairable: true,
    kind: 'doc',
  },
  // Observed: "`tool_use` ids must be unique" (https://github.com/anthropics/claude-code/issues/20573).
  'anthropic.duplicate_tool_use_id': {
    class: SCHEMA,
    summary: 'tool_use id used twice in the request',
    fix: 'Give every tool_use and server_tool_use block its own id; drop a block that was appended twice.',
    source: 'https://github.com/anthropics/claude-code/issues/20573; https://github.com/HKUDS/nanobot/issues/4442',
    providerError: 'messages.N.content.K: `tool_use` ids must be unique',
    repairable: true,
    kind: 'observed',
  },
  // Observed: a second result for one tool_use is refused (https://github.com/QwenLM/qwen-code/pull/8163).
  'anthropic.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool_result for one tool_use',
    fix: 'Keep one tool_result per tool_use id and remove the others.',
    source: 'https://github.com/QwenLM/qwen-code/pull/8163; https://github.com/RooCodeInc/Roo-Code/pull/9248',
    providerError: 'each tool_use must have a single result',
    repairable: true,
    kind: 'observed',
  },
  // A server call is answered by its result block: later in the same assistant message, or, when
  // the response also called a client tool ("deferred"), at the start of the next response of
  // the same turn ("Handle tool calls", handling results from server tools; "Stop reasons",
  // tool_use). A paused turn (pause_turn) goes back as the last message with the call open.
  'anthropic.server_tool_use_unanswered': {
    class: MISSING,
    summary:
      'server_tool_use without its result block (in its own message, or, deferred past a client call, in a later message of the same turn)',
    fix: 'Send the assistant messages back exactly as the API returned them; after a response that defers a server call, the user message holds only the tool_result blocks (other content goes in a later user message, after the turn completes).',
    source: `${ANTHROPIC_SERVER_TOOLS} (pause_turn); ${ANTHROPIC_TOOL_CALLS} (handling results from server tools); ${ANTHROPIC_STOP_REASONS} (tool_use); https://github.com/anthropics/anthropic-sdk-python/issues/1339`,
    providerError:
      'messages.N: `web_search` tool use with id `srvtoolu_…` was found without a corresponding `web_search_tool_result` block',
    repairable: true,
    kind: 'doc',
  },
  // Observed (https://github.com/anthropics/claude-code/issues/64383).
  'anthropic.server_tool_result_orphan': {
    class: ORPHAN,
    summary: 'server tool result block without its server_tool_use before it in the same turn',
    fix: 'Keep the server result block after its server_tool_use (in the same assistant message, or, for a deferred call, in a later message of the same turn), or remove it.',
    source:
      'https://github.com/anthropics/claude-code/issues/64383; https://github.com/anthropics/claude-code/issues/89348',
    providerError:
      'messages.N.content.K: unexpected `tool_use_id` found in `advisor_tool_result` blocks: srvtoolu_…. Each `advisor_tool_result` block must have a corresponding `server_tool_use` block before it.',
    repairable: true,
    kind: 'observed',
  },
  'anthropic.server_tool_answered_by_client': {
    class: ORPHAN,
    summary: 'client tool_result answering a server_tool_use',
    fix: 'Remove the tool_result: the API runs server tools and writes their results into the assistant message itself.',
    source: `${ANTHROPIC_SERVER_TOOLS} (how server tools work)`,
    repairable: true,
    kind: 'doc',
  },
  // Observed (https://github.com/anthropics/anthropic-sdk-typescript/issues/841): a server call
  // and its result after a client tool_use in one message are refused; the API now defers such
  // calls to the next response instead (see server_tool_use_unanswered).
  'anthropic.server_tool_result_after_client_call': {
    class: ORDER,
    summary: 'server tool result block placed after a client tool_use in the same assistant message',
    fix: 'Send the assistant message back as the API returned it: a server call made together with a client call gets its result at the start of the next response, not after the client tool_use.',
    source: 'https://github.com/anthropics/anthropic-sdk-typescript/issues/841',
    providerError:
      'messages.N: `text_editor_code_execution` tool use with id `…` was found without a corresponding `text_editor_code_execution_tool_result` block',
    repairable: false,
    kind: 'observed',
  },
  // "Thinking", thinking with tool use: in manual mode (thinking.type "enabled") the final
  // assistant turn begins with a thinking block; adaptive mode relaxes this. A tool-use loop is
  // one assistant turn, so it is the first assistant message after the last user message that
  // is not a turn of tool results.
  'anthropic.thinking_block_missing': {
    class: SCHEMA,
    summary:
      'thinking enabled but the first assistant message of the final tool-use turn does not start with its thinking block',
    fix: 'Pass that assistant message back unchanged, starting with its thinking or redacted_thinking block (signature included), or complete the turn before turning thinking on.',
    source: `${ANTHROPIC_THINKING} (thinking with tool use; preserving thinking blocks); ${ANTHROPIC_EXTENDED_THINKING} (toggling thinking modes in conversations)`,
    providerError:
      'messages.N.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.',
    repairable: false,
    kind: 'doc',
  },
  // Observed (https://github.com/tailcallhq/forgecode/issues/2107, /3071): a reasoning-only
  // message stored from an interrupted response.
  'anthropic.thinking_block_last': {
    class: SCHEMA,
    summary: 'assistant message ends on a thinking block',
    fix: 'Remove the trailing thinking block (a message that holds nothing else goes with it), or keep the rest of the response it came with.',
    source: 'https://github.com/tailcallhq/forgecode/issues/2107; https://github.com/tailcallhq/forgecode/issues/3071',
    providerError: 'messages.N: The final block in an assistant message cannot be `thinking`.',
    repairable: true,
    kind: 'observed',
  },
  'anthropic.thinking_in_final_assistant': {
    class: SCHEMA,
    summary: 'thinking off, and the assistant message in the final position (a prefill) holds a thinking block',
    fix: 'Remove the thinking blocks from the final assistant message, or enable thinking in the request.',
    source:
      'https://github.com/tailcallhq/forgecode/issues/1853; https://github.com/tailcallhq/forgecode/issues/1195; https://github.com/microsoft/vscode/issues/282326',
    providerError:
      'messages.N.content.K: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.',
    repairable: true,
    kind: 'observed',
  },
  // Observed (https://github.com/UKGovernmentBEIS/inspect_ai/pull/3967, https://github.com/BerriAI/litellm/pull/39815).
  'anthropic.thinking_cache_control': {
    class: SCHEMA,
    summary: 'thinking or redacted_thinking block carries cache_control',
    fix: 'Remove cache_control from thinking blocks; put the cache breakpoint on another block.',
    source:
      'https://github.com/UKGovernmentBEIS/inspect_ai/pull/3967; https://github.com/BerriAI/litellm/pull/39815; https://github.com/LeenHawk/gproxy/issues/67',
    providerError: 'messages.N.content.K.thinking.cache_control: Extra inputs are not permitted',
    repairable: true,
    kind: 'observed',
  },
  // "Handle tool calls": input is "an object containing the input being passed to the tool".
  'anthropic.tool_use_input_encoded': {
    class: SCHEMA,
    summary: 'tool_use input is JSON text of an object (or empty), not the object itself',
    fix: 'Store tool_use.input as the parsed object ({} for a call without arguments), not as a JSON string.',
    source: `${ANTHROPIC_TOOL_CALLS} (handling results from client tools); https://github.com/anthropics/anthropic-sdk-typescript/issues/648; https://github.com/anthropics/claude-code/issues/6696`,
    providerError: 'messages.N.content.K.tool_use.input: Input should be a valid dictionary',
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_use_input_not_object': {
    class: SCHEMA,
    summary: 'tool_use input is not an object',
    fix: 'Give tool_use.input the object of arguments the model sent; a value that is not one cannot be sent back.',
    source: `${ANTHROPIC_TOOL_CALLS} (handling results from client tools); https://github.com/anthropics/anthropic-sdk-typescript/issues/648; https://github.com/anthropics/claude-code/issues/6696`,
    providerError: 'messages.N.content.K.tool_use.input: Input should be a valid dictionary',
    repairable: false,
    kind: 'doc',
  },
  // Observed, live-verified in https://github.com/QwenLM/qwen-code/pull/8164; server ids:
  // https://github.com/ding113/claude-code-hub/issues/470.
  'anthropic.tool_use_id_invalid': {
    class: SCHEMA,
    summary:
      'tool id outside the API grammar (tool_use.id and tool_result.tool_use_id: ^[a-zA-Z0-9_-]+$; server_tool_use.id: ^srvtoolu_[a-zA-Z0-9_]+$)',
    fix: 'Rewrite the id with letters, digits, _ and - only (the same id on the tool_use and on the results that answer it).',
    source:
      'https://github.com/QwenLM/qwen-code/issues/8160; https://github.com/QwenLM/qwen-code/pull/8164; https://github.com/RooCodeInc/Roo-Code/pull/10649; https://github.com/ding113/claude-code-hub/issues/470',
    providerError: "messages.N.content.K.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    repairable: true,
    kind: 'observed',
  },
  // Observed (https://github.com/anthropics/claude-code/issues/2673).
  'anthropic.tool_use_name_too_long': {
    class: SCHEMA,
    summary: 'tool_use name longer than 200 characters',
    fix: 'Keep tool names short (the tool definitions allow 64 characters); a call stored with a longer name cannot be sent back.',
    source: 'https://github.com/anthropics/claude-code/issues/2673; https://github.com/openclaw/openclaw/issues/13134',
    providerError: 'messages.N.content.K.tool_use.name: String should have at most 200 characters',
    repairable: false,
    kind: 'observed',
  },
  // "Handle tool calls": content is a string or a list of text, image, document or
  // search_result blocks (tool_reference: tool search tool; browser_state: browser use tool).
  'anthropic.tool_result_content_invalid': {
    class: SCHEMA,
    summary:
      'tool_result content is neither a string nor a list of text, image, document, search_result, tool_reference or browser_state blocks',
    fix: 'Give the tool_result a string, or content blocks of the types a tool result may hold (text, image, document, search_result).',
    source: `${ANTHROPIC_TOOL_CALLS} (handling results from client tools)`,
    repairable: false,
    kind: 'doc',
  },
  // Observed (https://github.com/anthropics/claude-code/issues/3196, /6774).
  'anthropic.message_content_empty': {
    class: SCHEMA,
    summary: 'message with empty content (only the final assistant message may be empty)',
    fix: 'Remove the empty message, or give it content.',
    source:
      'https://github.com/anthropics/claude-code/issues/3196; https://github.com/anthropics/claude-code/issues/6774; https://github.com/corespeed-io/zypher-agent/pull/122',
    providerError:
      'messages.N: all messages must have non-empty content except for the optional final assistant message',
    repairable: true,
    kind: 'observed',
  },
  // Observed (https://github.com/anthropics/anthropic-sdk-python/issues/461, claude-code #62396).
  'anthropic.text_block_empty': {
    class: SCHEMA,
    summary: 'text block with empty text',
    fix: 'Remove empty text blocks (a response holding only tool calls may carry one); the API refuses them in a request.',
    source:
      'https://github.com/anthropics/anthropic-sdk-python/issues/461; https://github.com/anthropics/claude-code/issues/62396; https://github.com/BerriAI/litellm/pull/22979',
    providerError: 'messages: text content blocks must be non-empty',
    repairable: true,
    kind: 'observed',
  },
} as const satisfies Readonly<Record<`anthropic.${string}`, TranscriptRuleInfo>>;

/** The anthropic rule ids (`anthropic.<rule_name>`): the only ones this format's check and repair name. */
export type AnthropicRule = keyof typeof ANTHROPIC_RULES;
