/**
 * The AI SDK middleware (`turngate/ai-sdk`): `transcriptGuard()` checks the prompt of every
 * model call a wrapped model makes against the `aisdk` transcript rules, and throws
 * `TranscriptRejectedError` (or repairs the prompt) before the model sees a prompt its provider
 * would refuse. The SDK (`ai`) is not a dependency: the types are structural.
 *
 * @module
 */
export { transcriptGuard } from './middleware.ts';
export type { GuardedCallOptions, OnReject, TranscriptGuardMiddleware, TranscriptGuardOptions } from './middleware.ts';
export { TranscriptRejectedError } from './errors.ts';
