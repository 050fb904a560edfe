/**
 * A scripted AI SDK language model for the middleware tests, the example and the bench: it
 * answers every call with the text `ok` (generate or stream) and records what it was given
 * (`MockLanguageModelV4` from `ai/test`).
 */
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const finishReason: GenerateResult['finishReason'] = { unified: 'stop', raw: 'stop' };

/** A model that answers `ok`, and records each call's options in `doGenerateCalls` / `doStreamCalls`. */
export function okModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: 'text', text: 'ok' }], finishReason, usage, warnings: [] }),
    doStream: async () => ({
      stream: convertArrayToReadableStream<StreamPart>([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'ok' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason, usage },
      ]),
    }),
  });
}
