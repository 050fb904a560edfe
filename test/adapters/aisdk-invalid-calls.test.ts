/**
 * The AI SDK's own `generateText` (a mock model from `ai/test`) with calls it finds invalid: an
 * unknown tool and arguments that do not parse. The SDK answers each with an error result in its
 * response messages; the loop takes that result as the answer (no second one, no throw), runs no
 * mutation of that turn, and the next request the SDK sends is one the model accepts.
 */
import { generateText, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as v from 'valibot';
import { defineTools } from 'turngate';
import { toolLoop } from 'turngate/adapters/aisdk';
import { checkTranscript } from 'turngate/transcripts';
import { expect, it } from 'vitest';

class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ id: v.string() }), mutation: true },
}) {}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

it.each([
  ['an unknown tool', { toolName: 'drop_tables', input: '{}' }],
  ['arguments that do not parse', { toolName: 'get_weather', input: '{"city":' }],
])('%s beside a mutation: the SDK’s error result is the answer, nothing is sent', async (_name, bad) => {
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV4({
    modelId: 'mock-model',
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const answered = options.prompt.some((m) => m.role === 'tool');
      return {
        content: answered
          ? [{ type: 'text', text: 'Sorry, one call was wrong; I sent nothing.' }]
          : [
              { type: 'tool-call', toolCallId: 'call_bad', ...bad },
              { type: 'tool-call', toolCallId: 'call_mail', toolName: 'send_email', input: '{"to":"ada@example.com"}' },
            ],
        finishReason: { unified: answered ? 'stop' : 'tool-calls', raw: undefined },
        usage: USAGE,
        warnings: [],
        response: { id: answered ? 'resp-2' : 'resp-1', modelId: 'mock-model', timestamp: new Date(0) },
      };
    },
  });
  const sent: string[] = [];
  const loop = toolLoop({
    tools: Tools,
    handlers: {
      get_weather: async ({ city }) => `snow in ${city}`,
      send_email: async ({ to }) => {
        sent.push(to);
        return { id: to };
      },
    },
  });
  const history: ModelMessage[] = [{ role: 'user', content: 'Weather, then email Ada.' }];
  const steps = [];
  for (let step = loop.start(); !step.done; ) {
    const reply = await generateText({ model, tools: loop.tools, messages: history });
    step = await loop.answer(history, reply);
    steps.push(step);
    history.push(...step.messages);
  }
  expect(sent).toEqual([]);
  expect(steps[0]?.failures.map((f) => f.class)).toEqual(['tool.schema_invalid']);
  const results = history.flatMap((m) => (m.role === 'tool' ? m.content : [])).filter((p) => p.type === 'tool-result');
  expect(results.map((p) => p.toolCallId).sort()).toEqual(['call_bad', 'call_mail']);
  expect(checkTranscript(history, { format: 'aisdk' }).result).toBe('accepted');
  expect(prompts).toHaveLength(2);
});
