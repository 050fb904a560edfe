import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/stop-reasons.ts';
import {
  expectedFailures,
  loopArbitrary,
  mutate,
  mutationsOf,
  render,
  type ExpectedFailure,
} from '../../test/transcript-loops.ts';
import {
  checkTranscriptJson,
  isSynthesizedResultText,
  repairTranscriptJson,
  SYNTHESIZED_RESULT_MARK,
} from './index.ts';

const RUNS = { numRuns: 150, seed: 7 } as const;

function failuresOf(format: TranscriptFormat, messages: unknown[]): ExpectedFailure[] {
  const report = checkTranscriptJson(messages, { format });
  expect(report.result).not.toBe('invalid');
  return report.failures.map((f) => ({ rule: f.rule, ids: f.ids }));
}

const sortFailures = (list: readonly ExpectedFailure[]) =>
  [...list].map((f) => `${f.rule} ${[...f.ids].sort().join(',')}`).sort();

describe.each(TRANSCRIPT_FORMATS)('%s loops', (format) => {
  it('accepts every generated valid loop (sendable), and its open last turn as received', () => {
    fc.assert(
      fc.property(loopArbitrary(), fc.boolean(), (steps, ids) => {
        expect(failuresOf(format, render(format, steps, { ids }))).toEqual([]);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(loopArbitrary({ open: true }), (steps) => {
        const messages = render(format, steps);
        const received = checkTranscriptJson(messages, { format, expect: 'received' });
        expect(received.result).toBe('accepted');
        const last = steps[steps.length - 1];
        const open = last?.kind === 'assistant' ? last.calls.map((c) => c.id) : [];
        expect(received.openToolCalls.map((c) => c.id).sort()).toEqual([...open].sort());
        // The same transcript about to be sent is rejected: its last calls are unanswered.
        expect(checkTranscriptJson(messages, { format }).result).toBe('rejected');
      }),
      RUNS,
    );
  });

  it('rejects each single mutation of a valid loop with exactly the rule that breaks', () => {
    const cases = loopArbitrary().chain((steps) =>
      fc.constantFrom(...mutationsOf(steps)).map((mutation) => ({ steps, mutation })),
    );
    fc.assert(
      fc.property(cases, ({ steps, mutation }) => {
        const messages = render(format, mutate(steps, mutation));
        expect(sortFailures(failuresOf(format, messages))).toEqual(
          sortFailures(expectedFailures(format, steps, mutation)),
        );
      }),
      RUNS,
    );
  });

  it('repairs every mutation: accepted after, idempotent, every change recorded, synthesized results marked', () => {
    const cases = loopArbitrary().chain((steps) =>
      fc
        .subarray(mutationsOf(steps), { minLength: 1, maxLength: 3 })
        .map((mutations) => mutations.reduce((acc, m) => mutate(acc, m), steps)),
    );
    fc.assert(
      fc.property(cases, (steps) => {
        const messages = render(format, steps);
        const repaired = repairTranscriptJson(messages, { format });
        if (!repaired.ok) throw repaired.failures[0];
        expect(checkTranscriptJson([...repaired.value.messages], { format }).failures).toEqual([]);
        expect(repaired.value.remaining).toEqual([]);
        const again = repairTranscriptJson(repaired.value.messages, { format });
        expect(again.ok && !again.value.changed && again.value.messages === repaired.value.messages).toBe(true);
        const before = checkTranscriptJson(messages, { format });
        expect(repaired.value.changed).toBe(before.result === 'rejected');
        for (const record of repaired.value.repairs) expect(record.rule.startsWith(`${format}.`)).toBe(true);
        const synthesized = repaired.value.repairs.filter((r) => r.action === 'synthesized_result').length;
        const text = JSON.stringify(JSON.parse(JSON.stringify(repaired.value.messages)));
        expect(text.split(`${SYNTHESIZED_RESULT_MARK} No result was recorded`).length - 1).toBe(synthesized);
      }),
      RUNS,
    );
  });

  it('returns an accepted transcript unchanged, as the same array', () => {
    fc.assert(
      fc.property(loopArbitrary(), (steps) => {
        const messages = render(format, steps);
        const repaired = repairTranscriptJson(messages, { format });
        expect(
          repaired.ok &&
            !repaired.value.changed &&
            repaired.value.messages === messages &&
            repaired.value.repairs.length === 0,
        ).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('synthesized results', () => {
  it('are recognizable by their text', () => {
    const repaired = repairTranscriptJson(
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ],
      { format: 'openai-chat' },
    );
    expect(repaired.ok && isSynthesizedResultText((repaired.value.messages[1] as { content: string }).content)).toBe(
      true,
    );
    expect(isSynthesizedResultText('result of call_1')).toBe(false);
    expect(isSynthesizedResultText(42)).toBe(false);
  });

  it('say the outcome is unknown (never failed), and for a read-only tool that the call can be retried', () => {
    const unknown = `${SYNTHESIZED_RESULT_MARK} No result was recorded for this call; its outcome is unknown: check before retrying.`;
    const readOnly = `${SYNTHESIZED_RESULT_MARK} No result was recorded for this call; get_weather is read-only, so treat the call as not run: it can be retried.`;
    for (const format of TRANSCRIPT_FORMATS) {
      const steps = [
        { kind: 'user' as const, text: 'Email Ana the forecast.' },
        {
          kind: 'assistant' as const,
          text: undefined,
          calls: [
            { id: 'call_1', name: 'get_weather' },
            { id: 'call_2', name: 'send_email' },
          ],
        },
      ];
      const messages = render(format, steps);
      const texts = (options: { readonly readOnlyTools?: readonly string[] }) => {
        const repaired = repairTranscriptJson(messages, { format, ...options });
        if (!repaired.ok) throw repaired.failures[0];
        const text = JSON.stringify(repaired.value.messages);
        return [unknown, readOnly].map((t) => text.split(JSON.stringify(t).slice(1, -1)).length - 1);
      };
      expect(texts({})).toEqual([2, 0]);
      expect(texts({ readOnlyTools: ['get_weather'] })).toEqual([1, 1]);
    }
    // biome-ignore lint/plugin: an option outside its type, as a JavaScript caller could pass, to check the refusal
    expect(() => repairTranscriptJson([], { format: 'chat', readOnlyTools: 'get_weather' as never })).toThrow(
      /readOnlyTools must be an array of tool names/,
    );
  });
});
