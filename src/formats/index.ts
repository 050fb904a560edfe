/**
 * The providers' wire formats (`turngate/formats`): one namespace per transcript format, named
 * after the format's id in camelCase (`'openai-chat'` -> `openaiChat`), each holding that
 * format's message types (what a history of the format is, and what turngate writes into one) and
 * its valibot schemas. The verbs that take these histories (`checkTranscript`, `repairTranscript`,
 * `convertTranscript`, `trimTranscript`, `extendTranscript`) are in `turngate/transcripts`, with
 * turngate's own format, `ChatMessage`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { anthropic } from 'turngate/formats';
 * const history: anthropic.AnthropicMessage[] = [{ role: 'user', content: 'hi' }];
 * v.is(anthropic.AnthropicMessagesSchema, history); //=> true
 * ```
 *
 * @module
 */
export * as anthropic from './anthropic.ts';
export * as openaiChat from './openai-chat.ts';
export * as openaiResponses from './openai-responses.ts';
export * as aisdk from './aisdk.ts';
export * as gemini from './gemini.ts';
export * as bedrockConverse from './bedrock-converse.ts';
export * as langchain from './langchain.ts';
export * as mistral from './mistral.ts';
