/**
 * The rules of Gemini `generateContent` the transcript check enforces: one entry per rule id, with its
 * failure class, what breaks it, the fix, its source and the provider's own error text (see
 * `TRANSCRIPT_RULES`).
 *
 * @module
 */
import { MISSING, ORDER, ORPHAN, SCHEMA, type TranscriptRuleInfo } from '../core/rule-info.ts';

const FUNCTION_CALLING = 'https://ai.google.dev/gemini-api/docs/function-calling';
const FUNCTION_RESPONSE = 'https://ai.google.dev/api/caching#FunctionResponse';
const THOUGHT_SIGNATURES = 'https://ai.google.dev/gemini-api/docs/thought-signatures';
const CONTENT_REFERENCE = 'https://ai.google.dev/api/caching#Content';

/** The count error: the provider answers it for a response turn that does not answer every call of the call turn. */
const COUNT =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
/** The error for a content that mixes function calls and function responses. */
const MIXED =
  'Please ensure that function call turn contains at least one function_call part which can not be mixed with function_response parts.';

/** The gemini rules, by rule id. */
export const GEMINI_RULES = {
  // Pairing and position: the function calling guide; the position rules are observed 400s.
  'gemini.function_call_unanswered': {
    class: MISSING,
    summary: 'functionCall without a functionResponse in the user content right after it',
    fix: 'Answer every functionCall of the model content with a functionResponse part in the user content that directly follows it.',
    source: `${FUNCTION_CALLING} (parallel function calling); https://github.com/google-gemini/gemini-cli/issues/4217`,
    providerError: COUNT,
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_response_orphan': {
    class: ORPHAN,
    summary: 'functionResponse for a call that is not in the contents',
    fix: 'Remove the functionResponse part, or restore the model functionCall it answers.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    providerError: COUNT,
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_response_not_after_call': {
    class: ORDER,
    summary: 'functionResponse not in the user content right after its call',
    fix: 'Move the functionResponse into the user content that directly follows the model content with its functionCall.',
    source:
      'https://github.com/langchain-ai/langchain/issues/27799; https://github.com/GoogleCloudPlatform/generative-ai/pull/368',
    providerError: 'Please ensure that function response turn comes immediately after a function call turn.',
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_responses_split': {
    class: ORDER,
    summary:
      'functionResponse of a parallel batch in a later user content: the responses to one call turn are split over contents',
    fix: 'Put every functionResponse answering the calls of one model content into the single user content right after it (merge the user contents).',
    source: `${FUNCTION_CALLING} (parallel function calling: the responses go back in one content); https://github.com/cloudwego/eino-ext/issues/571; https://github.com/docker/docker-agent/pull/2959`,
    providerError: COUNT,
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_call_turn_misplaced': {
    class: ORDER,
    summary: 'function call turn not directly after a user content',
    fix: 'Put a user content (a user turn or the function responses) directly before the model content with function calls.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/11814',
    providerError:
      'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
    repairable: true,
    kind: 'observed',
  },
  'gemini.duplicate_function_response': {
    class: SCHEMA,
    summary: 'second functionResponse for one call',
    fix: 'Keep one functionResponse per functionCall and remove the others.',
    source: 'https://github.com/google-gemini/gemini-cli/issues/26956',
    providerError: COUNT,
    repairable: true,
    kind: 'observed',
  },
  // Where calls and responses stand by role.
  'gemini.function_response_in_model_content': {
    class: ORDER,
    summary: 'functionResponse in a model content (function responses go back in a user content)',
    fix: 'Move the functionResponse into the user content right after the model content with its functionCall.',
    source: `${FUNCTION_CALLING} (step 4: the response goes back with role user); https://github.com/maximhq/bifrost/pull/2222; https://github.com/googleapis/python-genai/issues/81`,
    providerError: MIXED,
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_call_in_user_content': {
    class: ORDER,
    summary: 'functionCall in a user content (only the model makes function calls)',
    fix: 'Put the functionCall back into the model content it came from, and its functionResponse into the user content after that.',
    source: 'https://github.com/googleapis/python-genai/issues/81',
    providerError: MIXED,
    repairable: false,
    kind: 'observed',
  },
  // Shape of the parts.
  'gemini.function_response_missing_name': {
    class: SCHEMA,
    summary: 'functionResponse without the name of its function',
    fix: 'Give the functionResponse the name of the function whose call it answers.',
    source: `${FUNCTION_RESPONSE} (name is required); https://github.com/langflow-ai/langflow/issues/9437`,
    providerError: '* GenerateContentRequest.contents[…].parts[…].function_response.name: Name cannot be empty.',
    repairable: true,
    kind: 'doc',
  },
  'gemini.function_response_name_mismatch': {
    class: SCHEMA,
    summary: 'functionResponse paired by id names another function than its call',
    fix: 'Give the functionResponse the name of the functionCall with its id.',
    source: `${FUNCTION_RESPONSE} (name matches FunctionCall.name); https://github.com/archestra-ai/archestra/pull/7583`,
    repairable: true,
    kind: 'doc',
  },
  'gemini.function_response_not_object': {
    class: SCHEMA,
    summary: 'functionResponse whose response is not a JSON object, or missing with no multimodal parts',
    fix: 'Send the function result as a JSON object in response, e.g. { "output": … } (or { "error": … }).',
    source: `${FUNCTION_RESPONSE} (response is a required JSON object; "output" and "error" keys); https://github.com/preset-io/agor/issues/496; https://github.com/danny-avila/LibreChat/issues/5525`,
    providerError:
      "Invalid value at 'contents[…].parts[…].function_response.response' (type.googleapis.com/google.protobuf.Struct), …",
    repairable: true,
    kind: 'doc',
  },
  'gemini.content_without_parts': {
    class: SCHEMA,
    summary: 'content without parts',
    fix: 'Remove the empty content, or give it its parts (an empty model content often stands for a malformed function call that was never sent back).',
    source:
      'https://github.com/egoist/chatwise-releases/issues/250; https://github.com/agno-agi/agno/issues/2649; https://github.com/vercel/ai/pull/5039',
    providerError: '* GenerateContentRequest.contents[…].parts: contents.parts must not be empty.',
    repairable: true,
    kind: 'observed',
  },
  'gemini.content_role_missing': {
    class: SCHEMA,
    summary: 'content without a role in a conversation of several contents (a function response content included)',
    fix: "Give every content its role: 'user' for the user's turns and function responses, 'model' for the model's turns and function calls.",
    source: `${CONTENT_REFERENCE} (role: may be left unset for a single turn, set for a conversation); https://github.com/BerriAI/litellm/pull/22046; https://github.com/BerriAI/litellm/issues/22003`,
    providerError: 'Please use a valid role: user, model.',
    repairable: true,
    kind: 'observed',
  },
  'gemini.function_role_unsupported': {
    class: SCHEMA,
    summary: "content with the legacy role 'function'",
    fix: "Send function responses in a content with role 'user' (the only roles of contents are user and model).",
    source: `${FUNCTION_CALLING} (function responses go back in a user content); https://github.com/kurojs/Gemini-Kchat/issues/5; https://github.com/Sylinko/Everywhere/issues/478; https://github.com/blakeblackshear/frigate/pull/24013`,
    providerError:
      "Role 'function' is not supported. Please use a valid role: SYSTEM, SYSTEM_1, USER, ASSISTANT, DEVELOPER, CONTEXT, USER_CONTEXT, MODEL, USER.",
    repairable: true,
    kind: 'observed',
  },
  // Model-specific.
  'gemini.function_call_missing_thought_signature': {
    class: SCHEMA,
    summary: 'first functionCall of a step of the current turn without its thoughtSignature',
    fix: 'Send the model content back exactly as the model returned it, with the thoughtSignature on its first functionCall part (a parallel batch split over model contents loses it).',
    source: `${THOUGHT_SIGNATURES} (signatures in function calling parts: validation of the current turn; FAQs); https://github.com/vercel/ai/issues/10344`,
    providerError:
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `…` , position …. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    repairable: true,
    kind: 'doc',
    models:
      'Gemini 3 and later (gemini-3-*, gemini-3.1-*, gemini-4-*, the gemini-*-latest aliases); not the image models',
  },
} as const satisfies Readonly<Record<`gemini.${string}`, TranscriptRuleInfo>>;

/** The gemini rule ids (`gemini.<rule_name>`): the only ones this format's check and repair name. */
export type GeminiRule = keyof typeof GEMINI_RULES;
