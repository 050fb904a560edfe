import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addHours, compareInstants, formatInstant, formatRfc3339, instantOf, isRfc3339, parseRfc3339 } from './time.ts';

describe('RFC 3339 timestamps (the Tusk harness contract §11, §12: malformed timestamps are rejected)', () => {
  it.each([
    '2026-02-22T01:00:00Z',
    '2026-02-22t01:00:00z',
    '2026-02-22 01:00:00Z',
    '2026-02-22T01:00:00.123456789Z',
    '2026-02-22T01:00:00.1234567891234Z',
    '2026-02-22T01:00:00+05:30',
    '2026-02-22T01:00:00-23:59',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2016-12-31T23:59:60Z',
    '0000-01-01T00:00:00Z',
  ])('accepts %s', (text) => {
    expect(isRfc3339(text)).toBe(true);
  });

  it.each([
    ['no offset', '2026-02-22T01:00:00'],
    ['a date only', '2026-02-22'],
    ['words', 'yesterday'],
    ['an empty string', ''],
    ['surrounding blanks', ' 2026-02-22T01:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['day 0', '2026-02-00T00:00:00Z'],
    ['February 29 in a common year', '2025-02-29T00:00:00Z'],
    ['February 29 in 1900', '1900-02-29T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['hour 24', '2026-02-22T24:00:00Z'],
    ['minute 60', '2026-02-22T01:60:00Z'],
    ['second 61', '2026-02-22T01:00:61Z'],
    ['an offset hour of 24', '2026-02-22T01:00:00+24:00'],
    ['an offset without a colon', '2026-02-22T01:00:00+0530'],
    ['an empty fraction', '2026-02-22T01:00:00.Z'],
    ['a two-digit year', '26-02-22T01:00:00Z'],
    ['a T without time', '2026-02-22TZ'],
  ])('rejects %s', (_name, text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });

  it('reads offsets as instants, so equal moments compare equal', () => {
    const utc = parseRfc3339('2026-02-22T01:00:00Z');
    const plus = parseRfc3339('2026-02-22T02:30:00+01:30');
    const minus = parseRfc3339('2026-02-21T20:00:00-05:00');
    expect(utc).toEqual(plus);
    expect(utc).toEqual(minus);
  });

  it('keeps nanoseconds and orders leap seconds after :59', () => {
    const a = parseRfc3339('2016-12-31T23:59:59.999999999Z');
    const leap = parseRfc3339('2016-12-31T23:59:60Z');
    const next = parseRfc3339('2017-01-01T00:00:00Z');
    if (a === undefined || leap === undefined || next === undefined) throw new Error('unparsed');
    expect(compareInstants(a, leap)).toBeLessThan(0);
    expect(compareInstants(leap, next)).toBeLessThan(0);
    expect(formatInstant(leap)).toBe('2016-12-31T23:59:60Z');
  });

  it('reads years below 100 as themselves', () => {
    expect(formatInstant(parseRfc3339('0004-02-29T00:00:00Z') ?? { seconds: 0, nanos: 0 })).toBe(
      '0004-02-29T00:00:00Z',
    );
  });

  it('agrees with Date on every millisecond instant (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0100-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString();
          expect(parseRfc3339(iso)).toEqual(instantOf(date));
        },
      ),
    );
  });

  it('orders instants as their dates order (property)', () => {
    const date = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(date, date, (a, b) => {
        const order = Math.sign(compareInstants(instantOf(a), instantOf(b)));
        expect(order).toBe(Math.sign(a.getTime() - b.getTime()));
      }),
    );
  });

  it('writes the harness format: UTC, whole seconds, Z', () => {
    expect(formatRfc3339(new Date('2026-02-22T01:02:03.999+02:00'))).toBe('2026-02-21T23:02:03Z');
    expect(() => formatRfc3339(new Date('nope'))).toThrow(RangeError);
  });

  it('moves instants by hours', () => {
    const start = parseRfc3339('2026-02-22T01:00:00.5Z') ?? { seconds: 0, nanos: 0 };
    expect(formatInstant(addHours(start, -24))).toBe('2026-02-21T01:00:00.500000Z');
  });
});
