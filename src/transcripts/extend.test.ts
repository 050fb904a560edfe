import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { FORMAT_DRIVERS } from './formats.ts';
import { loopArbitrary, mutate, mutationsOf, render } from '../../test/transcript-loops.ts';
import type { TranscriptFormat } from '../check/index.ts';
import {
  checkTranscriptJson,
  extendTranscript,
  type ExtendTranscriptOptions,
  guardSend,
  type SendableTranscript,
  type TranscriptReport,
  UncheckedTranscriptError,
} from './index.ts';
import { checkExtendable, extendChecked, type OpenAIChatMessage } from './internal.ts';

const suite = join(import.meta.dirname, '../../conformance/transcripts');

interface Case {
  readonly name: string;
  readonly format: TranscriptFormat;
  readonly input: unknown[];
  readonly options: ExtendTranscriptOptions;
}

/** Every conformance transcript given as a list of messages and checked for sending with no calls carried open. */
const CASES: Case[] = readdirSync(suite, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(suite, dir.name))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        name: `${dir.name}/${file}`,
        json: JSON.parse(readFileSync(join(suite, dir.name, file), 'utf8')),
      })),
  )
  .filter(
    ({ json }) =>
      Array.isArray(json.input) && (json.expect ?? 'sendable') === 'sendable' && json.openToolCalls === undefined,
  )
  .map(({ name, json }) => ({
    name,
    format: json.format,
    input: json.input,
    options: json.dialect === undefined ? {} : { dialect: json.dialect },
  }));

/** What a report says, with the snapshot's messages as data. */
function said(report: TranscriptReport<TranscriptFormat>) {
  return {
    result: report.result,
    failures: report.failures,
    openToolCalls: report.openToolCalls,
    error: report.result === 'invalid' ? report.error.message : undefined,
    messages: report.result === 'accepted' ? report.transcript?.messages : undefined,
  };
}

/** The formats whose drivers extend a checked history by its tail read alone. */
const EXTENDABLE = [
  'openai-chat',
  'chat',
  'anthropic',
  'openai-responses',
  'gemini',
  'aisdk',
  'mistral',
  'langchain',
  'bedrock-converse',
] as const;

/** Whether the format extends every accepted history by a tail accepted alone (anthropic: not after an open server call or an empty last assistant message). */
const alwaysTailOnly = (format: TranscriptFormat, options: ExtendTranscriptOptions) =>
  (format === 'openai-chat' && options.dialect === undefined) || format === 'chat';

/** Runs `extend` and returns the lengths of the lists the format's rules read meanwhile. */
/** The full check's report of `history` then `tail`, once its failures are asserted to be those of `rules`. */
function wholeReport(format: TranscriptFormat, history: readonly unknown[], tail: readonly unknown[], rules: string[]) {
  const whole = said(checkTranscriptJson([...history, ...tail], { format }));
  expect(whole.failures.map((f) => f.rule)).toEqual(rules);
  return whole;
}

/** `history` checked (asserted accepted) and extended by nothing: the report, and its transcript to extend. */
function acceptedBase(format: TranscriptFormat, history: readonly unknown[]) {
  const first = checkTranscriptJson(history, { format });
  expect(first.result).toBe('accepted');
  const base = extendTranscript((first as { transcript: SendableTranscript }).transcript, []);
  return { base, transcript: (base as { transcript: SendableTranscript }).transcript };
}

function ruleReads(format: TranscriptFormat, extend: () => void): number[] {
  const spy = vi.spyOn(FORMAT_DRIVERS[format], 'check');
  try {
    extend();
    return spy.mock.calls.map((call) => call[0].length);
  } finally {
    spy.mockRestore();
  }
}

/**
 * For every split of `input`: the report of the prefix extended by the rest equals the full
 * check's, both from a transcript `checkTranscript` minted (checked whole) and from one
 * `extendTranscript` minted (the tail read alone where the format allows it, sharing the
 * prefix's frozen messages). Counts the splits whose tail the rules read alone.
 */
function holdsAtEverySplit(format: TranscriptFormat, input: readonly unknown[], options: ExtendTranscriptOptions) {
  const full = said(checkTranscriptJson(input, { format, ...options }));
  let tailOnly = 0;
  let prefixes = 0;
  for (let k = 0; k <= input.length; k++) {
    const prefix = checkTranscriptJson(input.slice(0, k), { format, ...options });
    if (prefix.result !== 'accepted') continue;
    prefixes++;
    const tail = input.slice(k) as never[];
    expect(said(extendTranscript(prefix.transcript, tail, options))).toEqual(full);
    const base = extendTranscript(prefix.transcript, [], options);
    expect(base.result).toBe('accepted');
    const transcript = (base as { transcript: SendableTranscript }).transcript;
    let next = base;
    const reads = ruleReads(format, () => {
      next = extendTranscript(transcript, tail, options);
    });
    expect(said(next)).toEqual(full);
    if (next.result !== 'accepted') continue;
    // The new transcript holds the prefix's frozen messages themselves.
    expect(next.transcript.messages.slice(0, k).every((m, i) => m === transcript.messages[i])).toBe(true);
    // Gemini's, Mistral's and Bedrock's checks read a message or two standing for the history's last before the tail.
    const lead = format === 'gemini' ? 1 : format === 'mistral' || format === 'bedrock-converse' ? 2 : 0;
    const read = reads.length === 1 ? (reads[0] as number) : -1;
    if (k > 0 && read >= tail.length && read <= tail.length + lead) tailOnly++;
  }
  return { prefixes, tailOnly };
}

describe('extendTranscript', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: every split gives the full check’s report', (_, c) => {
    const { prefixes } = holdsAtEverySplit(c.format, c.input, c.options);
    expect(prefixes).toBeGreaterThan(0);
  });

  it('openai-chat and chat read an accepted tail alone after every accepted prefix; the other extendable formats after most', () => {
    const counts = new Map<TranscriptFormat, { accepted: number; tailOnly: number }>();
    for (const c of CASES) {
      if (!full(c) || !(EXTENDABLE as readonly string[]).includes(c.format) || c.options.dialect !== undefined)
        continue;
      const { prefixes, tailOnly } = holdsAtEverySplit(c.format, c.input, c.options);
      const count = counts.get(c.format) ?? { accepted: 0, tailOnly: 0 };
      counts.set(c.format, { accepted: count.accepted + prefixes - 1, tailOnly: count.tailOnly + tailOnly });
      if (alwaysTailOnly(c.format, c.options)) expect(tailOnly, c.name).toBe(prefixes - 1);
    }
    expect(new Set(CASES.map((c) => c.format)).size).toBe(9);
    for (const format of EXTENDABLE) {
      const count = counts.get(format);
      expect(count?.accepted).toBeGreaterThan(10);
      expect(count?.tailOnly).toBeGreaterThan((count?.accepted ?? 0) / 2);
    }
  });

  it.each(EXTENDABLE)(
    '%s: generated loops and their single mutations, split at every index, give the full check’s report',
    (format) => {
      fc.assert(
        fc.property(
          loopArbitrary().chain((steps) =>
            fc
              .option(fc.constantFrom(...mutationsOf(steps)), { nil: undefined })
              .map((mutation) => ({ steps, mutation })),
          ),
          ({ steps, mutation }) => {
            holdsAtEverySplit(format, render(format, mutation === undefined ? steps : mutate(steps, mutation)), {});
          },
        ),
        { numRuns: 40, seed: 11 },
      );
    },
  );

  it.each([
    ['gemini', { ids: true }],
    ['openai-responses', { bare: true }],
    ['langchain', { bare: true }],
  ] as const)(
    '%s %o: generated loops and their single mutations, split at every index, give the full check’s report',
    (format, options) => {
      fc.assert(
        fc.property(
          loopArbitrary().chain((steps) =>
            fc
              .option(fc.constantFrom(...mutationsOf(steps)), { nil: undefined })
              .map((mutation) => ({ steps, mutation })),
          ),
          ({ steps, mutation }) => {
            holdsAtEverySplit(
              format,
              render(format, mutation === undefined ? steps : mutate(steps, mutation), options),
              {},
            );
          },
        ),
        { numRuns: 40, seed: 12 },
      );
    },
  );

  it('gemini: a call turn after the history’s model content, and responses split over the boundary, give the full check’s report', () => {
    const call = (id: string) => ({ functionCall: { id, name: 'get_weather', args: {} } });
    const response = (id: string) => ({ functionResponse: { id, name: 'get_weather', response: { text: 'Snow' } } });
    const user = { role: 'user', parts: [{ text: 'Oslo?' }] };
    const cases: { history: unknown[]; tail: unknown[]; rule?: string }[] = [
      {
        history: [user, { role: 'model', parts: [{ text: 'Let me look.' }] }],
        tail: [
          { role: 'model', parts: [call('a')] },
          { role: 'user', parts: [response('a')] },
        ],
        rule: 'gemini.function_call_turn_misplaced',
      },
      {
        history: [
          user,
          { role: 'model', parts: [call('a'), call('b')] },
          { role: 'user', parts: [response('a')] },
        ].slice(0, 1),
        tail: [
          { role: 'model', parts: [call('a')] },
          { role: 'user', parts: [response('a')] },
        ],
      },
      {
        history: [user, { role: 'model', parts: [call('a')] }, { role: 'user', parts: [response('a')] }],
        tail: [{ role: 'user', parts: [response('a')] }],
        rule: 'gemini.duplicate_function_response',
      },
    ];
    for (const { history, tail, rule } of cases) {
      const whole = wholeReport('gemini', history, tail, rule === undefined ? [] : [rule]);
      const { transcript } = acceptedBase('gemini', history);
      expect(said(extendTranscript(transcript, tail as never[]))).toEqual(whole);
    }
  });

  it('bedrock-converse: roles and results over the boundary give the full check’s report, an accepted tail read alone', () => {
    const text = (role: string, t: string) => ({ role, content: [{ text: t }] });
    const call = (id: string) => ({
      role: 'assistant',
      content: [{ toolUse: { toolUseId: id, name: 'get_weather', input: {} } }],
    });
    const result = (id: string) => ({
      role: 'user',
      content: [{ toolResult: { toolUseId: id, content: [{ text: 'Snow' }] } }],
    });
    const user = text('user', 'Oslo?');
    const cases: { history: unknown[]; tail: unknown[]; rules: string[]; tailOnly: boolean }[] = [
      // The tail's first message of the history's last role.
      {
        history: [user, text('assistant', 'Let me look.')],
        tail: [text('assistant', 'Snow.')],
        rules: ['bedrock-converse.roles_not_alternating'],
        tailOnly: false,
      },
      { history: [user], tail: [user], rules: ['bedrock-converse.roles_not_alternating'], tailOnly: false },
      // A tail result for a call the history answered: a duplicate in the whole history.
      {
        history: [user, call('a'), result('a'), text('assistant', 'Snow.')],
        tail: [result('a')],
        rules: ['bedrock-converse.duplicate_tool_result'],
        tailOnly: false,
      },
      // A tail repeating a call id of the history.
      {
        history: [user, call('a'), result('a')],
        tail: [call('a'), result('a')],
        rules: [],
        tailOnly: false,
      },
      // An empty history: the tail's first message is the conversation's first.
      {
        history: [],
        tail: [text('assistant', 'Hi.'), user],
        rules: ['bedrock-converse.first_message_not_user'],
        tailOnly: false,
      },
      { history: [user], tail: [call('a'), result('a'), text('assistant', 'Snow.')], rules: [], tailOnly: true },
      {
        history: [user, call('a'), result('a')],
        tail: [call('b'), result('b'), text('assistant', 'Snow.'), user],
        rules: [],
        tailOnly: true,
      },
    ];
    for (const { history, tail, rules, tailOnly } of cases) {
      const whole = wholeReport('bedrock-converse', history, tail, rules);
      const { base, transcript } = acceptedBase('bedrock-converse', history);
      let next = base;
      const reads = ruleReads('bedrock-converse', () => {
        next = extendTranscript(transcript, tail as never[]);
      });
      expect(said(next)).toEqual(whole);
      expect(reads.length === 1 && (reads[0] as number) <= tail.length + 2).toBe(tailOnly);
    }
  });

  it('aisdk in the prompt stage (the middleware’s check): every split of every transcript gives the full check’s report', () => {
    let tailOnly = 0;
    for (const c of CASES.filter((c) => c.format === 'aisdk')) {
      const full = said(checkExtendable(c.input, 'aisdk', { stage: 'prompt' }));
      for (let k = 0; k <= c.input.length; k++) {
        const prefix = checkExtendable(c.input.slice(0, k), 'aisdk', { stage: 'prompt' });
        if (prefix.result !== 'accepted') continue;
        const tail = c.input.slice(k);
        expect(said(extendChecked(prefix.transcript, tail, { stage: 'prompt' })), c.name).toEqual(full);
        const base = extendChecked(prefix.transcript, [], { stage: 'prompt' });
        const transcript = (base as { transcript: SendableTranscript<'aisdk'> }).transcript;
        let next = base;
        const reads = ruleReads('aisdk', () => {
          next = extendChecked(transcript, tail, { stage: 'prompt' });
        });
        expect(said(next), c.name).toEqual(full);
        if (k > 0 && reads.length === 1 && reads[0] === tail.length) tailOnly++;
      }
    }
    expect(tailOnly).toBeGreaterThan(20);
  });

  it('openai-responses: what its rules read across the boundary (reasoning, item ids, outputs by key) gives the full check’s report', () => {
    const call = (n: number, id?: string) => ({
      type: 'function_call',
      call_id: `call_${n}`,
      name: 'get_weather',
      arguments: '{}',
      ...(id === undefined ? {} : { id }),
    });
    const output = (n: number) => ({ type: 'function_call_output', call_id: `call_${n}`, output: 'Snow' });
    const reasoning = (id: string) => ({ type: 'reasoning', id, summary: [], encrypted_content: 'e' });
    const user = { role: 'user', content: 'Oslo?' };
    const cases: { history: unknown[]; tail: unknown[]; rule?: string }[] = [
      // The reasoning rule runs over the tail's call because the history reasons.
      {
        history: [user, reasoning('rs_1'), call(1, 'fc_1'), output(1)],
        tail: [call(2, 'fc_2'), output(2)],
        rule: 'openai-responses.function_call_without_reasoning',
      },
      // ... and over the history's call because the tail reasons.
      {
        history: [user, call(1, 'fc_1'), output(1)],
        tail: [reasoning('rs_2'), call(2, 'fc_2'), output(2)],
        rule: 'openai-responses.function_call_without_reasoning',
      },
      // A tail's call reads its reasoning back into the history.
      {
        history: [user, reasoning('rs_1'), { role: 'assistant', content: 'Checking.' }],
        tail: [call(2, 'fc_2'), output(2)],
      },
      // Item ids are unique over the whole input.
      {
        history: [user, reasoning('rs_1'), call(1, 'fc_1'), output(1)],
        tail: [reasoning('rs_1'), call(2, 'fc_2'), output(2)],
        rule: 'openai-responses.duplicate_item_id',
      },
      // An item reference waives orphans on either side of the boundary; an output pairs by key across it.
      { history: [{ type: 'item_reference', id: 'msg_1' }, user], tail: [output(7)] },
      {
        history: [{ type: 'item_reference', id: 'msg_1' }, call(1), output(1)],
        tail: [output(1)],
        rule: 'openai-responses.duplicate_function_call_output',
      },
      { history: [user, output(3)].slice(0, 1), tail: [{ type: 'item_reference', id: 'msg_1' }, output(3)] },
    ];
    for (const { history, tail, rule } of cases) {
      const whole = wholeReport('openai-responses', history, tail, rule === undefined ? [] : [rule]);
      const { transcript } = acceptedBase('openai-responses', history);
      expect(said(extendTranscript(transcript, tail as never[]))).toEqual(whole);
    }
  });

  it('a tail repeating a call id of the history is checked whole, with the history’s paths', () => {
    const call: OpenAIChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
    };
    const first = extendTranscript(
      (checkTranscriptJson([], { format: 'openai-chat' }) as { transcript: SendableTranscript<'openai-chat'> })
        .transcript,
      [{ role: 'user', content: 'Oslo?' }, call, { role: 'tool', tool_call_id: 'call_1', content: 'Snow' }],
    );
    expect(first.result).toBe('accepted');
    const again = extendTranscript((first as { transcript: SendableTranscript<'openai-chat'> }).transcript, [
      call,
      { role: 'tool', tool_call_id: 'call_1', content: 'Rain' },
    ]);
    expect(again.failures.map((f) => `${f.rule} ${f.at}`)).toEqual(
      checkTranscriptJson(
        [
          { role: 'user', content: 'Oslo?' },
          call,
          { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
          call,
          { role: 'tool', tool_call_id: 'call_1', content: 'Rain' },
        ],
        { format: 'openai-chat' },
      ).failures.map((f) => `${f.rule} ${f.at}`),
    );
    expect(again.failures.length).toBeGreaterThan(0);
  });

  it('an extended transcript is sendable: one frozen list of every message, which guardSend sends', () => {
    let transcript = (
      checkTranscriptJson([{ role: 'user', content: 'Oslo?' }], { format: 'chat' }) as {
        transcript: SendableTranscript<'chat'>;
      }
    ).transcript;
    for (let s = 0; s < 5; s++) {
      const next = extendTranscript(transcript, [
        { role: 'assistant', tool_calls: [{ id: `call_${s}`, name: 'get_weather', arguments: {} }] },
        { role: 'tool', tool_call_id: `call_${s}`, content: 'Snow' },
      ]);
      expect(next.result).toBe('accepted');
      transcript = (next as { transcript: SendableTranscript<'chat'> }).transcript;
    }
    const messages = transcript.messages;
    expect(messages.length).toBe(11);
    expect(transcript.messages).toBe(messages);
    expect(Object.isFrozen(messages) && Object.isFrozen(transcript) && messages.every((m) => Object.isFrozen(m))).toBe(
      true,
    );
    const sent = guardSend('chat', (list: unknown[]) => list.length)(transcript);
    expect(sent).toBe(11);
  });

  it('refuses a transcript the check did not mint, and a tail that is not a list', () => {
    // biome-ignore lint/plugin: a forged transcript, as a caller's cast would make one
    const forged = { format: 'chat', messages: [] } as unknown as SendableTranscript<'chat'>;
    expect(() => extendTranscript(forged, [])).toThrow(UncheckedTranscriptError);
    const checked = checkTranscriptJson([], { format: 'chat' }) as { transcript: SendableTranscript<'chat'> };
    // biome-ignore lint/plugin: a tail that is not a list, as untyped code could pass one
    expect(() => extendTranscript(checked.transcript, 'hi' as never)).toThrow(
      'extendTranscript: tail: expected an array of chat messages, got string',
    );
  });
});

function full(c: Case): boolean {
  return checkTranscriptJson(c.input, { format: c.format, ...c.options }).result === 'accepted';
}
