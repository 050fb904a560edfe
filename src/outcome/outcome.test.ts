import { match } from 'ts-pattern';
import { describe, expect, it } from 'vitest';
import { isOutcome, Outcome } from './index.ts';

describe('Outcome.ok / Outcome.error', () => {
  it('builds a frozen ok arm and leaves the value as it is', () => {
    const value = { items: [1, 2] };
    const ok = Outcome.ok(value);
    expect(ok).toEqual({ status: 'ok', value });
    expect(ok.value).toBe(value);
    expect(Object.isFrozen(ok)).toBe(true);
    expect(Object.isFrozen(value)).toBe(false);
  });

  it('builds an error arm with details {} and retryable false by default', () => {
    expect(Outcome.error('not_found', 'no feed at that URL')).toEqual({
      status: 'error',
      errorType: 'not_found',
      message: 'no feed at that URL',
      details: {},
      retryable: false,
    });
    const failed = Outcome.error('upstream_unavailable', '503', { details: { httpStatus: 503 }, retryable: true });
    expect(failed.details).toEqual({ httpStatus: 503 });
    expect(failed.retryable).toBe(true);
    expect(Object.isFrozen(failed)).toBe(true);
  });

  it('refuses a blank error type, a message that is not a string, and a retryable that is not a boolean', () => {
    expect(() => Outcome.error('', 'm')).toThrow(/errorType must be a non-blank string, got ""/);
    expect(() => Outcome.error('\u3000', 'm')).toThrow(TypeError);
    // Untyped callers: Reflect.apply skips the compile-time check these calls would fail.
    expect(() => Reflect.apply(Outcome.error, undefined, ['x', 3])).toThrow(/message must be a string, got number/);
    expect(() => Reflect.apply(Outcome.error, undefined, ['x', 'm', { retryable: 'yes' }])).toThrow(
      /retryable must be a boolean, got string/,
    );
  });

  it('matches exhaustively on status', () => {
    const describe = (outcome: Outcome<number>) =>
      match(outcome)
        .with({ status: 'ok' }, ({ value }) => `ok ${value}`)
        .with({ status: 'error' }, ({ errorType }) => `error ${errorType}`)
        .exhaustive();
    expect(describe(Outcome.ok(2))).toBe('ok 2');
    expect(describe(Outcome.error('timeout', 'slow'))).toBe('error timeout');
  });
});

describe('isOutcome', () => {
  it.each([
    [Outcome.ok(undefined), true],
    [Outcome.error('x', ''), true],
    [{ status: 'ok', value: null }, true],
    [{ status: 'ok' }, false],
    [{ status: 'error', errorType: 'x', message: 'm', details: undefined, retryable: false }, true],
    [{ status: 'error', errorType: 'x', message: 'm', retryable: false }, false],
    [{ status: 'error', errorType: ' ', message: 'm', details: {}, retryable: false }, false],
    [{ status: 'error', errorType: 'x', message: 'm', details: {}, retryable: 'no' }, false],
    [{ status: 'error', errorType: 'x', message: 1, details: {}, retryable: false }, false],
    [{ status: 'OK', value: 1 }, false],
    [null, false],
    [[], false],
    ['ok', false],
  ])('%j -> %s', (value, expected) => {
    expect(isOutcome(value)).toBe(expected);
  });
});
