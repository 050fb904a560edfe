/**
 * The AI SDK middleware (`turngate/adapters/aisdk`) around a scripted model (no network):
 *
 * 1. a history loaded back from storage lost an assistant message, leaving an orphan
 *    `tool-result` (the SDK passes it on; OpenAI and Anthropic refuse it with a 400): under
 *    `onReject: 'throw'` the call fails with `TranscriptRejectedError` before the model runs;
 * 2. under `onReject: 'repair'` the orphan is removed (its words kept as user text), the repair
 *    reported, and the model called;
 * 3. a `generateText` tool loop: every step's prompt goes through the guard.
 *
 * The tests run `runMiddlewareExample()` (test/aisdk-middleware-example.test.ts).
 */
import { generateText, isStepCount, jsonSchema, type ModelMessage, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { TranscriptRejectedError, transcriptGuard } from 'turngate/adapters/aisdk';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The scripted model: after a tool result it answers; otherwise it looks the order up. */
function scriptedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }: CallOptions) => ({
      content:
        prompt.at(-1)?.role === 'tool'
          ? [{ type: 'text', text: 'Order A-1001: 42 EUR, shipped.' }]
          : [{ type: 'tool-call', toolCallId: 'call_look', toolName: 'lookupOrder', input: '{"id":"A-1001"}' }],
      finishReason: { unified: prompt.at(-1)?.role === 'tool' ? 'stop' : 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    }),
  });
}

/** A history whose assistant tool-call message was lost: its tool-result is an orphan. */
const stored: ModelMessage[] = [
  { role: 'user', content: 'Where is order A-1001?' },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_0',
        toolName: 'lookupOrder',
        output: { type: 'text', value: 'A-1001: shipped' },
      },
    ],
  },
  { role: 'user', content: 'And its total?' },
];

/**
 * Runs the three calls and returns what happened, one line each.
 *
 * @returns The log.
 */
export async function runMiddlewareExample(): Promise<string[]> {
  const log: string[] = [];

  const strict = wrapLanguageModel({ model: scriptedModel(), middleware: transcriptGuard() });
  try {
    await generateText({ model: strict, messages: stored });
  } catch (error) {
    if (!(error instanceof TranscriptRejectedError)) throw error;
    for (const f of error.failures) log.push(`refused: ${f.class} ${f.rule} [${f.ids.join(', ')}] at ${f.at}`);
  }

  const lenient = wrapLanguageModel({
    model: scriptedModel(),
    middleware: transcriptGuard({
      onReject: 'repair',
      onRepair: (repairs) => {
        for (const r of repairs) log.push(`repaired: ${r.action} [${r.ids.join(', ')}] at ${r.at}`);
      },
    }),
  });
  const repaired = await generateText({ model: lenient, messages: stored });
  log.push(`model: ${repaired.toolCalls.map((call) => `calls ${call.toolName}`).join(', ') || repaired.text}`);

  const loop = await generateText({
    model: wrapLanguageModel({ model: scriptedModel(), middleware: transcriptGuard() }),
    messages: [{ role: 'user', content: 'Where is order A-1001?' }],
    tools: {
      lookupOrder: tool({
        inputSchema: jsonSchema<{ id: string }>({
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
        }),
        execute: async ({ id }) => ({ id, total: 42, status: 'shipped' }),
      }),
    },
    stopWhen: isStepCount(3),
  });
  log.push(`tool loop: ${loop.steps.length} steps, answer: ${loop.text}`);
  return log;
}
