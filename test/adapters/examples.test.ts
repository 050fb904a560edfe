import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { checkTranscript } from 'turngate/transcripts';
import { describe, expect, it } from 'vitest';
import { replayAISDKReply, runAISDKLoop } from '../../examples/adapters/aisdk-loop.ts';
import { replayAnthropicReply, runAnthropicLoop } from '../../examples/adapters/anthropic-loop.ts';
import { replayGeminiReply, runGeminiLoop } from '../../examples/adapters/gemini-loop.ts';
import { replayOpenAIChatReply, runOpenAIChatLoop } from '../../examples/adapters/openai-chat-loop.ts';
import { replayOpenAIResponsesReply, runOpenAIResponsesLoop } from '../../examples/adapters/openai-responses-loop.ts';
import { aisdkModel, anthropicApi, geminiApi, openAIChatApi, openAIResponsesApi } from './fake-providers.ts';

const anthropic = (api: ReturnType<typeof anthropicApi>) =>
  new Anthropic({ apiKey: 'test', fetch: api.fetch, maxRetries: 0 });
const openai = (api: { fetch: typeof fetch }) => new OpenAI({ apiKey: 'test', fetch: api.fetch, maxRetries: 0 });
const gemini = (api: ReturnType<typeof geminiApi>) =>
  new GoogleGenAI({ apiKey: 'test', httpOptions: { fetch: api.fetch, retryOptions: { attempts: 1 } } });

const EMAIL = { to: 'ada@example.com', subject: 'Oslo weather' };

describe('adapter examples, each against its SDK’s own client', () => {
  it('Anthropic: both calls answered in one user message, tool_result blocks in call order; the email sent once, after the turn closed', async () => {
    const api = anthropicApi();
    const { history, outbox } = await runAnthropicLoop(anthropic(api));
    expect(api.recorded.requests).toHaveLength(2);
    expect(api.recorded.requests[0]?.['tools']).toEqual([
      expect.objectContaining({ name: 'get_weather', description: 'The weather now in a city.' }),
      expect.objectContaining({ name: 'send_email', input_schema: expect.objectContaining({ type: 'object' }) }),
    ]);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(history[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: '{"city":"Oslo","sky":"snow","celsius":-3}' },
        { type: 'tool_result', tool_use_id: 'toolu_02', content: '{"messageId":"msg-1"}' },
      ],
    });
    expect(outbox.sent).toEqual([expect.objectContaining(EMAIL)]);
    expect(outbox.sent[0]?.joinSetDigest).toMatch(/^sha256:/);
    expect(checkTranscript(history, { format: 'anthropic' }).result).toBe('accepted');
  });

  it('OpenAI Chat: the arguments JSON parsed and validated, one tool message per call', async () => {
    const api = openAIChatApi();
    const { history, outbox } = await runOpenAIChatLoop(openai(api));
    expect(api.recorded.requests).toHaveLength(2);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(history.slice(2, 4)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Oslo","sky":"snow","celsius":-3}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"messageId":"msg-1"}' },
    ]);
    expect(outbox.sent).toEqual([expect.objectContaining(EMAIL)]);
  });

  it('OpenAI Responses: the function_call items go back with one function_call_output each', async () => {
    const api = openAIResponsesApi();
    const { history, outbox } = await runOpenAIResponsesLoop(openai(api));
    expect(api.recorded.requests).toHaveLength(2);
    expect(history.map((item) => ('type' in item ? item.type : 'message'))).toEqual([
      'message',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'message',
    ]);
    expect(history[4]).toEqual({ type: 'function_call_output', call_id: 'call_2', output: '{"messageId":"msg-1"}' });
    expect(outbox.sent).toEqual([expect.objectContaining(EMAIL)]);
  });

  it('Gemini: one user content of functionResponse parts, matched by id', async () => {
    const api = geminiApi();
    const { history, outbox } = await runGeminiLoop(gemini(api));
    expect(api.recorded.requests).toHaveLength(2);
    expect(history.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model']);
    expect(history[2]?.parts).toEqual([
      {
        functionResponse: {
          id: 'fc_1',
          name: 'get_weather',
          response: { output: { city: 'Oslo', sky: 'snow', celsius: -3 } },
        },
      },
      { functionResponse: { id: 'fc_2', name: 'send_email', response: { output: { messageId: 'msg-1' } } } },
    ]);
    expect(outbox.sent).toEqual([expect.objectContaining(EMAIL)]);
  });

  it('AI SDK: generateText hands the calls back (no execute); one tool message of tool-result parts', async () => {
    const { model, recorded } = aisdkModel();
    const { history, outbox } = await runAISDKLoop(model);
    expect(recorded.requests).toHaveLength(2);
    expect(recorded.requests[0]?.['tools']).toEqual([
      expect.objectContaining({ name: 'get_weather', inputSchema: expect.objectContaining({ type: 'object' }) }),
      expect.objectContaining({ name: 'send_email' }),
    ]);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(history[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'get_weather',
          output: { type: 'json', value: { city: 'Oslo', sky: 'snow', celsius: -3 } },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_2',
          toolName: 'send_email',
          output: { type: 'json', value: { messageId: 'msg-1' } },
        },
      ],
    });
    expect(outbox.sent).toEqual([expect.objectContaining(EMAIL)]);
  });
});

describe('a replayed reply runs the mutating handler once; both answers carry the same result', () => {
  const cases = [
    ['anthropic', () => replayAnthropicReply(anthropic(anthropicApi()))],
    ['openai-chat', () => replayOpenAIChatReply(openai(openAIChatApi()))],
    ['openai-responses', () => replayOpenAIResponsesReply(openai(openAIResponsesApi()))],
    ['gemini', () => replayGeminiReply(gemini(geminiApi()))],
    ['aisdk', () => replayAISDKReply(aisdkModel().model)],
  ] as const;
  it.each(cases)('%s', async (_format, replay) => {
    const { first, again, outbox } = await replay();
    expect(outbox.sent).toHaveLength(1);
    expect(first.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(again.results).toEqual(first.results);
    expect(again.messages).toEqual(first.messages);
  });
});
