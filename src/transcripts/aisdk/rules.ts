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

/** The aisdk rules, by rule id. */
export const AISDK_RULES = {
  // AI SDK: MissingToolResultsError (doc); the rest are the providers' rules behind it.
  'aisdk.tool_call_unanswered': {
    class: MISSING,
    summary: 'tool-call without its tool-result before the next user or system message',
    fix: 'Add a tool message with a tool-result part for each of these toolCallIds before the next user or system message.',
    source: AISDK_MISSING_RESULTS,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.tool_result_orphan': {
    class: ORPHAN,
    summary: 'tool-result for a toolCallId that is not in the messages',
    fix: 'Remove the tool-result part, or restore the assistant tool-call it answers.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_result_before_call': {
    class: ORDER,
    summary: 'tool-result before its tool-call',
    fix: 'Move the tool-result into a tool message after the assistant message with its tool-call.',
    source: 'https://github.com/anthropics/claude-code/issues/13460; https://github.com/vercel/ai/issues/4584',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.tool_result_separated': {
    class: ORDER,
    summary: 'tool-result after a user or system message that follows its tool-call',
    fix: 'Move the tool-result into the tool messages right after its tool-call, before the next user or system message.',
    source: 'https://github.com/MayDay-wpf/snow-app/pull/9; https://github.com/dimagi/open-chat-studio/issues/1659',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.duplicate_tool_call_id': {
    class: SCHEMA,
    summary: 'toolCallId used by two tool-call parts',
    fix: 'Give every tool-call its own toolCallId; drop an assistant message that was appended twice.',
    source: 'https://github.com/vercel/ai/issues/13307',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.duplicate_tool_result': {
    class: SCHEMA,
    summary: 'second tool-result for one toolCallId',
    fix: 'Keep one tool-result per toolCallId and remove the others.',
    source: 'https://github.com/agno-agi/agno/issues/5116',
    repairable: true,
    kind: 'observed',
  },
  'aisdk.approval_response_unknown': {
    class: ORPHAN,
    summary: 'tool-approval-response without its tool-approval-request',
    fix: 'Answer only approval requests that stand in an earlier assistant message (same approvalId), or remove the response.',
    source: `${AISDK_APPROVAL}; https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling (tool execution approval)`,
    repairable: true,
    kind: 'doc',
  },
  'aisdk.approval_request_unknown_call': {
    class: SCHEMA,
    summary: 'tool-approval-request for a toolCallId that is not in the messages',
    fix: 'Point the approval request at the toolCallId of a tool-call in the messages, or remove it.',
    source: AISDK_APPROVAL_CALL,
    repairable: true,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`aisdk.${string}`, TranscriptRuleInfo>>;
