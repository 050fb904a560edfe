import * as anthropic from '@anthropic-ai/sdk';
import { APICallError } from 'ai';
import * as openai from 'openai';
import { describe, expect, it } from 'vitest';
import {
  bucketOf,
  ChatError,
  classifyError,
  createChatHarness,
  sequentialGraph,
  SignalIdInUse,
  suspend,
  type ChatTurnErrored,
  type ErrorClassifier,
} from './index.ts';

const headers = new Headers({ 'request-id': 'req_internal_123', 'x-request-id': 'req_internal_123' });

/** The SDKs build their errors from a status and a body, as they do for a real response. */
function anthropicError(status: number, type: string) {
  return anthropic.APIError.generate(
    status,
    { type: 'error', error: { type, message: `internal: ${type}` } },
    undefined,
    headers,
  );
}
function openaiError(status: number, code: string | null = null) {
  return openai.APIError.generate(
    status,
    { error: { message: `internal: ${code}`, type: 'x', code, param: null } },
    undefined,
    headers,
  );
}

describe('classifyError', () => {
  it.each([
    [400, 'provider_invalid_request', 'user_correctable'],
    [401, 'provider_authentication', 'user_correctable'],
    [403, 'provider_authentication', 'user_correctable'],
    [404, 'provider_invalid_model', 'user_correctable'],
    [408, 'provider_timeout', 'retryable_transient'],
    [413, 'provider_invalid_request', 'user_correctable'],
    [422, 'provider_invalid_request', 'user_correctable'],
    [429, 'provider_rate_limited', 'retryable_transient'],
    [500, 'provider_unavailable', 'retryable_transient'],
    [503, 'provider_unavailable', 'retryable_transient'],
    [504, 'provider_timeout', 'retryable_transient'],
    [529, 'provider_unavailable', 'retryable_transient'],
  ])('reads an Anthropic and an OpenAI HTTP %i as %s (%s)', (status, category, bucket) => {
    for (const error of [anthropicError(status, 'some_error'), openaiError(status)]) {
      const classified = classifyError(error);
      expect(classified.category).toBe(category);
      expect(bucketOf(classified.category)).toBe(bucket);
      expect(classified.detail ?? '').not.toMatch(/internal|req_/);
    }
  });

  it('reads the SDKs’ connection errors by class, and a context-length code', () => {
    expect(classifyError(new anthropic.APIConnectionTimeoutError()).category).toBe('provider_timeout');
    expect(classifyError(new openai.APIConnectionTimeoutError()).category).toBe('provider_timeout');
    expect(classifyError(new anthropic.APIConnectionError({ message: 'socket hang up' })).category).toBe(
      'provider_unavailable',
    );
    expect(classifyError(new openai.APIConnectionError({ message: 'socket hang up' })).category).toBe(
      'provider_unavailable',
    );
    expect(classifyError(openaiError(400, 'context_length_exceeded'))).toEqual({
      category: 'provider_invalid_request',
      detail: 'the conversation is too long for the model',
    });
  });

  it('reads the AI SDK’s APICallError by its statusCode', () => {
    const error = new APICallError({
      message: 'Too Many Requests',
      url: 'https://api.example.com',
      requestBodyValues: {},
      statusCode: 429,
    });
    expect(classifyError(error).category).toBe('provider_rate_limited');
  });

  it('reads network failures along the cause chain, and fetch and AbortSignal timeouts', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
    expect(classifyError(new TypeError('fetch failed', { cause: refused })).category).toBe('provider_unavailable');
    const slow = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(classifyError(new TypeError('fetch failed', { cause: slow })).category).toBe('provider_timeout');
    expect(classifyError(new TypeError('fetch failed')).category).toBe('provider_unavailable');
    expect(classifyError(new DOMException('The operation was aborted due to timeout', 'TimeoutError')).category).toBe(
      'provider_timeout',
    );
  });

  it('calls JavaScript’s own errors programming errors; other errors stay unclassified', () => {
    for (const error of [
      new TypeError('x is undefined'),
      new ReferenceError('y'),
      new RangeError('z'),
      new SyntaxError('w'),
    ])
      expect(classifyError(error)).toEqual({ category: 'graph_programming_error' });
    expect(bucketOf('graph_programming_error')).toBe('session_terminating');
    expect(classifyError(new Error('boom'))).toEqual({ category: 'graph_error' });
    expect(bucketOf('graph_error')).toBe('retryable_transient');
    for (const value of [undefined, null, 42, 'text', Symbol('s'), {}])
      expect(classifyError(value)).toEqual({ category: 'graph_error' });
  });

  it('reads a category and its message, from own data only, without running getters or traps', () => {
    expect(classifyError(new ChatError('provider_invalid_request', 'the file is too large'))).toEqual({
      category: 'provider_invalid_request',
      detail: 'the file is too large',
    });
    expect(classifyError({ category: 'provider_unavailable' })).toEqual({ category: 'provider_unavailable' });
    expect(classifyError(new SignalIdInUse('approval', 's')).category).toBe('harness_signal_subscription_failed');
    expect(classifyError(Object.assign(new Error('reset'), { code: 'session_write_conflict' }))).toEqual({
      category: 'graph_error',
    });
    const getter = Object.defineProperty({}, 'category', {
      get() {
        throw new Error('no');
      },
    });
    expect(classifyError(getter)).toEqual({ category: 'graph_error' });
    const trap = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('no');
        },
        getPrototypeOf() {
          throw new Error('no');
        },
      },
    );
    expect(classifyError(trap)).toEqual({ category: 'graph_error' });
    expect(classifyError(Object.create({ category: 'inherited', status: 429 }))).toEqual({ category: 'graph_error' });
  });
});

describe('errored outcomes', () => {
  const failing = (error: unknown) =>
    sequentialGraph({
      entry: 'n',
      nodes: {
        n: () => {
          throw error;
        },
      },
      edges: [],
    });

  it('keep the cause for the application, not enumerable and never in the reply', async () => {
    const cause = anthropicError(401, 'authentication_error');
    const outcome = (await createChatHarness({ graph: failing(cause) }).send('s', {
      role: 'user',
      content: 'hi',
    })) as ChatTurnErrored;
    expect(outcome).toMatchObject({
      outcome: 'errored',
      errorCategory: 'provider_authentication',
      errorBucket: 'user_correctable',
    });
    expect(outcome.cause).toBe(cause);
    expect(Object.keys(outcome)).not.toContain('cause');
    expect(JSON.stringify(outcome)).not.toMatch(/internal|req_internal/);
    expect(outcome.reply.content).toBe(
      "That request couldn't be processed: the assistant is not authorized to use its model. Please adjust your message and try again.",
    );
  });

  it('name a dangling tool call’s ids in the cause', async () => {
    const graph = sequentialGraph({
      entry: 'n',
      nodes: {
        n: () => ({
          messages: [
            {
              role: 'assistant',
              content: [],
              tool_calls: [
                { id: 'call_b', name: 'a', arguments: {} },
                { id: 'call_a', name: 'a', arguments: {} },
              ],
            },
          ],
        }),
      },
      edges: [],
    });
    const outcome = (await createChatHarness({ graph }).send('s', { role: 'user', content: 'hi' })) as ChatTurnErrored;
    expect(outcome.errorCategory).toBe('tool.result_missing');
    expect(outcome.cause).toMatchObject({
      class: 'tool.result_missing',
      ids: ['call_a', 'call_b'],
      failures: [{ class: 'tool.result_missing', rule: 'chat.tool_call_unanswered', ids: ['call_a', 'call_b'] }],
    });
    expect((outcome.cause as { detail: string }).detail).toMatch(/call_a, call_b/);
    expect(String(outcome.reply.content)).not.toMatch(/call_/);
  });

  it('use the application’s classification hook first, and the built-in one when it declines or throws', async () => {
    class QuotaExceeded extends Error {}
    const classify: ErrorClassifier = (error) => {
      if (error instanceof QuotaExceeded)
        return { category: 'provider_invalid_request', detail: 'your monthly quota is used up' };
      if (error instanceof RangeError) throw new Error('a faulty hook');
      return undefined;
    };
    const send = (error: unknown) =>
      createChatHarness({ graph: failing(error), classifyError: classify }).send('s', { role: 'user', content: 'hi' });
    expect(await send(new QuotaExceeded('internal quota id 77'))).toMatchObject({
      errorCategory: 'provider_invalid_request',
      reply: {
        content:
          "That request couldn't be processed: your monthly quota is used up. Please adjust your message and try again.",
      },
    });
    expect(await send(openaiError(429))).toMatchObject({ errorCategory: 'provider_rate_limited' });
    expect(await send(new RangeError('bad'))).toMatchObject({ errorCategory: 'graph_programming_error' });
  });

  it('show no internal detail in the replies the harness writes itself', async () => {
    const graph = sequentialGraph({
      entry: 'ask',
      nodes: {
        ask: (state) =>
          state['withCall'] === true
            ? {
                messages: [
                  { role: 'assistant', content: [], tool_calls: [{ id: 'call_secret', name: 'a', arguments: {} }] },
                ],
              }
            : undefined,
        wait: () => suspend({ signal_id: 'signal-secret' }),
      },
      edges: [{ from: 'ask', to: 'wait' }],
    });
    for (const withCall of [true, false]) {
      const harness = createChatHarness({ graph, initialState: { withCall } });
      await harness.send('s', { role: 'user', content: 'go' });
      const refused = (await harness.send('s', { role: 'user', content: 'hello?' })) as ChatTurnErrored;
      expect(refused.errorBucket).toBe('user_correctable');
      expect(String(refused.reply.content)).not.toMatch(/secret/);
      expect((refused.cause as ChatError).ids).toEqual([withCall ? 'call_secret' : 'signal-secret']);
    }
  });
});
