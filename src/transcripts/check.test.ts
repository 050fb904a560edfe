import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/stop-reasons.ts';
import { loopArbitrary, render } from '../../test/transcript-loops.ts';
import { BedrockMessagesSchema } from './bedrock-converse/wire.ts';
import {
  ChatMessageSchema,
  checkTranscript,
  checkTranscriptJson,
  guardSend,
  isSendableTranscript,
  repairTranscriptJson,
  TRANSCRIPT_RULES,
  UncheckedTranscriptError,
  type SendableTranscript,
} from './index.ts';
import {
  AISDKMessagesSchema,
  AnthropicMessagesSchema,
  GeminiContentsSchema,
  LangChainMessagesSchema,
  MistralMessagesSchema,
  OpenAIChatMessagesSchema,
  ResponsesInputSchema,
} from './internal.ts';

const SCHEMAS: Record<TranscriptFormat, v.GenericSchema> = {
  anthropic: AnthropicMessagesSchema,
  'openai-chat': OpenAIChatMessagesSchema,
  'openai-responses': ResponsesInputSchema,
  aisdk: AISDKMessagesSchema,
  gemini: GeminiContentsSchema,
  'bedrock-converse': BedrockMessagesSchema,
  chat: v.array(ChatMessageSchema),
  langchain: LangChainMessagesSchema,
  mistral: MistralMessagesSchema,
};

/** Every path (as keys) inside a JSON value. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out.push(...pathsOf(value[i], [...prefix, i]));
  } else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...prefix, key]));
  return out;
}

/** A copy of `value` with the value at `path` replaced (or the key deleted, for `undefined`). */
function replaced(value: unknown, path: readonly (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, next) : item));
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (next === undefined && rest.length === 0) delete copy[head as string];
  else copy[head as string] = replaced(copy[head as string], rest, next);
  return copy;
}

const REPLACEMENTS = [
  undefined,
  null,
  0,
  '',
  'text',
  'tool',
  'model',
  'function_call',
  'tool_result',
  'tool-result',
  true,
  [],
  [{}],
  {},
  { type: 'text' },
  { type: 'text', text: 'x' },
  { role: 'user', content: 'x' },
];

const corrupted = (format: TranscriptFormat) =>
  loopArbitrary().chain((steps) => {
    const messages = render(format, steps);
    const paths = pathsOf(messages);
    return fc
      .tuple(fc.constantFrom(...paths), fc.constantFrom(...REPLACEMENTS))
      .map(([path, next]) => replaced(messages, path, next));
  });

describe.each(TRANSCRIPT_FORMATS)('%s reader', (format) => {
  it('accepts exactly the values its valibot schema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(corrupted(format), fc.array(fc.jsonValue(), { maxLength: 3 })), (value) => {
        const readable = checkTranscriptJson(value, { format }).result !== 'invalid';
        expect(readable).toBe(v.is(SCHEMAS[format], value));
      }),
      { numRuns: 400, seed: 11 },
    );
  });

  it('never throws, for any value, in check and repair', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything(), corrupted(format)), (value) => {
        const report = checkTranscriptJson(value, { format });
        expect(['accepted', 'rejected', 'invalid']).toContain(report.result);
        if (report.result === 'invalid')
          expect(
            report.error.field.startsWith(
              format === 'openai-responses' ? 'input' : format === 'gemini' ? 'contents' : 'messages',
            ),
          ).toBe(true);
        const repaired = repairTranscriptJson(value, { format });
        expect(repaired.ok).toBe(report.result !== 'invalid');
      }),
      { numRuns: 300, seed: 12 },
    );
  });
});

describe('input errors', () => {
  it('name the path and what was expected', () => {
    const report = checkTranscriptJson(
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', name: 'f' }] },
      ],
      {
        format: 'anthropic',
      },
    );
    expect(report.result === 'invalid' && [report.error.field, report.error.expected]).toEqual([
      'messages[1].content[0].id',
      'a string',
    ]);
    const body = checkTranscriptJson(
      { model: 'gpt-5', input: [{ type: 'function_call', call_id: 7, name: 'f', arguments: '{}' }] },
      {
        format: 'openai-responses',
      },
    );
    expect(body.result === 'invalid' && body.error.message).toBe('input[0].call_id: expected a string');
    expect(checkTranscriptJson({ contents: {} }, { format: 'gemini' }).result).toBe('invalid');
    expect(checkTranscriptJson('hello', { format: 'chat' }).result).toBe('invalid');
  });

  it('throw TypeError only for options outside their unions', () => {
    // biome-ignore lint/plugin: an option outside its union, as a JavaScript caller could pass, to check the refusal
    expect(() => checkTranscriptJson([], { format: 'cohere' as never })).toThrow(TypeError);
    // biome-ignore lint/plugin: an option outside its union, as a JavaScript caller could pass, to check the refusal
    expect(() => checkTranscriptJson([], { format: 'openai-chat', dialect: 'mistral' as never })).toThrow(TypeError);
    // biome-ignore lint/plugin: a dialect with another format, as a JavaScript caller could pass, to check the refusal
    expect(() => checkTranscriptJson([], { format: 'mistral', dialect: 'deepseek' as never })).toThrow(TypeError);
    // biome-ignore lint/plugin: an option outside its union, as a JavaScript caller could pass, to check the refusal
    expect(() => checkTranscriptJson([], { format: 'chat', expect: 'later' as never })).toThrow(TypeError);
  });
});

describe("another format's structure", () => {
  const anthropic = [
    { role: 'user', content: 'Send the report to Ana.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'send_email', input: { to: 'ana' } }] },
  ];
  const aisdkTool = {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { type: 'text', value: 'ok' } }],
  };

  it('is invalid under every other format, naming the path, the structure and the format it looks like', () => {
    for (const format of ['openai-chat', 'openai-responses', 'aisdk'] as const) {
      const report = checkTranscriptJson(anthropic, { format });
      const root = format === 'openai-responses' ? 'input' : 'messages';
      expect(report.result === 'invalid' && [report.error.message, report.error.looksLike]).toEqual([
        `${root}[1].content[0].type: "tool_use" is an Anthropic block; this history looks like format "anthropic", not "${format}"`,
        ['anthropic'],
      ]);
    }
    const tool = checkTranscriptJson([aisdkTool], { format: 'openai-chat' });
    expect(tool.result === 'invalid' && tool.error.message).toBe(
      'messages[0].content[0].type: "tool-result" is an AI SDK part; this history looks like format "aisdk", not "openai-chat"',
    );
    const chatLike = checkTranscriptJson([{ role: 'tool', tool_call_id: 'call_1', content: 'Snow' }], {
      format: 'anthropic',
    });
    expect(chatLike.result === 'invalid' && [chatLike.error.field, chatLike.error.looksLike]).toEqual([
      'messages[0].role',
      ['openai-chat', 'chat', 'mistral'],
    ]);
    const gemini = checkTranscriptJson([{ role: 'user', parts: [{ text: 'Hi' }], tool_call_id: 'call_1' }], {
      format: 'gemini',
    });
    expect(gemini.result === 'invalid' && gemini.error.field).toBe('contents[0].tool_call_id');
  });

  it('is invalid in a request body too, and repair gives the same input error', () => {
    const body = { model: 'gpt-5', messages: anthropic };
    const report = checkTranscriptJson(body, { format: 'openai-chat' });
    expect(report.result === 'invalid' && report.error.field).toBe('messages[1].content[0].type');
    const repaired = repairTranscriptJson(body, { format: 'openai-chat' });
    expect(!repaired.ok && repaired.failures[0]?.message).toBe(report.result === 'invalid' && report.error.message);
    expect(
      checkTranscriptJson({ model: 'claude-sonnet-4-5', messages: anthropic }, { format: 'anthropic' }).result,
    ).toBe('rejected');
  });

  it('leaves unknown fields that are no tool structure alone', () => {
    const extra = [
      { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }], metadata: {} },
      { role: 'assistant', content: 'Hello', annotations: [] },
    ];
    for (const format of ['anthropic', 'openai-chat', 'openai-responses', 'aisdk'] as const)
      expect(checkTranscriptJson(extra, { format }).result).toBe('accepted');
    // Typed parts are not Gemini's parts: an AI SDK UI message is refused by the reader, not named Gemini.
    const ui = checkTranscriptJson([{ role: 'user', parts: [{ type: 'text', text: 'Hi' }] }], { format: 'aisdk' });
    expect(ui.result === 'invalid' && [ui.error.field, ui.error.looksLike]).toEqual(['messages[0].content', []]);
  });
});

describe('request bodies', () => {
  const toolUse = {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} }],
  };
  const toolResult = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Snow' }] };
  it('Anthropic: with manual thinking on, the first assistant message of the final tool-use loop must start with its thinking block', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [toolUse, toolResult],
    };
    expect(checkTranscriptJson(body, { format: 'anthropic' }).failures.map((f) => [f.rule, f.at])).toEqual([
      ['anthropic.thinking_block_missing', 'messages[0].content[0]'],
    ]);
    const thinking = { type: 'thinking', thinking: 'Look it up.', signature: 'EqQBCkgIARAB' };
    const kept = { ...body, messages: [{ ...toolUse, content: [thinking, ...toolUse.content] }, toolResult] };
    expect(checkTranscriptJson(kept, { format: 'anthropic' }).result).toBe('accepted');
    expect(checkTranscriptJson([toolUse, toolResult], { format: 'anthropic' }).result).toBe('accepted');
    const repaired = repairTranscriptJson(body, { format: 'anthropic' });
    expect(repaired.ok && repaired.value.remaining.map((f) => f.rule)).toEqual(['anthropic.thinking_block_missing']);
  });

  it('Responses: with previous_response_id an output without its call in the input is no orphan', () => {
    const input = [{ type: 'function_call_output', call_id: 'call_1', output: 'Snow' }];
    expect(checkTranscriptJson(input, { format: 'openai-responses' }).failures.map((f) => f.rule)).toEqual([
      'openai-responses.function_call_output_orphan',
    ]);
    expect(checkTranscriptJson({ previous_response_id: 'resp_1', input }, { format: 'openai-responses' }).result).toBe(
      'accepted',
    );
    expect(checkTranscriptJson({ input: 'Hello' }, { format: 'openai-responses' }).result).toBe('accepted');
  });
});

describe('chat with calls carried from a suspension', () => {
  const carried = [{ id: 'call_a', name: 'orders.refund', arguments: { id: 'A-1' } }];
  it('the tool messages at the start answer the carried calls, with the same position rules', () => {
    const answered = checkTranscript([{ role: 'tool', tool_call_id: 'call_a', content: 'refunded' }], {
      format: 'chat',
      openToolCalls: carried,
    });
    expect(answered.result).toBe('accepted');
    const late = checkTranscript(
      [
        { role: 'user', content: 'Done?' },
        { role: 'tool', tool_call_id: 'call_a', content: 'refunded' },
      ],
      { format: 'chat', openToolCalls: carried },
    );
    expect(late.failures.map((f) => [f.rule, f.at])).toEqual([
      ['chat.tool_call_unanswered', 'openToolCalls'],
      ['chat.tool_result_not_adjacent', 'messages[1]'],
    ]);
    const stillOpen = checkTranscript([], { format: 'chat', expect: 'received', openToolCalls: carried });
    expect(stillOpen.openToolCalls.map((c) => [c.id, c.at])).toEqual([['call_a', 'openToolCalls[0]']]);
    expect(checkTranscript([], { format: 'chat', openToolCalls: carried }).result).toBe('rejected');
  });
});

describe('SendableTranscript', () => {
  const history = [{ role: 'user' as const, content: 'Weather in Oslo?' }];
  it('is minted only for an accepted sendable check, frozen, and copied from the input', () => {
    const report = checkTranscript(history, { format: 'anthropic' });
    if (report.result !== 'accepted') throw new Error('expected accepted');
    expect(isSendableTranscript(report.transcript, 'anthropic')).toBe(true);
    expect(isSendableTranscript(report.transcript, 'gemini')).toBe(false);
    expect(Object.isFrozen(report.transcript) && Object.isFrozen(report.transcript.messages)).toBe(true);
    expect(report.transcript.messages).not.toBe(history);
    const received = checkTranscript(history, { format: 'anthropic', expect: 'received' });
    expect(received.result === 'accepted' && received.transcript).toBe(undefined);
  });

  it('guardSend runs the call with a fresh copy, and refuses a forged, copied or other-format transcript', () => {
    const calls: unknown[][] = [];
    const send = guardSend('anthropic', (messages: { role: 'user'; content: string }[]) => {
      calls.push(messages);
      return messages.length;
    });
    const report = checkTranscript(history, { format: 'anthropic' });
    if (report.result !== 'accepted') throw new Error('expected accepted');
    expect(send(report.transcript)).toBe(1);
    expect(calls[0]).toEqual(history);
    // biome-ignore lint/plugin: a forged transcript, to check the run-time refusal
    const forged = { format: 'anthropic', messages: history } as unknown as SendableTranscript<
      'anthropic',
      (typeof history)[number]
    >;
    expect(() => send(forged)).toThrow(UncheckedTranscriptError);
    // @ts-expect-error -- a spread copy loses the brand, so it is a tsc error as well as a run-time refusal
    expect(() => send({ ...report.transcript })).toThrow(/not returned by checkTranscript/);
    const chat = checkTranscript(history, { format: 'chat' });
    if (chat.result !== 'accepted') throw new Error('expected accepted');
    // biome-ignore lint/plugin: a transcript checked for another format, to check the run-time refusal
    expect(() => send(chat.transcript as never)).toThrow(expect.objectContaining({ code: 'wrong_format' }));
    expect(calls).toHaveLength(1);
  });

  it('a change to the history after the check never reaches the provider: the transcript is a frozen snapshot', () => {
    const block = { type: 'text', text: 'Weather in Oslo?' };
    const message: { role: 'user'; content: string | { type: string; text?: string }[] } = {
      role: 'user',
      content: [block],
    };
    const history = [message];
    const calls: unknown[] = [];
    const send = guardSend('openai-chat', (messages) => calls.push(structuredClone(messages)));
    const report = checkTranscript(history, { format: 'openai-chat' });
    if (report.result !== 'accepted') throw new Error('expected accepted');
    // Every change a caller can make to what it checked, after the check:
    block.text = 'Delete every file.';
    if (typeof message.content !== 'string') message.content.push({ type: 'tool_result' });
    message.content = [{ type: 'tool_result' }];
    history.push({ role: 'user', content: 'And Bergen?' });
    const snapshot = report.transcript.messages;
    // biome-ignore lint/plugin: writing through a cast, as a caller without types could, to check the run-time freeze
    const writable = snapshot as unknown as { content: unknown[] }[];
    expect(() => {
      writable[0]?.content.push({ type: 'text', text: 'injected' });
    }).toThrow(TypeError);
    expect(() => {
      (writable[0] as { content: unknown }).content = 'injected';
    }).toThrow(TypeError);
    expect(() => {
      (writable as unknown[]).push({ role: 'user', content: 'injected' });
    }).toThrow(TypeError);
    expect(send(report.transcript)).toBe(1);
    expect(calls).toEqual([[{ role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] }]]);
    expect(Object.isFrozen(snapshot) && Object.isFrozen(snapshot[0]) && Object.isFrozen(writable[0]?.content)).toBe(
      true,
    );
  });
});

describe('SendableTranscript, the copy', () => {
  it('the rules read the copy the transcript holds: a getter read once decides both', () => {
    let reads = 0;
    // A field whose value changes each time it is read: the check and the snapshot read it once, together.
    const message = Object.defineProperty({ role: 'user' }, 'content', {
      enumerable: true,
      get: () => (reads++ === 0 ? 'Weather in Oslo?' : [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }]),
    });
    const report = checkTranscriptJson([message], { format: 'anthropic' });
    expect(report.result).toBe('accepted');
    expect(reads).toBe(1);
    expect(report.result === 'accepted' && report.transcript.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
  });

  it('what the one pass hands over (a field holding a function; objects shared past its budget) is copied and frozen another way, each shared object once', () => {
    const withFunction = [{ role: 'user', content: 'Hi', extra: Object }];
    const first = checkTranscriptJson(withFunction, { format: 'anthropic' });
    if (first.result !== 'accepted') throw new Error('expected accepted');
    expect(first.transcript.messages[0]).not.toBe(withFunction[0]);
    expect(Object.isFrozen(first.transcript.messages[0])).toBe(true);
    expect(JSON.stringify(first.transcript.messages)).toBe(JSON.stringify(withFunction));
    // 21 levels, each holding the next twice: 2^21 paths, past the tree walk's 2^20 objects.
    let shared: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 21; level++) shared = { left: shared, right: shared };
    const deep = [{ role: 'user', content: [{ type: 'text', text: 'Hi', meta: shared }] }];
    const second = checkTranscriptJson(deep, { format: 'anthropic' });
    if (second.result !== 'accepted') throw new Error('expected accepted');
    const [message] = second.transcript.messages;
    const blocks = message?.content;
    if (!Array.isArray(blocks)) throw new Error('expected content blocks');
    const [block] = blocks as readonly { readonly meta?: unknown }[];
    const copied = block?.meta as Readonly<Record<string, unknown>>;
    // Compared by identity, not with toBe: a failing toBe compares deeply, 2^21 paths.
    expect(copied === shared).toBe(false);
    expect(copied['left'] === copied['right']).toBe(true);
    expect(Object.isFrozen(copied) && Object.isFrozen(copied['left'])).toBe(true);
  });
});

describe('the rule catalogue', () => {
  const suite = join(import.meta.dirname, '../../conformance/transcripts');
  const cases = TRANSCRIPT_FORMATS.flatMap((format) =>
    readdirSync(join(suite, format))
      .filter((file) => file.endsWith('.json'))
      .map(
        (file) =>
          JSON.parse(readFileSync(join(suite, format, file), 'utf8')) as {
            result: string;
            failures?: { rule: string }[];
          },
      ),
  );

  it('every rule is fired by a rejected conformance case, and every format has accepted cases', () => {
    const fired = new Set(cases.flatMap((c) => (c.failures ?? []).map((f) => f.rule)));
    expect(Object.keys(TRANSCRIPT_RULES).filter((rule) => !fired.has(rule))).toEqual([]);
    expect(cases.filter((c) => c.result === 'accepted').length).toBeGreaterThanOrEqual(TRANSCRIPT_FORMATS.length);
  });

  it('every rule has a source address and a fix sentence', () => {
    for (const info of Object.values(TRANSCRIPT_RULES)) {
      expect(info.source).toMatch(/https:\/\/|llm-provider|openai-chat rule|issue 7/);
      expect(info.fix).toMatch(/\.$/);
    }
  });
});

describe('documented examples', () => {
  it('hold', () => {
    const report = checkTranscript(
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'user', content: 'Any news?' },
        { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
      ],
      { format: 'openai-chat' },
    );
    expect(report.failures.map((f) => `${f.rule} ${f.at}`)).toEqual([
      'openai-chat.tool_call_unanswered messages[0]',
      'openai-chat.tool_message_not_adjacent messages[2]',
    ]);
    const gemini = checkTranscriptJson(
      JSON.parse('{"contents":[{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{}}}]}]}'),
      { format: 'gemini' },
    );
    expect(gemini.failures.map((f) => f.rule)).toEqual([
      'gemini.function_call_turn_misplaced',
      'gemini.function_call_unanswered',
    ]);
    const open = checkTranscript(
      [
        {
          role: 'assistant',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
      ],
      { format: 'openai-chat', expect: 'received' },
    );
    expect(open.openToolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', at: 'messages[0].tool_calls[0]', messageIndex: 0 },
    ]);
    // biome-ignore lint/plugin: a body its types forbid, as the documented example shows, to check the input error
    const invalid = checkTranscript({ messages: 'hi' } as never, { format: 'anthropic' });
    expect(invalid.result === 'invalid' && invalid.error.message).toBe(
      "messages: expected an array (the request body's `messages`)",
    );
    const orphan = checkTranscript([{ role: 'tool', tool_call_id: 'call_9', content: 'Snow' }], { format: 'chat' });
    expect(orphan.failures.map((f) => f.rule)).toEqual(['chat.tool_result_orphan']);
  });
});
