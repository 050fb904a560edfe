/**
 * A transcript the check accepts is one an SDK can serialize: a cycle, a bigint or a getter that
 * throws anywhere in the messages (in a field no rule reads, or in no known field at all) makes
 * the check `invalid`, naming the path, as the own-data snapshot does under a polluted prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/stop-reasons.ts';
import { render, type Step } from '../../test/transcript-loops.ts';
import { withPollution } from '../../test/turn-fixtures.ts';
import { checkTranscriptJson, repairTranscriptJson } from './index.ts';

const LOOP: readonly Step[] = [
  { kind: 'user', text: 'Weather in Oslo?' },
  { kind: 'assistant', text: undefined, calls: [{ id: 'call00001', name: 'get_weather' }] },
  { kind: 'results', ids: ['call00001'] },
  { kind: 'assistant', text: 'Snow.', calls: [] },
];

/**
 * Where each format's rendered loop holds a value no rule reads: inside the call's input
 * (arguments, args) where it is an object, else a field of the call that no format knows.
 */
const FREE: Record<TranscriptFormat, readonly (string | number)[]> = {
  anthropic: [1, 'content', 0, 'input', 'q'],
  'openai-chat': [1, 'tool_calls', 0, 'extra'],
  'openai-responses': [2, 'extra'],
  aisdk: [1, 'content', 0, 'input', 'q'],
  gemini: [1, 'parts', 0, 'functionCall', 'args', 'q'],
  'bedrock-converse': [1, 'content', 0, 'toolUse', 'input', 'q'],
  chat: [1, 'tool_calls', 0, 'arguments', 'q'],
  langchain: [1, 'kwargs', 'tool_calls', 0, 'args', 'q'],
  mistral: [1, 'tool_calls', 0, 'extra'],
};

const ROOT: Record<TranscriptFormat, string> = {
  anthropic: 'messages',
  'openai-chat': 'messages',
  'openai-responses': 'input',
  aisdk: 'messages',
  gemini: 'contents',
  'bedrock-converse': 'messages',
  chat: 'messages',
  langchain: 'messages',
  mistral: 'messages',
};

/** The loop rendered in `format`, with `value` at its free place; and that place as a path. */
function planted(format: TranscriptFormat, value: unknown): { messages: unknown[]; path: string } {
  const messages = structuredClone(render(format, LOOP));
  const at = FREE[format];
  let holder: unknown = messages;
  for (const step of at.slice(0, -1)) holder = (holder as Record<string | number, unknown>)[step];
  (holder as Record<string | number, unknown>)[at.at(-1) as string | number] = value;
  const path = at.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
  return { messages, path: `${ROOT[format]}${path}` };
}

function stringifies(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

describe.each(TRANSCRIPT_FORMATS)('%s: what an SDK cannot serialize', (format) => {
  it('accepts the loop with plain data at the free place', () => {
    expect(checkTranscriptJson(planted(format, { city: 'Oslo' }).messages, { format }).result).toBe('accepted');
  });

  it('is invalid for a bigint, a cycle or a throwing getter there, naming the path; repair refuses it alike', () => {
    const loop: Record<string, unknown> = { city: 'Oslo' };
    loop['again'] = loop;
    const getter = Object.defineProperty({}, 'late', {
      enumerable: true,
      get() {
        throw new Error('gone');
      },
    });
    const cases: [unknown, string, string][] = [
      [12n, '', 'a bigint is not JSON data'],
      [{ list: [1, 2n] }, '.list[1]', 'a bigint is not JSON data'],
      [loop, '.again', 'the value contains itself (a cycle)'],
      [getter, '.late', 'reading it threw Error: gone'],
    ];
    for (const [value, below, detail] of cases) {
      const { messages, path } = planted(format, value);
      const report = checkTranscriptJson(messages, { format });
      const message = `${path}${below}: expected JSON data (${detail})`;
      expect(report.result === 'invalid' && report.error.message).toBe(message);
      const repaired = repairTranscriptJson(messages, { format });
      expect(repaired.ok ? 'repaired' : repaired.failures[0]?.message).toContain(message);
    }
  });

  it('accepts only what JSON.stringify writes, whatever value stands at the free place', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const report = checkTranscriptJson(planted(format, value).messages, { format });
        if (report.result === 'accepted') expect(stringifies(report.transcript.messages)).toBe(true);
        if (!stringifies(value)) expect(report.result).toBe('invalid');
      }),
      { numRuns: 300, seed: 23 },
    );
  });

  it('gives the same error under a polluted Object.prototype (the own-data snapshot), in a request body too', () => {
    const loop: Record<string, unknown> = {};
    loop['again'] = loop;
    const { messages } = planted(format, loop);
    for (const input of [messages, { model: 'm', [ROOT[format]]: messages }]) {
      const clean = checkTranscriptJson(input, { format });
      const polluted = withPollution({ planted: 'x' }, () => checkTranscriptJson(input, { format }));
      expect(clean.result === 'invalid' && clean.error.field).toMatch(/\.again$/);
      expect(polluted.result === 'invalid' && polluted.error.message).toBe(
        clean.result === 'invalid' && clean.error.message,
      );
    }
  });
});

describe('what the check keeps as it is', () => {
  it('objects shared without a cycle, however often: 2^60 paths through 60 objects', () => {
    let shared: unknown = { city: 'Oslo' };
    for (let level = 0; level < 60; level++) shared = { left: shared, right: shared };
    const { messages } = planted('anthropic', shared);
    expect(checkTranscriptJson(messages, { format: 'anthropic' }).result).toBe('accepted');
  });

  it("the AI SDK's binary and URL file data", () => {
    const report = checkTranscriptJson(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', image: new URL('https://example.com/cat.png') },
            { type: 'file', data: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
          ],
        },
      ],
      { format: 'aisdk' },
    );
    expect(report.result).toBe('accepted');
  });
});
