import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CallSite, CallTable } from './calls.ts';

const site = (key: string, seq: number): CallSite => ({
  key,
  name: 'f',
  message: seq,
  slot: 0,
  seq,
  server: false,
  answered: false,
  claimed: false,
});

describe('CallTable.of', () => {
  it('builds the table add builds call by call: the first call of each key, the repeats in input order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 12 }), (keys) => {
        const byAdd = keys.map(site);
        const added = new CallTable();
        const addRepeats = byAdd.filter((call) => !added.add(call));
        const byOf = keys.map(site);
        const ofRepeats: CallSite[] = [];
        const built = CallTable.of(byOf, (call) => ofRepeats.push(call));
        expect(ofRepeats.map((call) => call.seq)).toEqual(addRepeats.map((call) => call.seq));
        expect(byOf.map((call) => call.answered)).toEqual(byAdd.map((call) => call.answered));
        expect(built.hasRepeats).toBe(addRepeats.length > 0);
        for (const key of new Set(keys)) expect(built.get(key)?.seq).toBe(added.get(key)?.seq);
        for (const call of byOf) expect(built.inMessage(call.key, call.message)?.seq).toBe(call.seq);
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});
