/**
 * The `'gemini'` format's wire types and valibot schemas: Gemini (`contents`), as
 * `checkTranscript` reads them (the `gemini` namespace of `turngate/formats`).
 *
 * Source: Google, Gemini API "Function calling" and `Content` reference.
 *
 * @module
 */
export {
  GeminiContentSchema,
  GeminiContentsSchema,
  type GeminiContent,
  type GeminiFunctionCall,
  type GeminiFunctionResponse,
  type GeminiPart,
} from '../transcripts/internal.ts';
