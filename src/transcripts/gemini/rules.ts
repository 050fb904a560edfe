/**
 * The rules of Gemini `generateContent` the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix and its source (see `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const GEMINI_FUNCTION_CALLING = 'https://ai.google.dev/gemini-api/docs/function-calling';
const GEMINI_FUNCTION_RESPONSE = 'https://ai.google.dev/api/caching#FunctionResponse';

/** The gemini rules, by rule id. */
export const GEMINI_RULES = {
  // Gemini generateContent: the function calling guide; the position rules are observed 400s.
  'gemini.function_call_unanswered': {
    class: MISSING,
    summary: 'functionCall without a functionResponse in the user content right after it',
    fix: 'Answer every functionCall of the model content with a functionResponse part in the user content that directly follows it.',
    source: `${GEMINI_FUNCTION_CALLING} (parallel function calling); https://github.com/google-gemini/gemini-cli/issues/4217`,
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_response_orphan': {
    class: ORPHAN,
    summary: 'functionResponse for a call that is not in the contents',
    fix: 'Remove the functionResponse part, or restore the model functionCall it answers.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_response_not_after_call': {
    class: ORDER,
    summary: 'functionResponse not in the user content right after its call',
    fix: 'Move the functionResponse into the user content that directly follows the model content with its functionCall.',
    source:
      'https://github.com/langchain-ai/langchain/issues/27799; https://github.com/GoogleCloudPlatform/generative-ai/pull/368',
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_call_turn_misplaced': {
    class: ORDER,
    summary: 'function call turn not directly after a user content',
    fix: 'Put a user content (a user turn or the function responses) directly before the model content with function calls.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/11814',
    repairable: true,
    kind: 'observed',
  },
  'gemini.duplicate_function_response': {
    class: SCHEMA,
    summary: 'second functionResponse for one call',
    fix: 'Keep one functionResponse per functionCall and remove the others.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_response_missing_name': {
    class: SCHEMA,
    summary: 'functionResponse without name or response',
    fix: 'Give the functionResponse the name of the function it answers and its response object.',
    source: `${GEMINI_FUNCTION_RESPONSE} (name and response are required)`,
    repairable: true,
    kind: 'doc',
  },
} as const satisfies Readonly<Record<`gemini.${string}`, TranscriptRuleInfo>>;
