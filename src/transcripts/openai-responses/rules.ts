/**
 * The rules of the OpenAI Responses API the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const OPENAI_FUNCTION_CALLING = 'https://platform.openai.com/docs/guides/function-calling';
const OPENAI_RESPONSES_REFERENCE = 'https://platform.openai.com/docs/api-reference/responses/create';
const OPENAI_REASONING = 'https://platform.openai.com/docs/guides/reasoning';

/** The openai-responses rules, by rule id. */
export const OPENAI_RESPONSES_RULES = {
  // OpenAI Responses: pairing by call_id anywhere after the call (observed error texts).
  'openai-responses.function_call_unanswered': {
    class: MISSING,
    summary: 'call item without an output item with its call_id after it',
    fix: 'Add an output item (function_call_output, custom_tool_call_output, ...) with this call_id after the call.',
    source: `${OPENAI_FUNCTION_CALLING} (function tool example); https://github.com/openai/openai-support-agent-demo/issues/12`,
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_output_orphan': {
    class: ORPHAN,
    summary: 'output item for a call_id that is not in the input',
    fix: 'Remove the output item, or add the call item it answers before it (or send previous_response_id).',
    source:
      'https://github.com/continuedev/continue/issues/10092; https://community.openai.com/t/issue-with-new-responses-api-400-no-tool-call-found-for-function-call-output-with-call-id/1142327',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.function_call_output_before_call': {
    class: ORDER,
    summary: 'output item before its call item',
    fix: 'Move the output item after the call item with the same call_id.',
    source: 'https://github.com/continuedev/continue/issues/10092 (the API resolves call_id against earlier items)',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.duplicate_item_id': {
    class: SCHEMA,
    summary: 'item id used twice in the input',
    fix: 'Send each item once; drop the repeated item (or the items the server already holds under previous_response_id).',
    source:
      'https://github.com/vercel/ai/issues/13307; https://github.com/vercel/ai/issues/7883; https://github.com/MacPaw/OpenAI/issues/432',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.duplicate_function_call_output': {
    class: SCHEMA,
    summary: 'second output item for one call_id',
    fix: 'Keep one output item per call_id and remove the others.',
    source: 'https://github.com/NousResearch/hermes-agent/pull/111443',
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.reasoning_without_following_item': {
    class: ORDER,
    summary: 'reasoning item without the item that followed it in the response',
    fix: 'Keep each reasoning item directly before the call or message it came with, or drop the reasoning item.',
    source: `${OPENAI_REASONING} (keeping reasoning items in context); https://github.com/openai/openai-agents-js/issues/326; https://github.com/continuedev/continue/issues/8933`,
    repairable: true,
    kind: 'observed',
  },
  'openai-responses.output_missing_field': {
    class: SCHEMA,
    summary: 'output item without output or call_id',
    fix: 'Give the output item the call_id of its call and its output.',
    source: `${OPENAI_RESPONSES_REFERENCE} (input items, function tool call output)`,
    repairable: true,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`openai-responses.${string}`, TranscriptRuleInfo>>;
