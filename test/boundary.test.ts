/**
 * "Never throws" for values built in code: the join check turns every way a value can fail to
 * be JSON data (deep nesting, a cycle, a getter or Proxy trap that throws, a function, a hole)
 * into `{ ok: false, error }` naming the field, and never lets a RangeError or the getter's own
 * error escape.
 */
import { describe, expect, it } from 'vitest';
import { JsonNumber } from '../src/canonical/index.ts';
import { decodeJoinCheckInput, EvidenceInputError } from '../src/evidence/index.ts';
import { joinCheck, joinCheckText } from '../src/join-check.ts';
import { callSpec } from './arbitraries.ts';

function withPayload(payload: unknown): unknown {
  return {
    evidence: {
      callSpec,
      toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
      toolResults: [{ toolCallId: 'tc-1', status: 'ok', payload }],
      toolUse: [{ toolCallId: 'tc-1', disposition: 'observed' }],
      protocolState: { stopReason: 'end_turn' },
    },
  };
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const PAYLOAD = 'evidence.toolResults[0].payload';

describe('joinCheck on values built in code', () => {
  const cyclic: Record<string, unknown> = { list: [] };
  (cyclic['list'] as unknown[]).push(cyclic);
  const getter = {
    get secret(): string {
      throw new Error('getter says no');
    },
  };
  const trap = new Proxy({}, { ownKeys: () => [Symbol.iterator, 'x'], get: () => 1 });
  const throwingTrap = new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new RangeError('trap says no');
      },
    },
  );
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();

  it.each<[string, unknown, string, RegExp]>([
    // The input is the first level and the payload the fifth: the 128th is 123 keys below the payload.
    [
      'a payload nested 100,000 deep',
      withPayload(nested(100_000)),
      `${PAYLOAD}${'.a'.repeat(123)}`,
      /deeper than 127 levels/,
    ],
    ['one level too many', withPayload(nested(127)), `${PAYLOAD}${'.a'.repeat(123)}`, /deeper than 127/],
    ['a cyclic payload', withPayload(cyclic), `${PAYLOAD}.list[0]`, /contains itself \(a cycle\)/],
    [
      'a cyclic input',
      (() => {
        const input = withPayload(1) as { evidence: Record<string, unknown> };
        input.evidence['self'] = input;
        return input;
      })(),
      'evidence.self',
      /a cycle/,
    ],
    ['a throwing getter', withPayload(getter), `${PAYLOAD}.secret`, /reading it threw Error: getter says no/],
    [
      'a throwing getter on a row',
      { evidence: { ...(withPayload(1) as { evidence: object }).evidence, toolUse: [getter] } },
      'evidence.toolUse[0].secret',
      /getter says no/,
    ],
    ['a throwing Proxy trap', withPayload(throwingTrap), PAYLOAD, /RangeError: trap says no/],
    ['a revoked Proxy', withPayload({ p: revoked.proxy }), `${PAYLOAD}.p`, /reading it threw TypeError/],
    ['a function', withPayload({ f: () => 1 }), `${PAYLOAD}.f`, /a function is not JSON data/],
    ['NaN', withPayload([Number.NaN]), `${PAYLOAD}[0]`, /NaN is not a JSON number/],
    ['a Date', withPayload({ at: new Date(0) }), `${PAYLOAD}.at`, /a Date is not plain JSON data/],
    // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
    ['an array hole', withPayload([1, , 2]), `${PAYLOAD}[1]`, /hole/],
    ['a symbol', withPayload({ s: Symbol('s') }), `${PAYLOAD}.s`, /a symbol is not JSON data/],
    ['a lone surrogate in a payload', withPayload({ s: '\ud800' }), 'evidence', /lone UTF-16 surrogate/],
  ])('refuses %s as an EvidenceInputError naming the field', (_what, input, field, message) => {
    const outcome = joinCheck(input);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failures[0]).toBeInstanceOf(EvidenceInputError);
    expect(outcome.failures[0]?.field).toBe(field);
    expect(outcome.failures[0]?.message).toMatch(message);
    expect(outcome.failures[0]?.message.length).toBeLessThan(1200);
  });

  it('accepts the deepest payload the limit allows', () => {
    expect(joinCheck(withPayload(nested(123))).ok).toBe(true);
  });

  it('reads a Proxy only through its own-key traps, as data', () => {
    const outcome = joinCheck(withPayload(trap));
    expect(outcome.ok).toBe(true);
  });

  it('keeps what JSON values built in code may hold: bigint, JsonNumber, shared (not cyclic) objects', () => {
    const shared = { n: 1 };
    const outcome = joinCheck(
      withPayload({ big: 10n ** 30n, exact: new JsonNumber('1.0'), a: shared, b: [shared, shared] }),
    );
    expect(outcome.ok).toBe(true);
    const again = joinCheckText(
      JSON.stringify(withPayload({ big: 1, exact: 2, a: shared, b: [shared, shared] }))
        .replace('"big":1', `"big":${10n ** 30n}`)
        .replace('"exact":2', '"exact":1.0'),
    );
    expect(again.ok && outcome.ok && again.value.witness.digests.resultSetDigest).toBe(
      outcome.ok && outcome.value.witness.digests.resultSetDigest,
    );
  });

  it('reads each property once: a getter that changes its answer cannot pass one value and check another', () => {
    let reads = 0;
    const row = {
      toolCallId: 'tc-1',
      get disposition(): string {
        reads++;
        return reads === 1 ? 'observed' : 'not-a-disposition';
      },
    };
    const outcome = joinCheck({ evidence: { ...(withPayload(1) as { evidence: object }).evidence, toolUse: [row] } });
    expect(reads).toBe(1);
    expect(outcome.ok && outcome.value.result).toBe('accepted');
  });

  it('decodeJoinCheckInput refuses the same values without throwing', () => {
    expect(() => decodeJoinCheckInput(withPayload(nested(100_000)))).not.toThrow();
    expect(decodeJoinCheckInput(withPayload(cyclic)).ok).toBe(false);
  });

  it('turns JSON text past the nesting limit into an input error, not a RangeError', () => {
    const deep = `{"evidence":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const outcome = joinCheckText(deep);
    expect(outcome.ok ? '' : outcome.failures[0]?.message).toMatch(/nesting deeper than 127 levels/);
  });
});
