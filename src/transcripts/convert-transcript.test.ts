import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopArbitrary, mutate, mutationsOf, render, type Step } from '../../test/transcript-loops.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/stop-reasons.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import {
  checkTranscriptJson,
  convertTranscript,
  convertTranscriptJson,
  repairTranscriptJson,
  type ConvertTranscriptOptions,
  toChatMessages,
  type TranscriptMessage,
} from './index.ts';

const CASES = join(import.meta.dirname, '../../conformance/transcripts');

interface Case {
  readonly file: string;
  readonly format: TranscriptFormat;
  readonly input: unknown;
  readonly expect: 'sendable' | 'received';
  readonly model: string | undefined;
}

/** Every conformance transcript that is one (accepted or rejected), of every format. */
function conformanceTranscripts(): Case[] {
  const out: Case[] = [];
  for (const format of TRANSCRIPT_FORMATS) {
    let files: string[];
    try {
      files = readdirSync(join(CASES, format)).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const file of files) {
      const data = JSON.parse(readFileSync(join(CASES, format, file), 'utf8'));
      if (data.result === 'invalid') continue;
      const body = data.input;
      // A failure no repair fixes stays one in every format: the property is over the rest.
      const own = repairTranscriptJson(body, { format, expect: data.expect ?? 'sendable' });
      if (!own.ok || own.value.remaining.length > 0) continue;
      const model = typeof body?.model === 'string' ? body.model : undefined;
      out.push({ file: `${format}/${file}`, format, input: body, expect: data.expect ?? 'sendable', model });
    }
  }
  return out;
}

const cases = conformanceTranscripts();
const pairs = TRANSCRIPT_FORMATS.flatMap((from) => TRANSCRIPT_FORMATS.map((to) => [from, to] as const));

/** The tool call ids of a chat history, calls and results. */
function chatIds(format: TranscriptFormat, messages: readonly unknown[]): string[] {
  const chat = toChatMessages(messages as readonly TranscriptMessage<TranscriptFormat>[], { format });
  if (!chat.ok) throw chat.failures[0];
  return chat.value.messages.flatMap((m) =>
    m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : m.role === 'tool' ? [m.tool_call_id] : [],
  );
}

describe('convertTranscript over every pair of formats', () => {
  it('has conformance transcripts of every format to convert', () => {
    const formats = new Set(cases.map((c) => c.format));
    expect([...formats].sort()).toEqual([...TRANSCRIPT_FORMATS].sort());
  });

  it.each(pairs)('%s -> %s: every conformance transcript converts into one the target accepts', (from, to) => {
    for (const source of cases.filter((c) => c.format === from)) {
      const converted = convertTranscriptJson(source.input, { from, to, expect: source.expect });
      if (!converted.ok) throw new Error(`${source.file}: ${converted.failures[0]?.message}`);
      const { messages, remaining, changes } = converted.value;
      expect({ file: source.file, remaining }).toEqual({ file: source.file, remaining: [] });
      // Within one format the request body's other fields (a Responses `conversation`) still hold.
      const body = source.input;
      const sent =
        from === to && body !== null && typeof body === 'object' && !Array.isArray(body)
          ? { ...body, [FORMAT_DRIVERS[to].field]: messages }
          : messages;
      const report = checkTranscriptJson(sent, { format: to, expect: source.expect });
      expect({ file: source.file, result: report.result, failures: report.failures }).toEqual({
        file: source.file,
        result: 'accepted',
        failures: [],
      });
      // Across formats, every id in the target is in the target's grammar (within one, the
      // format's own check decides, and under `received` leaves the open calls' ids alone).
      const grammar = FORMAT_DRIVERS[to].toolCallIds;
      for (const id of from === to ? [] : chatIds(to, messages))
        expect({ file: source.file, id, ok: grammar.accepts(id) }).toEqual({ file: source.file, id, ok: true });
      // Converting again gives the same messages and records.
      const again = convertTranscriptJson(source.input, { from, to, expect: source.expect });
      expect(again.ok && again.value.messages).toEqual(messages);
      expect(again.ok && again.value.changes).toEqual(changes);
    }
  });
});

/** Ids in no format's grammar but chat's: too long, with characters Anthropic refuses, ... */
/** The loop's steps with every tool call id, in its calls and its results, given by `id`. */
function withCallIds(steps: readonly Step[], id: (given: string) => string): Step[] {
  return steps.map((step) =>
    step.kind === 'assistant'
      ? { ...step, calls: step.calls.map((call) => ({ ...call, id: id(call.id) })) }
      : step.kind === 'results'
        ? { ...step, ids: step.ids.map(id) }
        : step,
  );
}

const awkwardId = fc
  .tuple(fc.constantFrom('call:', 'fc.', 'functions.get:', 'x y ', ''), fc.string({ minLength: 1, maxLength: 60 }))
  .map(([prefix, rest]) => `${prefix}${rest}`)
  .filter((id) => id.trim() !== '');

describe('tool call ids across formats', () => {
  it('remaps ids bijectively into the target grammar, stably, and brings them home', () => {
    fc.assert(
      fc.property(
        loopArbitrary(),
        fc.array(awkwardId, { minLength: 40, maxLength: 40 }),
        fc.constantFrom(...pairs),
        (steps, names, [from, to]) => {
          // Give each generated call an awkward id (distinct by construction: the index is appended).
          const renamed = new Map<string, string>();
          const rename = (id: string) => {
            if (!renamed.has(id)) renamed.set(id, `${names[renamed.size % names.length]}#${renamed.size}`);
            return renamed.get(id) as string;
          };
          const withIds = withCallIds(steps, rename);
          const source = render('chat', withIds);
          const before = convertTranscriptJson(source, { from: 'chat', to: from });
          if (!before.ok) throw before.failures[0];
          const history = before.value.messages;
          const converted = convertTranscriptJson(history, { from, to });
          if (!converted.ok) throw converted.failures[0];
          const { messages, toolCallIds } = converted.value;
          expect(checkTranscriptJson(messages, { format: to }).result).toBe('accepted');
          const targets = toolCallIds.map((p) => p.target);
          expect(new Set(targets).size).toBe(targets.length);
          const sourceIds = new Set(chatIds(from, history));
          const targetIds = new Set(chatIds(to, messages));
          expect(targetIds.size).toBe(sourceIds.size);
          // Home again: converting back with the pairs gives the source's own ids.
          const back = convertTranscriptJson(messages, { from: to, to: from, toolCallIds });
          if (!back.ok) throw back.failures[0];
          expect(new Set(chatIds(from, back.value.messages))).toEqual(sourceIds);
        },
      ),
      { numRuns: 120, seed: 11 },
    );
  });

  it('converts a rejected loop (a mutation) into one the target accepts', () => {
    const mutated = loopArbitrary().chain((steps) =>
      fc.constantFrom(...mutationsOf(steps)).map((mutation) => mutate(steps, mutation)),
    );
    fc.assert(
      fc.property(mutated, fc.constantFrom(...pairs), (steps, [from, to]) => {
        const converted = convertTranscriptJson(render(from, steps), { from, to });
        if (!converted.ok) throw converted.failures[0];
        expect(converted.value.remaining).toEqual([]);
        expect(checkTranscriptJson(converted.value.messages, { format: to }).result).toBe('accepted');
      }),
      { numRuns: 150, seed: 5 },
    );
  });
});

describe('convertTranscript records and options', () => {
  const signed = [
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Look it up.', signature: 'EuYBCkQYAiJA' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Snow' }] },
  ] as const;

  it('drops signed reasoning across formats, with a record, and keeps it when asked', () => {
    const dropped = convertTranscript(signed, { from: 'anthropic', to: 'chat' });
    expect(dropped.ok && dropped.value.changes).toEqual([
      { kind: 'reasoning_dropped', stage: 'chat', at: 'messages[1].content[0]', detail: 'a thinking block' },
    ]);
    const kept = convertTranscript(signed, { from: 'anthropic', to: 'chat', reasoning: 'keep' });
    expect(kept.ok && kept.value.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'thinking', text: 'Look it up.', signature: 'EuYBCkQYAiJA' }],
      tool_calls: [{ id: 'toolu_01', name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    expect(kept.ok && kept.value.changes).toEqual([]);
  });

  it("remaps ids into a dialect's grammar and runs its rules (Kimi's functions.<name>:<index>)", () => {
    const kimi = convertTranscript(signed, { from: 'anthropic', to: 'openai-chat', dialect: 'kimi' });
    if (!kimi.ok) throw kimi.failures[0];
    expect(kimi.value.toolCallIds).toEqual([{ source: 'toolu_01', target: 'functions.get_weather:0' }]);
    expect(checkTranscriptJson(kimi.value.messages, { format: 'openai-chat', dialect: 'kimi' }).result).toBe(
      'accepted',
    );
    // biome-ignore lint/plugin: a dialect beside a format other than openai-chat, which the types refuse, is the case under test
    const wrong = { from: 'anthropic', to: 'gemini', dialect: 'kimi' } as never;
    expect(() => convertTranscriptJson(signed, wrong)).toThrow(TypeError);
  });

  it("fills reasoning_content where DeepSeek's thinking mode demands it, from the source's thinking text", () => {
    const deepseek = convertTranscript(signed, {
      from: 'anthropic',
      to: 'openai-chat',
      dialect: 'deepseek',
      model: 'deepseek-reasoner',
    });
    if (!deepseek.ok) throw deepseek.failures[0];
    expect(deepseek.value.remaining).toEqual([]);
    expect((deepseek.value.messages[1] as { reasoning_content?: unknown }).reasoning_content).toBe('Look it up.');
    expect(deepseek.value.changes.filter((c) => c.kind === 'reasoning_filled')).toEqual([
      {
        kind: 'reasoning_filled',
        stage: 'target',
        at: 'messages[1].reasoning_content',
        detail: "openai-chat.deepseek_reasoning_content_missing: the source's thinking text for this turn",
      },
    ]);
    const none = convertTranscriptJson(
      [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'get_weather', arguments: {} }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Snow' },
      ],
      { from: 'chat', to: 'openai-chat', dialect: 'kimi', model: 'kimi-k2-thinking' },
    );
    if (!none.ok) throw none.failures[0];
    expect(none.value.transcript).toBeDefined();
    expect((none.value.messages[1] as { reasoning_content?: unknown }).reasoning_content).toBe('');
    // Without a thinking model the dialect asks for nothing, and nothing is written.
    const plain = convertTranscript(signed, { from: 'anthropic', to: 'openai-chat', dialect: 'deepseek' });
    expect(plain.ok && plain.value.changes.some((c) => c.kind === 'reasoning_filled')).toBe(false);
  });

  it('keeps a same-format history as repair would (same array when accepted)', () => {
    const same = convertTranscript(signed, { from: 'anthropic', to: 'anthropic' });
    expect(same.ok && same.value.messages).toBe(signed);
  });

  it('refuses input that is not a transcript of the source, naming the path', () => {
    const refused = convertTranscriptJson([{ role: 'model', parts: [] }], { from: 'openai-chat', to: 'anthropic' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.failures[0]?.field).toBe('messages[0].role');
  });

  it.each([
    [{ from: 'nope', to: 'chat' }, 'options.from must be one of'],
    [{ from: 'chat', to: 'toString' }, 'options.to must be one of'],
    [{ from: 'chat', to: 'anthropic', reasoning: 'maybe' }, "options.reasoning must be 'drop' or 'keep'"],
    [{ from: 'chat', to: 'anthropic', toolCallIds: [{ source: 1 }] }, 'options.toolCallIds must be an array'],
  ])('throws a TypeError for options outside their types: %j', (options, message) => {
    expect(() =>
      convertTranscriptJson([], options as ConvertTranscriptOptions<TranscriptFormat, TranscriptFormat>),
    ).toThrow(message);
  });
});

/** The role of a message as the target's API reads it (`undefined`: a form without one, a Responses item that is no message). */
function roleOf(format: TranscriptFormat, message: unknown): unknown {
  const m = message as Record<string, unknown>;
  if (format === 'langchain') return undefined;
  if (format === 'openai-responses') return m['type'] === undefined || m['type'] === 'message' ? m['role'] : undefined;
  return m['role'];
}

/** The roles each target's API takes among its messages (the system prompt goes elsewhere for three). */
const TAKEN_ROLES: Readonly<Record<TranscriptFormat, readonly unknown[] | undefined>> = {
  anthropic: ['user', 'assistant'],
  gemini: ['user', 'model'],
  'bedrock-converse': ['user', 'assistant'],
  'openai-chat': ['system', 'developer', 'user', 'assistant', 'tool', 'function'],
  'openai-responses': ['system', 'developer', 'user', 'assistant'],
  aisdk: ['system', 'user', 'assistant', 'tool'],
  mistral: ['system', 'user', 'assistant', 'tool'],
  chat: ['system', 'user', 'assistant', 'tool'],
  langchain: undefined,
};

/** A source history of `format` holding `prompt` as its system prompt (in the body's field where the format keeps it there). */
function withSystem(format: TranscriptFormat, input: unknown, prompt: string): unknown {
  const chat = convertTranscriptJson(input, { from: format, to: 'chat', expect: 'received' });
  if (!chat.ok) return undefined;
  const source = convertTranscriptJson([{ role: 'system', content: prompt }, ...chat.value.messages], {
    from: 'chat',
    to: format,
    expect: 'received',
  });
  if (!source.ok) return undefined;
  const { messages, system } = source.value;
  if (system === undefined) return messages;
  return format === 'gemini'
    ? { contents: messages, systemInstruction: system }
    : { [FORMAT_DRIVERS[format].field]: messages, system };
}

describe('the system prompt across formats', () => {
  const prompt = 'You answer in one sentence.';

  it.each(pairs)('%s -> %s: no role the target refuses, and the system prompt arrives', (from, to) => {
    let seen = 0;
    for (const source of cases.filter((c) => c.format === from)) {
      const input = withSystem(from, source.input, prompt);
      if (input === undefined) continue;
      const converted = convertTranscriptJson(input, { from, to, expect: source.expect });
      if (!converted.ok) throw new Error(`${source.file}: ${converted.failures[0]?.message}`);
      const { messages, system } = converted.value;
      const taken = TAKEN_ROLES[to];
      for (const message of messages) {
        const role = roleOf(to, message);
        if (taken !== undefined && role !== undefined)
          expect({ file: source.file, role }).toEqual({ file: source.file, role: expect.toBeOneOf([...taken]) });
      }
      const arrived = JSON.stringify(system ?? messages);
      expect({ file: source.file, arrived: arrived.includes(prompt) }).toEqual({ file: source.file, arrived: true });
      seen++;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("gives the prompt in each field's shape, joins a later system message with a record, and reads a body's own", () => {
    const history = [
      { role: 'system', content: prompt },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'system', content: 'The user is in Oslo.' },
      { role: 'user', content: 'Weather?' },
    ] as const;
    const anthropic = convertTranscript(history, { from: 'chat', to: 'anthropic' });
    if (!anthropic.ok) throw anthropic.failures[0];
    expect(anthropic.value.system).toBe(`${prompt}\n\nThe user is in Oslo.`);
    expect(anthropic.value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(anthropic.value.changes.map((c) => [c.kind, c.kind === 'system_separated' && c.at])).toEqual([
      ['system_separated', 'messages[0]'],
      ['system_separated', 'messages[3]'],
    ]);
    const gemini = convertTranscript(history, { from: 'chat', to: 'gemini' });
    expect(gemini.ok && gemini.value.system).toEqual({ parts: [{ text: `${prompt}\n\nThe user is in Oslo.` }] });
    const bedrock = convertTranscript(history, { from: 'chat', to: 'bedrock-converse' });
    expect(bedrock.ok && bedrock.value.system).toEqual([{ text: `${prompt}\n\nThe user is in Oslo.` }]);
    const chat = convertTranscript(history, { from: 'chat', to: 'openai-chat' });
    expect(chat.ok && [chat.value.system, chat.value.messages[0]]).toEqual([
      undefined,
      { role: 'system', content: prompt },
    ]);
    // A request body's system prompt is the history's first system message.
    const body = { system: [{ type: 'text', text: prompt }], messages: [{ role: 'user', content: 'Hi' }] };
    const fromBody = convertTranscriptJson(body, { from: 'anthropic', to: 'openai-chat' });
    expect(fromBody.ok && fromBody.value.messages).toEqual([
      { role: 'system', content: prompt },
      { role: 'user', content: 'Hi' },
    ]);
    const same = convertTranscriptJson(
      { ...body, messages: [{ role: 'system', content: 'Be brief.' }, ...body.messages] },
      { from: 'anthropic', to: 'anthropic' },
    );
    expect(same.ok && [same.value.system, same.value.messages]).toEqual([
      `${prompt}\n\nBe brief.`,
      [{ role: 'user', content: 'Hi' }],
    ]);
    const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], config: { systemInstruction: prompt } };
    const fromGemini = convertTranscriptJson(geminiBody, { from: 'gemini', to: 'bedrock-converse' });
    expect(fromGemini.ok && fromGemini.value.system).toEqual([{ text: prompt }]);
    const bad = convertTranscriptJson({ system: 5, messages: [] }, { from: 'bedrock-converse', to: 'anthropic' });
    expect(!bad.ok && bad.failures[0]?.field).toBe('system');
  });
});

/** The tool call ids of a history's calls, in order (results left out). */
function callIds(format: TranscriptFormat, messages: readonly unknown[]): string[] {
  const chat = toChatMessages(messages as readonly TranscriptMessage<TranscriptFormat>[], { format });
  if (!chat.ok) throw chat.failures[0];
  return chat.value.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
}

/** Ids of 1 to 64 characters, most of them over ChatMessage's 40, some with characters Anthropic refuses. */
const longId = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{41,64}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,20}[:.][A-Za-z0-9]{1,43}$/) },
);

describe('every renamed id is in toolCallIds', () => {
  it('records each id the result holds under another name, whichever step renamed it, and brings every id home', () => {
    let runs = 0;
    let long = 0;
    fc.assert(
      fc.property(
        loopArbitrary(),
        fc.uniqueArray(longId, { minLength: 20, maxLength: 20 }),
        fc.constantFrom(...pairs),
        (steps, raw, [from, to]) => {
          // Each call gets a generated id the source format takes (minted in its grammar otherwise).
          const grammar = FORMAT_DRIVERS[from].toolCallIds;
          const given = new Map<string, string>();
          const idOf = (id: string) => {
            if (!given.has(id)) {
              const candidate = raw[given.size % raw.length] as string;
              const taken = new Set(given.values());
              const own =
                grammar.accepts(candidate) && !taken.has(candidate)
                  ? candidate
                  : grammar.mint({
                      digest: createHash('sha256').update(candidate).digest('hex'),
                      name: '',
                      index: given.size,
                    });
              given.set(id, own);
            }
            return given.get(id) as string;
          };
          const withIds = withCallIds(steps, idOf);
          const source = render(from, withIds, { ids: true, bare: true });
          expect(checkTranscriptJson(source, { format: from }).result).toBe('accepted');
          const converted = convertTranscriptJson(source, { from, to });
          if (!converted.ok) throw converted.failures[0];
          const { messages, toolCallIds } = converted.value;
          expect(checkTranscriptJson(messages, { format: to }).result).toBe('accepted');
          const before = callIds(from, source);
          const after = callIds(to, messages);
          expect(after).toHaveLength(before.length);
          // Every id the result holds under another name is a pair; every pair is such an id.
          const renamed = before.flatMap((id, i) => (after[i] === id ? [] : [{ source: id, target: after[i] }]));
          expect(new Set(toolCallIds.map((p) => JSON.stringify(p)))).toEqual(
            new Set(renamed.map((p) => JSON.stringify(p))),
          );
          // Home again: a reply converted back with the pairs carries the source's own ids.
          const back = convertTranscriptJson(messages, { from: to, to: from, toolCallIds });
          if (!back.ok) throw back.failures[0];
          expect(callIds(from, back.value.messages)).toEqual(before);
          runs++;
          if (before.some((id) => id.length > 40)) long++;
        },
      ),
      { numRuns: 400, seed: 36 },
    );
    expect(long).toBeGreaterThan(runs / 4);
  });
});
