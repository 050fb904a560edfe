/**
 * Gemini pairing of a large parallel batch: the indexed lookup (a content with many calls) pairs
 * exactly as the scan does, on generated batches with and without ids, repeated names, responses
 * missing, repeated, split off and out of order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairGemini } from './pairing.ts';
import { readGemini } from './read.ts';

const NAMES = ['get_weather', 'read_file', 'search_docs'] as const;

/** A model content of `calls`, then one or two user contents of responses. */
const batch = fc
  .record({
    calls: fc.array(fc.record({ name: fc.constantFrom(...NAMES), withId: fc.boolean() }), {
      minLength: 1,
      maxLength: 60,
    }),
    picks: fc.array(fc.record({ call: fc.nat(), byId: fc.boolean(), later: fc.boolean() }), { maxLength: 80 }),
  })
  .map(({ calls, picks }) => {
    const parts = calls.map((call, k) => ({
      functionCall: { ...(call.withId ? { id: `c${k}` } : {}), name: call.name, args: {} },
    }));
    const first: unknown[] = [];
    const later: unknown[] = [];
    for (const pick of picks) {
      const k = pick.call % calls.length;
      const call = calls[k] as { name: string; withId: boolean };
      const response = {
        functionResponse: {
          ...(call.withId && pick.byId ? { id: `c${k}` } : {}),
          name: call.name,
          response: { output: k },
        },
      };
      (pick.later && first.length > 0 ? later : first).push(response);
    }
    const contents: unknown[] = [
      { role: 'user', parts: [{ text: 'Go.' }] },
      { role: 'model', parts },
    ];
    if (first.length > 0) contents.push({ role: 'user', parts: first });
    if (later.length > 0) contents.push({ role: 'user', parts: later });
    return contents;
  });

describe('Gemini pairing', () => {
  it('pairs a content through its index exactly as by scanning it', () => {
    fc.assert(
      fc.property(batch, (contents) => {
        const read = readGemini(contents);
        const indexed = pairGemini(read, 0);
        const scanned = pairGemini(read, Number.POSITIVE_INFINITY);
        expect([...indexed.answer]).toEqual([...scanned.answer]);
        expect([...indexed.verdict]).toEqual([...scanned.verdict]);
        expect([...indexed.call]).toEqual([...scanned.call]);
      }),
      { numRuns: 400 },
    );
  });

  it('answers every call of a batch of 20,000 id-less calls answered in reverse order', () => {
    const n = 20_000;
    const parts = Array.from({ length: n }, (_, k) => ({
      functionCall: { name: NAMES[k % 3] as string, args: { k } },
    }));
    const responses = Array.from({ length: n }, (_, k) => ({
      functionResponse: { name: NAMES[(n - 1 - k) % 3] as string, response: { output: n - 1 - k } },
    }));
    const read = readGemini([
      { role: 'user', parts: [{ text: 'Go.' }] },
      { role: 'model', parts },
      { role: 'user', parts: responses },
    ]);
    const pairing = pairGemini(read);
    expect(pairing.answer.every((response) => response >= 0)).toBe(true);
    expect(new Set(pairing.answer).size).toBe(n);
  });
});
