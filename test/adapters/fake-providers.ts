/**
 * Scripted provider APIs for the adapter examples: a `fetch` each SDK's own client takes (and a
 * mock model for the AI SDK). Each refuses a request the provider would refuse (the request
 * body through `checkTranscript`, answered with a 400 as the provider answers it), records the
 * requests, and answers: first the two tool calls (the read tool and the mutating tool), then,
 * once the history holds their results, a text answer.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { checkTranscriptJson, type TranscriptFormat } from 'turngate/transcripts';

/** What a scripted API saw. */
export interface Recorded {
  /** The request bodies, parsed. */
  readonly requests: Record<string, unknown>[];
}

type Reply = (body: Record<string, unknown>, turn: number) => unknown;

function scripted(format: TranscriptFormat, key: string, reply: Reply): { fetch: typeof fetch; recorded: Recorded } {
  const recorded: Recorded = { requests: [] };
  const fake = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    recorded.requests.push(body);
    const report = checkTranscriptJson(body[key], { format });
    if (report.result !== 'accepted') {
      const message = report.failures.map((f) => `${f.rule} ${f.ids.join(',')}`).join('; ') || report.result;
      return Response.json({ type: 'error', error: { type: 'invalid_request_error', message } }, { status: 400 });
    }
    const answered = (body[key] as unknown[]).length > 1;
    return Response.json(reply(body, answered ? 1 : 0), { status: 200 });
  };
  return { fetch: fake as typeof fetch, recorded };
}

const WEATHER = { city: 'Oslo' };
const EMAIL = { to: 'ada@example.com', subject: 'Oslo weather', body: 'Snow, -3 °C.' };

/** The Messages API. */
export function anthropicApi() {
  return scripted('anthropic', 'messages', (_body, turn) => ({
    id: `msg_0${turn + 1}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    stop_reason: turn === 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 10 },
    content:
      turn === 0
        ? [
            { type: 'text', text: 'Checking the weather, then sending it.' },
            { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: WEATHER },
            { type: 'tool_use', id: 'toolu_02', name: 'send_email', input: EMAIL },
          ]
        : [{ type: 'text', text: 'Snow in Oslo; I emailed Ada.' }],
  }));
}

/** Chat Completions. */
export function openAIChatApi() {
  return scripted('openai-chat', 'messages', (_body, turn) => ({
    id: `chatcmpl-${turn + 1}`,
    object: 'chat.completion',
    created: 0,
    model: 'gpt-5',
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: turn === 0 ? 'tool_calls' : 'stop',
        message:
          turn === 0
            ? {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'get_weather', arguments: JSON.stringify(WEATHER) },
                  },
                  {
                    id: 'call_2',
                    type: 'function',
                    function: { name: 'send_email', arguments: JSON.stringify(EMAIL) },
                  },
                ],
              }
            : { role: 'assistant', content: 'Snow in Oslo; I emailed Ada.', refusal: null },
      },
    ],
  }));
}

/** The Responses API. */
export function openAIResponsesApi() {
  return scripted('openai-responses', 'input', (_body, turn) => ({
    id: `resp_${turn + 1}`,
    object: 'response',
    created_at: 0,
    status: 'completed',
    model: 'gpt-5',
    output:
      turn === 0
        ? [
            {
              type: 'function_call',
              id: 'fc_1',
              call_id: 'call_1',
              name: 'get_weather',
              arguments: JSON.stringify(WEATHER),
              status: 'completed',
            },
            {
              type: 'function_call',
              id: 'fc_2',
              call_id: 'call_2',
              name: 'send_email',
              arguments: JSON.stringify(EMAIL),
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              id: 'msg_3',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'Snow in Oslo; I emailed Ada.', annotations: [] }],
            },
          ],
  }));
}

/** The Gemini API (`generateContent`). */
export function geminiApi() {
  return scripted('gemini', 'contents', (_body, turn) => ({
    responseId: `resp-${turn + 1}`,
    modelVersion: 'gemini-2.5-flash',
    candidates: [
      {
        index: 0,
        finishReason: 'STOP',
        content: {
          role: 'model',
          parts:
            turn === 0
              ? [
                  { functionCall: { id: 'fc_1', name: 'get_weather', args: WEATHER } },
                  { functionCall: { id: 'fc_2', name: 'send_email', args: EMAIL } },
                ]
              : [{ text: 'Snow in Oslo; I emailed Ada.' }],
        },
      },
    ],
  }));
}

const USAGE = {
  inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** A mock AI SDK model (`ai/test`) that refuses a prompt with a tool call left open. */
export function aisdkModel(): { model: MockLanguageModelV4; recorded: Recorded } {
  const recorded: Recorded = { requests: [] };
  const model = new MockLanguageModelV4({
    modelId: 'mock-model',
    doGenerate: async (options) => {
      recorded.requests.push({ prompt: options.prompt, tools: options.tools });
      const report = checkTranscriptJson(options.prompt, { format: 'aisdk' });
      if (report.result !== 'accepted') throw new Error(`400: ${report.failures.map((f) => f.rule).join('; ')}`);
      const answered = options.prompt.some((m) => m.role === 'tool');
      return {
        content: answered
          ? [{ type: 'text', text: 'Snow in Oslo; I emailed Ada.' }]
          : [
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: JSON.stringify(WEATHER) },
              { type: 'tool-call', toolCallId: 'call_2', toolName: 'send_email', input: JSON.stringify(EMAIL) },
            ],
        finishReason: { unified: answered ? 'stop' : 'tool-calls', raw: undefined },
        usage: USAGE,
        warnings: [],
        response: { id: answered ? 'resp-2' : 'resp-1', modelId: 'mock-model', timestamp: new Date(0) },
      };
    },
  });
  return { model, recorded };
}
