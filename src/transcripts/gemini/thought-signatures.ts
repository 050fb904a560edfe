/**
 * Thought signatures on Gemini function calls: which models refuse a function call turn whose
 * first `functionCall` part lacks its `thoughtSignature`, and the placeholder signature the
 * provider documents for calls it did not produce. Internal.
 *
 * Sources: https://ai.google.dev/gemini-api/docs/thought-signatures (Gemini 3 models validate
 * the signatures of the current turn; FAQ: the dummy signatures
 * `context_engineering_is_the_way_to_go` and `skip_thought_signature_validator` skip the
 * validation for function calls the API did not generate);
 * https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures (Gemini 3 Pro
 * Image does not enforce it); https://github.com/1jehuang/jcode/issues/518 (the
 * `gemini-flash-latest` alias enforces it).
 *
 * @module
 */

/**
 * The placeholder signature repair sets: of the two the Gemini API documents, the one Vertex AI
 * documents as well (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures,
 * using REST or manual handling).
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** The `-latest` aliases reported to enforce the validation (they name Gemini 3 models). */
const LATEST = /^gemini-(?:flash|flash-lite|pro)-latest$/;
const VERSION = /^gemini-(\d+)(?:[.-]|$)/;

/**
 * Whether `model` validates thought signatures on function calls: Gemini 3 and later
 * (`gemini-3-pro-preview`, `gemini-3.1-flash-lite`, `models/gemini-3-flash-preview`,
 * `publishers/google/models/gemini-3-pro-preview`), the `gemini-*-latest` aliases, not the image
 * models. `undefined` (no model known) is `false`: the rule does not run.
 */
export function validatesThoughtSignatures(model: string | undefined): boolean {
  if (model === undefined) return false;
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  if (name.includes('-image')) return false;
  if (LATEST.test(name)) return true;
  const version = VERSION.exec(name);
  return version !== null && Number(version[1]) >= 3;
}
