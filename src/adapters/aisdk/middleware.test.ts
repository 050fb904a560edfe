import { generateText, type LanguageModelMiddleware, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { okModel } from '../../../test/aisdk-mock-model.ts';
import {
  checkTranscript,
  ORPHANED_RESULT_MARK,
  SYNTHESIZED_RESULT_MARK,
  TranscriptInputError,
} from '../../transcripts/index.ts';
import { FORMAT_DRIVERS } from '../../transcripts/formats.ts';
import { TranscriptRejectedError, transcriptGuard } from './index.ts';

const call = (id: string, providerExecuted?: boolean) => ({
  type: 'tool-call' as const,
  toolCallId: id,
  toolName: 'getWeather',
  input: { city: 'Oslo' },
  ...(providerExecuted === undefined ? {} : { providerExecuted }),
});
const result = (id: string) => ({
  type: 'tool-result' as const,
  toolCallId: id,
  toolName: 'getWeather',
  output: { type: 'text' as const, value: 'Snow' },
});

/** A loop's history: one tool call answered, then a follow-up question. */
const answered: ModelMessage[] = [
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'assistant', content: [call('call_1')] },
  { role: 'tool', content: [result('call_1')] },
  { role: 'assistant', content: 'Snow in Oslo.' },
  { role: 'user', content: 'And tomorrow?' },
];

/** The same with a tool-result whose call was trimmed away: the SDK passes it on, providers refuse it. */
const orphan: ModelMessage[] = [
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'tool', content: [result('call_0')] },
  { role: 'user', content: 'And tomorrow?' },
];

/** Stands for a compaction step earlier in the middleware list: it drops the tool messages. */
const dropToolMessages: LanguageModelMiddleware = {
  specificationVersion: 'v4',
  transformParams: async ({ params }) => ({ ...params, prompt: params.prompt.filter((m) => m.role !== 'tool') }),
};

async function rejection(promise: Promise<unknown>): Promise<TranscriptRejectedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TranscriptRejectedError);
  return error as TranscriptRejectedError;
}

describe('transcriptGuard with generateText', () => {
  it('passes an accepted prompt through unchanged: the model sees what it sees unwrapped', async () => {
    const plain = okModel();
    const guarded = okModel();
    await generateText({ model: plain, instructions: 'Be brief.', messages: answered });
    const out = await generateText({
      model: wrapLanguageModel({ model: guarded, middleware: transcriptGuard() }),
      instructions: 'Be brief.',
      messages: answered,
    });
    expect(out.text).toBe('ok');
    expect(guarded.doGenerateCalls).toHaveLength(1);
    expect(guarded.doGenerateCalls[0]?.prompt).toEqual(plain.doGenerateCalls[0]?.prompt);
    expect(guarded.doGenerateCalls[0]?.prompt).toHaveLength(6);
  });

  it('returns the same params object for an accepted prompt', async () => {
    const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }] };
    expect(await transcriptGuard().transformParams({ type: 'generate', params })).toBe(params);
  });

  it('throws the typed error for a dangling tool call and does not call the model', async () => {
    const model = okModel();
    const error = await rejection(
      generateText({
        model: wrapLanguageModel({ model, middleware: [dropToolMessages, transcriptGuard({ onReject: 'throw' })] }),
        messages: answered,
      }),
    );
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(error.callType).toBe('generate');
    expect(error.failures).toEqual([
      expect.objectContaining({
        class: 'tool.result_missing',
        rule: 'aisdk.tool_call_unanswered',
        ids: ['call_1'],
        at: 'messages[1]',
        messageIndex: 1,
        fix: expect.stringContaining('tool-result'),
      }),
    ]);
    expect(error.message).toContain('aisdk.tool_call_unanswered [call_1] at messages[1]');
  });

  it('throws for a dangling call handed to doGenerate directly', async () => {
    const model = okModel();
    const wrapped = wrapLanguageModel({ model, middleware: transcriptGuard() });
    const error = await rejection(
      Promise.resolve(
        wrapped.doGenerate({
          prompt: [
            { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
            { role: 'assistant', content: [call('call_1')] },
          ],
        }),
      ),
    );
    expect(error.failures.map((f) => [f.rule, f.ids])).toEqual([['aisdk.tool_call_unanswered', ['call_1']]]);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('throws for an orphan tool-result, which the SDK itself lets through', async () => {
    const model = okModel();
    const error = await rejection(
      generateText({ model: wrapLanguageModel({ model, middleware: transcriptGuard() }), messages: orphan }),
    );
    expect(error.failures.map((f) => `${f.class} ${f.rule} ${f.at}`)).toEqual([
      'tool.result_orphan aisdk.tool_result_orphan messages[1].content[0]',
    ]);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("under 'repair', calls the model with a prompt the check accepts and reports the repairs", async () => {
    const model = okModel();
    const onRepair = vi.fn();
    const out = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: [dropToolMessages, transcriptGuard({ onReject: 'repair', onRepair })],
      }),
      messages: answered,
    });
    expect(out.text).toBe('ok');
    const seen = model.doGenerateCalls[0]?.prompt ?? [];
    expect(checkTranscript(seen, { format: 'aisdk' }).result).toBe('accepted');
    expect(seen[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'getWeather',
          output: { type: 'error-text', value: expect.stringMatching(`^\\${SYNTHESIZED_RESULT_MARK}`) },
        },
      ],
    });
    expect(onRepair).toHaveBeenCalledTimes(1);
    const [repairs, failures] = onRepair.mock.calls[0] as [{ action: string; ids: string[] }[], { rule: string }[]];
    expect(repairs.map((r) => `${r.action} ${r.ids.join(',')}`)).toEqual([
      'synthesized_result call_1',
      'inserted_message call_1',
    ]);
    expect(failures.map((f) => f.rule)).toEqual(['aisdk.tool_call_unanswered']);
  });

  it("under 'repair', removes an orphan tool-result and keeps its words as user text in its place", async () => {
    const model = okModel();
    await generateText({
      model: wrapLanguageModel({ model, middleware: transcriptGuard({ onReject: 'repair' }) }),
      messages: orphan,
    });
    const seen = model.doGenerateCalls[0]?.prompt ?? [];
    expect(seen.map((m) => m.role)).toEqual(['user', 'user', 'user']);
    expect(seen[1]?.content).toEqual([
      {
        type: 'text',
        text: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Snow`,
      },
    ]);
  });

  it('does not call the model when onRepair throws', async () => {
    const model = okModel();
    const failing = transcriptGuard({
      onReject: 'repair',
      onRepair: () => {
        throw new Error('refused by the caller');
      },
    });
    await expect(
      generateText({ model: wrapLanguageModel({ model, middleware: failing }), messages: orphan }),
    ).rejects.toThrow('refused by the caller');
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('transcriptGuard with streamText', () => {
  it('streams an accepted prompt unchanged', async () => {
    const model = okModel();
    const out = streamText({ model: wrapLanguageModel({ model, middleware: transcriptGuard() }), messages: answered });
    expect(await out.text).toBe('ok');
    expect(model.doStreamCalls[0]?.prompt).toHaveLength(5);
  });

  it('reports the typed error as the stream error and does not call the model', async () => {
    const model = okModel();
    const onError = vi.fn();
    const out = streamText({
      model: wrapLanguageModel({ model, middleware: transcriptGuard() }),
      messages: orphan,
      onError,
    });
    const errors: unknown[] = [];
    for await (const part of out.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TranscriptRejectedError);
    expect((errors[0] as TranscriptRejectedError).callType).toBe('stream');
    expect(onError).toHaveBeenCalledWith({ error: errors[0] });
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it("under 'repair', streams from a prompt the check accepts", async () => {
    const model = okModel();
    const out = streamText({
      model: wrapLanguageModel({ model, middleware: [dropToolMessages, transcriptGuard({ onReject: 'repair' })] }),
      messages: answered,
    });
    expect(await out.text).toBe('ok');
    const seen = model.doStreamCalls[0]?.prompt ?? [];
    expect(checkTranscript(seen, { format: 'aisdk' }).result).toBe('accepted');
    expect(seen.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });
});

describe('transcriptGuard and provider-executed approvals', () => {
  const approval = {
    type: 'tool-approval-response',
    approvalId: 'ap_1',
    approved: true,
    providerExecuted: true,
  } as const;
  /** A provider-executed call approved by the user: the SDK keeps the response, removes the request. */
  const approved: ModelMessage[] = [
    { role: 'user', content: 'Search the docs.' },
    {
      role: 'assistant',
      content: [
        call('mcp_1', true),
        { type: 'tool-approval-request', approvalId: 'ap_1', toolCallId: 'mcp_1' },
        call('call_1'),
      ],
    },
    {
      role: 'tool',
      content: [approval, result('call_1')],
    },
  ];

  it('accepts the prompt (the response answers a request the SDK removed) and passes it unchanged', async () => {
    const model = okModel();
    await generateText({ model: wrapLanguageModel({ model, middleware: transcriptGuard() }), messages: approved });
    const seen = model.doGenerateCalls[0]?.prompt ?? [];
    expect(seen[2]?.content).toEqual([
      { type: 'tool-approval-response', approvalId: 'ap_1', approved: true, reason: undefined },
      expect.objectContaining({ type: 'tool-result', toolCallId: 'call_1' }),
    ]);
  });

  it('gives failure positions in the prompt, counting the responses set aside', async () => {
    const messages: ModelMessage[] = [
      ...approved.slice(0, 2),
      { role: 'tool', content: [approval, result('call_1'), result('call_9')] },
    ];
    const error = await rejection(
      generateText({ model: wrapLanguageModel({ model: okModel(), middleware: transcriptGuard() }), messages }),
    );
    expect(error.failures.map((f) => [f.rule, f.at])).toEqual([['aisdk.tool_result_orphan', 'messages[2].content[2]']]);
    expect(error.failures[0]?.detail.startsWith('messages[2].content[2]: ')).toBe(true);
  });

  it('keeps the responses through a repair, in place', async () => {
    const model = okModel();
    const messages: ModelMessage[] = [
      ...approved.slice(0, 2),
      { role: 'tool', content: [result('call_9'), approval, result('call_1')] },
    ];
    await generateText({
      model: wrapLanguageModel({ model, middleware: transcriptGuard({ onReject: 'repair' }) }),
      messages,
    });
    // The orphan's words go after the user message that opens the turn: the tool message stays last.
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    const tool = prompt[3];
    const parts = tool?.role === 'tool' ? tool.content : [];
    expect(parts.map((p) => `${p.type} ${p.type === 'tool-result' ? p.toolCallId : p.approvalId}`)).toEqual([
      'tool-approval-response ap_1',
      'tool-result call_1',
    ]);
  });

  it('keeps a tool message whose results a repair removed, with its responses alone', async () => {
    const model = okModel();
    const messages: ModelMessage[] = [
      approved[0] as ModelMessage,
      {
        role: 'assistant',
        content: [call('mcp_1', true), { type: 'tool-approval-request', approvalId: 'ap_1', toolCallId: 'mcp_1' }],
      },
      { role: 'tool', content: [approval, result('call_9')] },
    ];
    await generateText({
      model: wrapLanguageModel({ model, middleware: transcriptGuard({ onReject: 'repair' }) }),
      messages,
    });
    const tool = model.doGenerateCalls[0]?.prompt[3];
    expect(tool?.role === 'tool' ? tool.content.map((p) => p.type) : []).toEqual(['tool-approval-response']);
  });

  it('checks the prompt as a prompt: a history holding the same response without its request is refused', () => {
    const prompt = [approved[0], { role: 'tool', content: [approval] }];
    expect(checkTranscript(prompt as ModelMessage[], { format: 'aisdk' }).result).toBe('rejected');
  });
});

describe('transcriptGuard: the shape rules, in the prompt', () => {
  /** A model named `modelId` that answers `ok` and records its prompts. */
  const named = (modelId: string) => {
    const model = okModel();
    return new MockLanguageModelV4({ modelId, doGenerate: (options) => model.doGenerate(options) });
  };
  const nameless: ModelMessage[] = [
    { role: 'user', content: 'Weather in Oslo?' },
    { role: 'assistant', content: [call('call_1')] },
    { role: 'tool', content: [{ ...result('call_1'), toolName: '' }] },
  ];

  it("applies Gemini's name rule by the called model's id, and repairs the name from the call", async () => {
    const gemini = named('gemini-2.5-flash');
    const error = await rejection(
      generateText({ model: wrapLanguageModel({ model: gemini, middleware: transcriptGuard() }), messages: nameless }),
    );
    expect(error.failures.map((f) => [f.rule, f.at])).toEqual([
      ['aisdk.tool_result_name_mismatch', 'messages[2].content[0]'],
    ]);
    await generateText({
      model: wrapLanguageModel({ model: gemini, middleware: transcriptGuard({ onReject: 'repair' }) }),
      messages: nameless,
    });
    const tool = gemini.doGenerateCalls[0]?.prompt[2];
    expect(tool?.role === 'tool' ? tool.content.map((p) => p.type === 'tool-result' && p.toolName) : []).toEqual([
      'getWeather',
    ]);
    const other = named('gpt-5');
    await generateText({
      model: wrapLanguageModel({ model: other, middleware: transcriptGuard() }),
      messages: nameless,
    });
    expect(other.doGenerateCalls).toHaveLength(1);
  });

  it("refuses a client result for a provider-executed call (the SDK's #17366), and a tool input given as JSON text", async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [
          call('srv_1', true),
          { ...result('srv_1'), type: 'tool-result' },
          { ...call('call_1'), input: '{"city":"Oslo"}' },
        ],
      },
      { role: 'tool', content: [result('srv_1'), result('call_1')] },
    ];
    const error = await rejection(
      generateText({ model: wrapLanguageModel({ model: okModel(), middleware: transcriptGuard() }), messages }),
    );
    expect(error.failures.map((f) => f.rule)).toEqual([
      'aisdk.tool_call_input_json_string',
      'aisdk.provider_executed_call_answered_by_client',
    ]);
    const model = okModel();
    await generateText({
      model: wrapLanguageModel({ model, middleware: transcriptGuard({ onReject: 'repair' }) }),
      messages,
    });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    const assistant = prompt[1]?.role === 'assistant' ? prompt[1].content : [];
    expect(assistant[2]).toEqual(expect.objectContaining({ type: 'tool-call', input: { city: 'Oslo' } }));
    expect(
      prompt[2]?.role === 'tool' ? prompt[2].content.map((p) => p.type === 'tool-result' && p.toolCallId) : [],
    ).toEqual(['call_1']);
  });
});

describe('transcriptGuard input', () => {
  it('refuses an unknown onReject and a non-function onRepair, naming the field', () => {
    expect(() => transcriptGuard({ onReject: 'ignore' as 'throw' })).toThrow(
      new TypeError(`options.onReject: expected 'throw' or 'repair', got "ignore"`),
    );
    // biome-ignore lint/plugin: an option outside its type, as a JavaScript caller could pass, to check the refusal
    expect(() => transcriptGuard({ onRepair: 'log' as never })).toThrow(
      new TypeError('options.onRepair: expected a function, got string'),
    );
    // biome-ignore lint/plugin: options outside their type, as a JavaScript caller could pass, to check the refusal
    expect(() => transcriptGuard(null as never)).toThrow(
      new TypeError('transcriptGuard options: expected an object, got null'),
    );
  });

  it('throws the input error for a prompt that is not AI SDK messages', async () => {
    const guard = transcriptGuard({ onReject: 'repair' });
    // biome-ignore lint/plugin: a prompt outside the SDK's type (a role it does not have), to check the refusal
    const bad = { prompt: [{ role: 'narrator', content: 'Hi' }] } as never;
    await expect(guard.transformParams({ type: 'generate', params: bad })).rejects.toThrow(
      new TranscriptInputError('messages[0].role', "'system', 'user', 'assistant' or 'tool'"),
    );
    // Another format's role names the format it looks like.
    // biome-ignore lint/plugin: a prompt in OpenAI's roles, as a caller mixing SDKs could pass, to check the refusal
    const openai = { prompt: [{ role: 'developer', content: 'Hi' }] } as never;
    const error = await guard.transformParams({ type: 'generate', params: openai }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranscriptInputError);
    expect(error instanceof TranscriptInputError && error.looksLike).toEqual(['openai-chat', 'openai-responses']);
    // biome-ignore lint/plugin: a prompt that is not an array, as a JavaScript caller could pass, to check the refusal
    const text = { prompt: 'Hi' } as never;
    await expect(guard.transformParams({ type: 'stream', params: text })).rejects.toThrow(
      new TypeError('params.prompt: expected an array of messages (LanguageModelV4Prompt), got string'),
    );
  });
});

describe('transcriptGuard across the steps of a loop', () => {
  /** The prompt of step `n` as the SDK hands it: built anew (new objects, the same data) each step. */
  const promptOf = (n: number) => {
    const prompt: unknown[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }], providerOptions: undefined },
    ];
    for (let k = 1; k < n; k++) {
      prompt.push({ role: 'assistant', content: [{ ...call(`call_${k}`), providerOptions: undefined }] });
      prompt.push({ role: 'tool', content: [result(`call_${k}`)] });
    }
    return prompt;
  };
  const guard = (prompt: unknown[], middleware = transcriptGuard()) =>
    // biome-ignore lint/plugin: the SDK's prompt type, for a prompt written as data
    middleware.transformParams({ type: 'generate', params: { prompt } as never });
  /** The lengths of the lists the aisdk rules read while `run` runs. */
  async function ruleReads(run: () => Promise<unknown>): Promise<number[]> {
    const spy = vi.spyOn(FORMAT_DRIVERS.aisdk, 'check');
    try {
      await run().catch(() => undefined);
      return spy.mock.calls.map((c) => c[0].length);
    } finally {
      spy.mockRestore();
    }
  }

  it('reads only the new messages of a prompt that extends the last one, and the whole of one that does not', async () => {
    const middleware = transcriptGuard();
    expect(await ruleReads(() => guard(promptOf(3), middleware))).toEqual([5]);
    expect(await ruleReads(() => guard(promptOf(4), middleware))).toEqual([2]);
    expect(await ruleReads(() => guard(promptOf(6), middleware))).toEqual([4]);
    // An earlier message changed (another answer): the prompt is checked whole.
    const changed = promptOf(7);
    (changed[2] as { content: { output: unknown }[] }).content[0] = {
      ...result('call_1'),
      output: { type: 'text', value: 'Rain' },
    };
    expect(await ruleReads(() => guard(changed, middleware))).toEqual([13]);
  });

  it('gives each step the report a guard of its own gives the whole prompt', async () => {
    const middleware = transcriptGuard();
    for (const n of [2, 3, 5]) await guard(promptOf(n), middleware);
    // A tail answering a call of the history a second time; a prefix with its result gone.
    const repeated = [...promptOf(5), { role: 'tool', content: [result('call_2')] }];
    const trimmed = promptOf(5).filter((_, i) => i !== 2);
    for (const prompt of [repeated, trimmed]) {
      const alone = await rejection(guard(prompt));
      const extended = await rejection(guard(prompt, middleware));
      expect(extended.failures).toEqual(alone.failures);
      expect(extended.failures.length).toBeGreaterThan(0);
    }
    expect(await guard(promptOf(6), middleware)).toEqual({ prompt: promptOf(6) });
  });
});
