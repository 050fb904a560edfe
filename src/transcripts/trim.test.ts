/**
 * `cutPoints` and `trimTranscript`: every accepted conformance transcript trimmed to every length
 * gives a history the check accepts or a typed refusal; cuts never fall inside a tool loop;
 * summaries fit each format (repaired where the format needs it); bad options are named.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopArbitrary, render } from '../../test/transcript-loops.ts';
import { withPollution } from '../../test/turn-fixtures.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/index.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import { checkTranscriptJson, cutPoints, trimTranscript, trimTranscriptJson } from './index.ts';

interface Case {
  readonly file: string;
  readonly format: TranscriptFormat;
  readonly dialect?: OpenAIChatDialect;
  readonly input: unknown;
  readonly result: string;
}

const suite = join(import.meta.dirname, '../../conformance/transcripts');
const accepted: Case[] = TRANSCRIPT_FORMATS.flatMap((format) =>
  readdirSync(join(suite, format))
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file: `${format}/${file}`, ...JSON.parse(readFileSync(join(suite, format, file), 'utf8')) })),
).filter((c: Case) => c.result === 'accepted');

const dialectOf = (c: Case) => (c.dialect === undefined ? {} : { dialect: c.dialect });
const lengthOf = (c: Case): number => {
  const list = Array.isArray(c.input) ? c.input : (c.input as Record<string, unknown>)[FORMAT_DRIVERS[c.format].field];
  return Array.isArray(list) ? list.length : 0;
};
/** The trimmed messages as the check reads them: in the request body when the input was one. */
const asInput = (c: Case, messages: readonly unknown[]) =>
  Array.isArray(c.input) ? messages : { ...(c.input as object), [FORMAT_DRIVERS[c.format].field]: messages };

describe('trimTranscript over every accepted conformance transcript', () => {
  it('trimmed to every length, with and without a summary: an accepted history or a typed refusal', () => {
    const counts = { runs: 0, trimmed: 0, refused: 0, cut: 0 };
    const reasons = new Set<string>();
    for (const c of accepted) {
      const n = lengthOf(c);
      for (let keepLast = 0; keepLast <= n; keepLast++) {
        for (const summary of [undefined, 'Summary of the earlier conversation.']) {
          counts.runs++;
          const options = {
            format: c.format,
            keepLast,
            ...dialectOf(c),
            ...(summary === undefined ? {} : { summary }),
          };
          const trimmed = trimTranscriptJson(c.input, options);
          if (!trimmed.ok) {
            counts.refused++;
            const [refusal] = trimmed.failures;
            reasons.add(refusal?.reason ?? 'none');
            expect({ file: c.file, keepLast, reason: refusal?.reason }).toEqual({
              file: c.file,
              keepLast,
              reason: expect.stringMatching(/^(no_cut_point|summary_refused)$/),
            });
            continue;
          }
          counts.trimmed++;
          const { value } = trimmed;
          if (value.removed.length > 0) counts.cut++;
          const report = checkTranscriptJson(asInput(c, value.messages), { format: c.format, ...dialectOf(c) });
          expect({ file: c.file, keepLast, summary, result: report.result }).toEqual({
            file: c.file,
            keepLast,
            summary,
            result: 'accepted',
          });
          // What is kept is at least keepLast of the last messages, and removed + kept is the input.
          expect(n - value.cut).toBeGreaterThanOrEqual(Math.min(keepLast, n - value.kept));
          expect(value.kept + value.removed.length + (n - value.cut)).toBe(n);
          expect(value.removed.map((r) => r.index)).toEqual(
            Array.from({ length: value.cut - value.kept }, (_, i) => value.kept + i),
          );
        }
      }
    }
    expect(accepted.length).toBeGreaterThan(150);
    expect(counts.runs).toBe(counts.trimmed + counts.refused);
    // The property has teeth: many runs cut something, and some are refused.
    expect(counts.cut).toBeGreaterThan(100);
    expect([...reasons]).toContain('no_cut_point');
  });

  it('every cut point gives a history the check accepts, and opens a user turn', () => {
    for (const c of accepted) {
      // The case's input as parsed JSON (typed `any`, as a history read from a file is).
      const input = JSON.parse(JSON.stringify(c.input));
      const points = cutPoints(input, { format: c.format, ...dialectOf(c) });
      const n = lengthOf(c);
      for (const k of points) {
        expect(k).toBeGreaterThanOrEqual(0);
        expect(k).toBeLessThan(n);
        const trimmed = trimTranscriptJson(c.input, { format: c.format, keepLast: n - k, ...dialectOf(c) });
        expect({ file: c.file, k, ok: trimmed.ok }).toEqual({ file: c.file, k, ok: true });
      }
    }
  });
});

describe('trimTranscript under a polluted Object.prototype', () => {
  it('decides as on a clean prototype: a planted role, content, summary or keepLast changes nothing', () => {
    const verdict = (c: Case) => {
      const trimmed = trimTranscriptJson(c.input, { format: c.format, keepLast: 1, ...dialectOf(c) });
      return JSON.stringify(
        trimmed.ok ? { cut: trimmed.value.cut, messages: trimmed.value.messages } : trimmed.failures,
      );
    };
    const clean = accepted.map(verdict);
    const differs: string[] = [];
    for (const [key, value] of [
      ['role', 'user'],
      ['content', 'planted'],
      ['type', 'text'],
      ['summary', 'planted summary'],
      ['keepLast', 0],
      ['tool_calls', []],
    ] as const) {
      withPollution({ [key]: value }, () => {
        accepted.forEach((c, i) => {
          if (verdict(c) !== clean[i]) differs.push(`${key} ${c.file}`);
        });
      });
    }
    expect(differs).toEqual([]);
  });
});

describe('cutPoints', () => {
  const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'get_weather', input: { city: 'Oslo' } });
  const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'Snow' });
  const thinking = { type: 'thinking' as const, thinking: 'Look it up.', signature: 'EqQBCkgIARAB' };

  it('never falls inside a tool loop: not between a call and its result, not after the thinking block that opened it', () => {
    const history = [
      { role: 'user' as const, content: 'Weather in Oslo and Bergen?' },
      { role: 'assistant' as const, content: [thinking, call('toolu_01')] },
      { role: 'user' as const, content: [result('toolu_01')] },
      { role: 'assistant' as const, content: [call('toolu_02')] },
      { role: 'user' as const, content: [result('toolu_02')] },
      { role: 'assistant' as const, content: 'Snow in both.' },
      { role: 'user' as const, content: 'Thanks. And tomorrow?' },
    ];
    expect(cutPoints(history, { format: 'anthropic' })).toEqual([0, 6]);
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: history,
    };
    expect(cutPoints(body, { format: 'anthropic' })).toEqual([0, 6]);
  });

  it('keeps the system messages in front, and cuts where an id repeated across turns stays paired', () => {
    const history = [
      { role: 'system' as const, content: 'You report the weather.' },
      { role: 'user' as const, content: 'Oslo?' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool' as const, tool_call_id: 'call_1', content: 'Snow' },
      { role: 'user' as const, content: 'Bergen?' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool' as const, tool_call_id: 'call_1', content: 'Rain' },
    ];
    // The whole history repeats call_1 (refused); the cut at the second user turn removes the first use.
    expect(checkTranscriptJson(history, { format: 'openai-chat' }).result).toBe('rejected');
    expect(cutPoints(history, { format: 'openai-chat' })).toEqual([4]);
    const trimmed = trimTranscript(history, { format: 'openai-chat', keepLast: 3 });
    if (!trimmed.ok) throw new Error('refused');
    expect(trimmed.value.messages).toEqual([history[0], history[4], history[5], history[6]]);
    expect(trimmed.value.removedToolCalls).toEqual([{ id: 'call_1', name: 'w', messageIndex: 2, answered: true }]);
  });

  it('throws the input error for input that is no transcript of the format', () => {
    const gemini = JSON.parse('[{ "role": "user", "parts": [{ "text": "Hi" }] }]');
    expect(() => cutPoints(gemini, { format: 'anthropic' })).toThrow(/messages\[0\]/);
  });
});

describe('trimTranscript', () => {
  const bedrock = [
    { role: 'user', content: [{ text: 'Oslo?' }] },
    { role: 'assistant', content: [{ text: 'Snow.' }] },
    { role: 'user', content: [{ text: 'Bergen?' }] },
  ];

  it("fits a summary with the format's repair where a second user message breaks a rule (Bedrock joins them)", () => {
    const trimmed = trimTranscriptJson(bedrock, { format: 'bedrock-converse', keepLast: 1, summary: 'Oslo: snow.' });
    if (!trimmed.ok) throw new Error('refused');
    expect(trimmed.value.messages).toEqual([{ role: 'user', content: [{ text: 'Oslo: snow.' }, { text: 'Bergen?' }] }]);
    expect(trimmed.value.summary?.repairs.map((r) => r.rule)).toEqual(['bedrock-converse.roles_not_alternating']);
  });

  it('cuts nothing when the history already fits, and refuses when no cut point keeps keepLast messages', () => {
    const whole = trimTranscriptJson(bedrock, { format: 'bedrock-converse', keepLast: 3 });
    expect(whole.ok && whole.value.removed).toEqual([]);
    const open = [
      ...bedrock.slice(0, 2),
      { role: 'user', content: [{ text: 'And' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'w', input: {} } }] },
    ];
    const refused = trimTranscriptJson(open, { format: 'bedrock-converse', keepLast: 1 });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.failures[0]?.reason).toBe('no_cut_point');
  });

  it('refuses input that is no transcript, and names a bad option', () => {
    const invalid = trimTranscriptJson('not a transcript', { format: 'gemini', keepLast: 1 });
    expect(invalid.ok || invalid.failures[0]?.reason).toBe('invalid');
    expect(() => trimTranscriptJson(bedrock, { format: 'bedrock-converse', keepLast: -1 })).toThrow(
      /options\.keepLast/,
    );
    expect(() => trimTranscriptJson(bedrock, { format: 'bedrock-converse', keepLast: 1.5 })).toThrow(
      /options\.keepLast/,
    );
    expect(() =>
      trimTranscriptJson(bedrock, { format: 'bedrock-converse', keepLast: 1, summary: JSON.parse('3') }),
    ).toThrow(/options\.summary/);
  });
});

describe.each(TRANSCRIPT_FORMATS)('cut points of %s tool loops', (format) => {
  it("are exactly the user turns: each user step's first message, none inside a loop; none while a call is open", () => {
    fc.assert(
      fc.property(loopArbitrary(), fc.boolean(), (steps, open) => {
        const list = open
          ? render(format, [
              ...steps.slice(0, -1),
              { kind: 'assistant', text: undefined, calls: [{ id: 'call99999', name: 'get_weather' }] },
            ])
          : render(format, steps);
        // Where each user step starts in the rendered history (rendering is prefix-stable).
        const expected = open
          ? []
          : steps.flatMap((step, j) => (step.kind === 'user' ? [render(format, steps.slice(0, j)).length] : []));
        expect(cutPoints(JSON.parse(JSON.stringify(list)), { format })).toEqual(expected);
      }),
      { numRuns: 40, seed: 36 },
    );
  });

  it('trimmed to any length with a summary: accepted, the summary first, the removed calls all answered', () => {
    fc.assert(
      fc.property(loopArbitrary(), fc.nat(40), (steps, keepLast) => {
        const list = JSON.parse(JSON.stringify(render(format, steps)));
        const trimmed = trimTranscriptJson(list, { format, keepLast, summary: 'Earlier: the orders were listed.' });
        if (!trimmed.ok) {
          expect(trimmed.failures[0]?.reason).toBe('no_cut_point');
          return;
        }
        const { value } = trimmed;
        expect(checkTranscriptJson(value.messages, { format }).result).toBe('accepted');
        expect(value.summary?.index).toBe(value.removed.length > 0 ? 0 : undefined);
        expect(value.removedToolCalls.every((call) => call.answered)).toBe(true);
        expect(value.messages.length).toBeGreaterThanOrEqual(Math.min(keepLast, list.length - value.kept));
      }),
      { numRuns: 40, seed: 37 },
    );
  });
});
