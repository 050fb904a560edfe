import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { excerpt, groupDigits } from './display.ts';

describe('groupDigits', () => {
  it('groups digits as en-US toLocaleString does, for any whole number', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (count) => {
        expect(groupDigits(count)).toBe(count.toLocaleString('en-US'));
      }),
    );
    expect(groupDigits(67108864)).toBe('67,108,864');
    expect(groupDigits(999)).toBe('999');
  });

  it('counts what an excerpt leaves out with grouped digits', () => {
    expect(excerpt('x'.repeat(1_000 + 12_345), 1_000)).toMatch(/… \(12,345 more characters\)$/);
  });
});
