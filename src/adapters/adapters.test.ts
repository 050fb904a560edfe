import type Anthropic from '@anthropic-ai/sdk';
import type { Content, GenerateContentResponse } from '@google/genai';
import type OpenAI from 'openai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { replyOf } from '../../test/adapters/reply-shapes.ts';
import { defineTools, MemoryEffectLedger } from '../index.ts';
import { toolDeclarations as anthropicTools, toolLoop as anthropicLoop } from './anthropic/index.ts';
import { ToolLoopError } from './index.ts';
import { toolLoop as geminiLoop } from './gemini/index.ts';
import { toolDeclarations as chatTools, toolLoop as chatLoop } from './openai-chat/index.ts';

class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  send_email: {
    input: v.object({ to: v.pipe(v.string(), v.email()) }),
    output: v.object({ sent: v.boolean() }),
    mutation: true,
  },
}) {}

function counting() {
  const sent: string[] = [];
  return {
    sent,
    handlers: {
      get_weather: async ({ city }: { city: string }) => `snow in ${city}`,
      send_email: async ({ to }: { to: string }) => {
        sent.push(to);
        return { sent: true };
      },
    },
  };
}

const anthropicReply = (content: Anthropic.ContentBlock[], stop: Anthropic.StopReason = 'tool_use') =>
  ({ id: 'msg_1', model: 'claude-sonnet-4-6', stop_reason: stop, content }) as Anthropic.Message;

const completion = (calls: [string, string, string][]) =>
  replyOf(
    'openai-chat',
    calls.map(([id, name, argsText]) => ({ id, name, argsText })),
  ) as OpenAI.ChatCompletion;

const user: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Oslo, email ada@example.com' }];

describe('declarations', () => {
  it('one registry gives each SDK its shape, with the description and the input JSON Schema', () => {
    class Described extends defineTools({
      get_weather: {
        input: v.object({ city: v.string(), days: v.optional(v.number()) }),
        output: v.string(),
        description: 'Weather.',
      },
    }) {}
    expect(anthropicTools(Described)).toEqual([
      {
        name: 'get_weather',
        description: 'Weather.',
        input_schema: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'number' } },
          required: ['city'],
        },
      },
    ]);
    expect(chatTools(Described)[0]?.function.parameters).toEqual(anthropicTools(Described)[0]?.input_schema);
  });

  it('a transform is fine: the schema describes what the model sends, before it', () => {
    class Transformed extends defineTools({
      wait: { input: v.object({ ms: v.pipe(v.string(), v.transform(Number)) }), output: v.null() },
    }) {}
    expect(anthropicTools(Transformed)[0]?.input_schema.properties).toEqual({ ms: { type: 'string' } });
  });

  it('what JSON Schema cannot express is an error naming the tool and the place in its schema', () => {
    class Checked extends defineTools({
      book: {
        input: v.object({
          trip: v.object({
            nights: v.pipe(
              v.number(),
              v.check((n) => n % 7 === 0),
            ),
          }),
        }),
        output: v.null(),
      },
    }) {}
    expect(() => anthropicTools(Checked)).toThrow(
      /^tool "book": input\.trip\.nights cannot be converted to JSON Schema: The "check" action/,
    );
    expect(anthropicTools(Checked, { ignoreActions: ['check'] })[0]?.name).toBe('book');
    class Dated extends defineTools({ at: { input: v.object({ when: v.array(v.date()) }), output: v.null() } }) {}
    expect(() => chatTools(Dated)).toThrow(/tool "at": input\.when\[\] cannot be converted .*"date" schema/);
    class Scalar extends defineTools({ echo: { input: v.string(), output: v.string() } }) {}
    expect(() => anthropicLoop({ tools: Scalar, handlers: { echo: async (s) => s } })).toThrow(
      'tool "echo": input must be an object schema (providers take the arguments as one object), got JSON Schema type "string"',
    );
  });
});

describe('the loop', () => {
  it('a reply without a client call is done: only the reply is appended', async () => {
    const { handlers } = counting();
    const step = await anthropicLoop({ tools: Tools, handlers }).answer(
      user,
      anthropicReply([{ type: 'text', text: 'Snow.', citations: null }], 'end_turn'),
    );
    expect(step).toMatchObject({ done: true, messages: [{ role: 'assistant' }], mutations: [], results: [] });
  });

  it('arguments that do not parse, do not validate, or name an unknown tool become those calls’ error results; no mutation runs on such a turn', async () => {
    const { handlers, sent } = counting();
    const history: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Go' }];
    const step = await chatLoop({ tools: Tools, handlers }).answer(
      history,
      completion([
        ['call_1', 'get_weather', '{"city":'],
        ['call_2', 'get_weather', '{"town":"Oslo"}'],
        ['call_3', 'launch', '{}'],
        ['call_4', 'send_email', '{"to":"ada@example.com"}'],
      ]),
    );
    expect(step.results.map((r) => (r.status === 'ok' ? 'ok' : r.error.errorCode))).toEqual([
      'invalid_input',
      'invalid_input',
      'unknown_tool',
      'mutation_not_admitted',
    ]);
    expect(sent).toEqual([]);
    expect(step.messages.slice(1).map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual([
      'call_1',
      'call_2',
      'call_3',
      'call_4',
    ]);
    expect(step.messages[3]).toMatchObject({
      content: expect.stringMatching(/^unknown_tool: tool "launch" is not in the registry/),
    });
  });

  it('an error result is a tool_result with is_error for Anthropic', async () => {
    const { handlers } = counting();
    const step = await anthropicLoop({
      tools: Tools,
      handlers: {
        ...handlers,
        get_weather: async () => {
          throw new Error('upstream timeout');
        },
      },
    }).answer(
      user,
      anthropicReply([
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' }, caller: { type: 'direct' } },
      ]),
    );
    expect(step.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'tool_error: upstream timeout', is_error: true },
      ],
    });
  });

  it('a reply with a stop reason the protocol does not handle (refusal) does not close: the mutation does not run, and every call is still answered', async () => {
    const { handlers, sent } = counting();
    const step = await anthropicLoop({ tools: Tools, handlers }).answer(
      user,
      anthropicReply(
        [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'send_email',
            input: { to: 'ada@example.com' },
            caller: { type: 'direct' },
          },
        ],
        'refusal',
      ),
    );
    expect(sent).toEqual([]);
    expect(step.closed).toBeUndefined();
    expect(step.failures.map((f) => f.class)).toContain('protocol.stop_reason_unhandled');
    expect(step.messages[1]).toMatchObject({
      content: [{ is_error: true, content: expect.stringMatching(/^mutation_not_admitted: the turn did not close/) }],
    });
  });

  it('a shared ledger keeps a replayed reply from running twice across loops', async () => {
    const ledger = new MemoryEffectLedger();
    const { handlers, sent } = counting();
    const reply = anthropicReply([
      {
        type: 'tool_use',
        id: 'toolu_9',
        name: 'send_email',
        input: { to: 'ada@example.com' },
        caller: { type: 'direct' },
      },
    ]);
    await anthropicLoop({ tools: Tools, handlers, ledger, sessionId: 'session-1' }).answer(user, reply);
    const again = await anthropicLoop({ tools: Tools, handlers, ledger, sessionId: 'session-1' }).answer(user, reply);
    expect(sent).toEqual(['ada@example.com']);
    expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
  });

  it('a history the provider would refuse is a ToolLoopError with the check’s failures', async () => {
    const { handlers } = counting();
    const broken: Anthropic.MessageParam[] = [
      ...user,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_0', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      { role: 'user', content: 'and?' },
    ];
    const answer = anthropicLoop({ tools: Tools, handlers }).answer(
      broken,
      anthropicReply([{ type: 'text', text: 'Hi', citations: null }], 'end_turn'),
    );
    await expect(answer).rejects.toBeInstanceOf(ToolLoopError);
    await expect(answer).rejects.toMatchObject({ failures: [expect.objectContaining({ ids: ['toolu_0'] })] });
  });

  it('a reply that is not the SDK’s is a TypeError', async () => {
    const { handlers } = counting();
    // @ts-expect-error: not an Anthropic.Message
    await expect(anthropicLoop({ tools: Tools, handlers }).answer(user, { choices: [] })).rejects.toThrow(TypeError);
  });

  it('Gemini calls without an id are answered by position and name, without an id', async () => {
    const { handlers } = counting();
    const history: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Oslo and Bergen?' }] }];
    const reply = {
      candidates: [
        {
          finishReason: 'STOP',
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
              { functionCall: { name: 'get_weather', args: { city: 'Bergen' } } },
            ],
          },
        },
      ],
    } as Partial<GenerateContentResponse> as GenerateContentResponse;
    const step = await geminiLoop({ tools: Tools, handlers }).answer(history, reply);
    expect(step.messages[1]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: 'snow in Oslo' } } },
        { functionResponse: { name: 'get_weather', response: { output: 'snow in Bergen' } } },
      ],
    });
  });

  it('Gemini calls without an id: a replayed reply runs its effect once, a later reply with the same call runs it again', async () => {
    const { sent, handlers } = counting();
    const loop = geminiLoop({ tools: Tools, handlers });
    const history: Content[] = [{ role: 'user', parts: [{ text: 'Mail ops, twice.' }] }];
    const reply = (responseId: string) =>
      ({
        responseId,
        candidates: [
          {
            finishReason: 'STOP',
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'send_email', args: { to: 'ops@example.com' } } }],
            },
          },
        ],
      }) as Partial<GenerateContentResponse> as GenerateContentResponse;
    const first = await loop.answer(history, reply('resp-1'));
    const replayed = await loop.answer(history, reply('resp-1'));
    expect(sent).toHaveLength(1);
    expect(replayed.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(replayed.messages).toEqual(first.messages);
    // Both are named send_email#1; the second reply is another request, not a replay.
    const later = await loop.answer([...history, ...first.messages], reply('resp-2'));
    expect(later.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(sent).toHaveLength(2);
  });
});
