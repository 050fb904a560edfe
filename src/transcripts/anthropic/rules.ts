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
const ANTHROPIC_THINKING = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';

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
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_not_first': {
    class: ORDER,
    summary: 'content before a tool_result in its user turn',
    fix: 'Move the tool_result blocks to the start of the user turn; text and other content go after them.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting); ${ANTHROPIC_PARALLEL}`,
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_not_immediately_after': {
    class: ORDER,
    summary: 'tool_result not in the user turn right after its tool_use',
    fix: 'Move the tool_result into the user message that directly follows the assistant message holding its tool_use.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_before_call': {
    class: ORDER,
    summary: 'tool_result before its tool_use',
    fix: 'Move the tool_result after the assistant message holding its tool_use, into the user message right after it.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    repairable: true,
    kind: 'doc',
  },
  'anthropic.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool_result for a tool_use id that is not in the request',
    fix: 'Remove the tool_result, or restore the assistant tool_use it answers.',
    source: `${ANTHROPIC_TOOL_CALLS} (tool result formatting)`,
    repairable: true,
    kind: 'doc',
  },
  // Observed: "`tool_use` ids must be unique" (https://github.com/anthropics/claude-code/issues/20573).
  'anthropic.duplicate_tool_use_id': {
    class: SCHEMA,
    summary: 'tool_use id used twice in the request',
    fix: 'Give every tool_use and server_tool_use block its own id; drop a block that was appended twice.',
    source: 'https://github.com/anthropics/claude-code/issues/20573; https://github.com/HKUDS/nanobot/issues/4442',
    repairable: true,
    kind: 'observed',
  },
  // Observed: a second result for one tool_use is refused (https://github.com/QwenLM/qwen-code/pull/8163).
  'anthropic.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool_result for one tool_use',
    fix: 'Keep one tool_result per tool_use id and remove the others.',
    source: 'https://github.com/QwenLM/qwen-code/pull/8163; https://github.com/RooCodeInc/Roo-Code/pull/9248',
    repairable: true,
    kind: 'observed',
  },
  // "Server tools" (pause_turn): a paused turn goes back as it is; otherwise observed 400s
  // (https://github.com/anthropics/anthropic-sdk-python/issues/1339).
  'anthropic.server_tool_use_unanswered': {
    class: MISSING,
    summary: 'server_tool_use without its result block in the same assistant message',
    fix: 'Send the assistant message back exactly as the API returned it (its server result block included); only a pause_turn message may end unanswered, as the last message.',
    source: `${ANTHROPIC_SERVER_TOOLS} (pause_turn); https://github.com/anthropics/anthropic-sdk-python/issues/1339; https://github.com/anthropics/anthropic-sdk-python/issues/961`,
    repairable: true,
    kind: 'observed',
  },
  // Observed (https://github.com/anthropics/claude-code/issues/64383).
  'anthropic.server_tool_result_orphan': {
    class: ORPHAN,
    summary: 'server tool result block without its server_tool_use before it',
    fix: 'Keep the server result block after its server_tool_use in the same assistant message, or remove it.',
    source: 'https://github.com/anthropics/claude-code/issues/64383',
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
  'anthropic.thinking_block_missing': {
    class: SCHEMA,
    summary: 'thinking enabled but the assistant message answered last does not start with its thinking block',
    fix: 'Pass the assistant message back unchanged, starting with its thinking or redacted_thinking block (signature included).',
    source: `${ANTHROPIC_THINKING} (preserving thinking blocks)`,
    repairable: false,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`anthropic.${string}`, TranscriptRuleInfo>>;
