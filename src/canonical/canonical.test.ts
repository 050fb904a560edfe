import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import {
  JsonInputError,
  JsonNumber,
  type JsonValue,
  asciiLowercase,
  canonicalJson,
  compareUtf8,
  digest,
  digestText,
  duplicateKeysOf,
  formatF64,
  formatNumberLiteral,
  parseJson,
  prettyJson,
  sortUtf8,
  trimWhiteSpace,
} from './index.ts';

const refused = (text: string | Uint8Array) => () => parseJson(text);

describe('parseJson', () => {
  it('keeps number literals, so integers beyond 2^53 survive', () => {
    const value = parseJson('{"a": 9007199254740993, "b": 1.0, "c": -0}') as Record<string, JsonNumber>;
    expect(value['a']?.raw).toBe('9007199254740993');
    expect(value['b']?.raw).toBe('1.0');
    expect(canonicalJson(value)).toBe('{"a":9007199254740993,"b":1.0,"c":-0.0}');
  });

  it('keeps the last value of a repeated key and reports the key', () => {
    const value = parseJson('{"k": 1, "k": 2, "j": 0}') as Record<string, JsonNumber>;
    expect(value['k']?.raw).toBe('2');
    expect([...(duplicateKeysOf(value) ?? [])]).toEqual(['k']);
    expect(duplicateKeysOf(parseJson('{"k": 1}') as object)).toBeUndefined();
  });

  it('treats __proto__ and constructor as ordinary own keys', () => {
    const value = parseJson('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('decodes escapes and surrogate pairs', () => {
    expect(parseJson('"a\\u00e9\\ud83d\\ude00\\n\\/"')).toBe('aé😀\n/');
  });

  it.each([
    ['a leading byte-order mark', '\ufeff{}', 'json_syntax'],
    ['a lone leading surrogate escape', '"\\ud800"', 'json_syntax'],
    ['a lone trailing surrogate escape', '"\\udc00x"', 'json_syntax'],
    ['a leading surrogate before a non-surrogate escape', '"\\ud800\\u0041"', 'json_syntax'],
    ['trailing characters', '{} x', 'json_syntax'],
    ['a raw control character in a string', '"a\tb"', 'json_syntax'],
    ['a leading zero', '01', 'json_syntax'],
    ['a bare decimal point', '1.', 'json_syntax'],
    ['a trailing comma', '[1,]', 'json_syntax'],
    ['empty input', '', 'json_syntax'],
    ['non-JSON white space', '\u00a0{}', 'json_syntax'],
    ['a number too large for an f64', '1e400', 'number_out_of_range'],
    ['an invalid escape', '"\\x"', 'json_syntax'],
  ])('refuses %s', (_what, text, code) => {
    expect(refused(text)).toThrow(JsonInputError);
    try {
      parseJson(text);
    } catch (error) {
      expect((error as JsonInputError).code).toBe(code);
    }
  });

  it('refuses invalid UTF-8 bytes and lone surrogates in string input', () => {
    expect(refused(new Uint8Array([0x22, 0xff, 0x22]))).toThrow(/not valid UTF-8/);
    expect(refused('"\ud800"')).toThrow(/lone UTF-16 surrogate/);
  });

  it('accepts 127 nested levels and refuses the 128th, as serde_json', () => {
    expect(() => parseJson('['.repeat(127) + ']'.repeat(127))).not.toThrow();
    expect(refused('['.repeat(128) + ']'.repeat(128))).toThrow(/nesting deeper than 127/);
  });

  it('names the line and column of a fault', () => {
    expect(refused('{\n  "a": tru\n}')).toThrow(/line 2 column 8/);
  });

  it('reads what JSON.parse reads, apart from number fidelity', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(
          JSON.parse(JSON.stringify(parseJson(text), (_k, v) => (v instanceof JsonNumber ? v.toNumber() : v))),
        ).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('numbers as serde_json writes them', () => {
  it.each([
    ['0', '0'],
    ['-12', '-12'],
    ['18446744073709551615', '18446744073709551615'],
    ['18446744073709551616', '1.8446744073709552e+19'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['-9223372036854775809', '-9.223372036854776e+18'],
    ['-0', '-0.0'],
    ['-0.0', '-0.0'],
    ['1.0', '1.0'],
    ['1e0', '1.0'],
    ['1E2', '100.0'],
    ['0.1', '0.1'],
    ['0.00001', '0.00001'],
    ['0.000001', '1e-6'],
    ['1.5e-7', '1.5e-7'],
    ['1e15', '1000000000000000.0'],
    ['1e16', '1e+16'],
    ['1e21', '1e+21'],
    ['123456.789e3', '123456789.0'],
    ['-12345678901234567890.5', '-1.2345678901234567e+19'],
    ['1e-400', '0.0'],
  ])('%s -> %s', (raw, text) => {
    expect(formatNumberLiteral(raw)).toBe(text);
  });

  it('writes shortest round-trip digits for any finite double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = formatF64(x);
        expect(Number(text)).toBe(x);
        expect(text).toMatch(/^-?(\d+\.\d+|\d(\.\d+)?e[+-]\d+)$/);
      }),
    );
  });

  it('reads code-built numbers as the literal JSON.stringify writes', () => {
    expect(canonicalJson([1, 1.5, -0, 2 ** 60, 1e21, 10n ** 20n])).toBe('[1,1.5,0,1152921504606847000,1e+21,1e+20]');
    expect(() => canonicalJson([Number.NaN])).toThrow(JsonInputError);
  });
});

describe('canonical bytes and digests', () => {
  it('sorts keys by UTF-8 bytes, not UTF-16 code units', () => {
    expect(canonicalJson({ '\u{1F600}': 1, '\uFF21': 2, a: 3 })).toBe('{"a":3,"\uFF21":2,"\u{1F600}":1}');
  });

  it('orders strings exactly as their UTF-8 encodings compare', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
    );
  });

  it('escapes only quote, backslash and control characters', () => {
    expect(canonicalJson('"\\\b\f\n\r\t\u0000\u001f\u007f\u2028é')).toBe(
      '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028é"',
    );
  });

  it('refuses a lone surrogate from code', () => {
    expect(() => canonicalJson({ a: '\ud800' })).toThrow(/lone UTF-16 surrogate/);
  });

  it('hashes the canonical text with SHA-256', () => {
    const value = { b: [true, null], a: 'x' };
    const expected = createHash('sha256').update('{"a":"x","b":[true,null]}').digest('hex');
    expect(digest(value)).toBe(`sha256:${expected}`);
    expect(digestText('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('pretty-prints as serde_json: sorted keys, two spaces, empty containers inline', () => {
    expect(prettyJson({ b: [], a: { d: {}, c: [1, 'x'] } })).toBe(
      '{\n  "a": {\n    "c": [\n      1,\n      "x"\n    ],\n    "d": {}\n  },\n  "b": []\n}',
    );
  });

  it('prints what it digests: pretty and canonical text parse to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(prettyJson(value as object))).toEqual(JSON.parse(canonicalJson(value as object)));
      }),
    );
  });
});

describe('text with Rust semantics', () => {
  it('trims Unicode White_Space: U+0085 and U+3000 yes, U+FEFF no', () => {
    expect(trimWhiteSpace('\u0085\u3000 a b\t\n\u2029')).toBe('a b');
    expect(trimWhiteSpace('\ufeffa\ufeff')).toBe('\ufeffa\ufeff');
    expect(trimWhiteSpace(' \u00a0 ')).toBe('');
  });

  it('lowercases ASCII letters only', () => {
    expect(asciiLowercase('Tool_USE')).toBe('tool_use');
    expect(asciiLowercase('\u212A\u00C9')).toBe('\u212A\u00C9');
  });
});

describe('what the canonical functions throw', () => {
  const thrown = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (error) {
      return error;
    }
    return undefined;
  };
  const codeOf = (fn: () => unknown) => {
    const error = thrown(fn);
    expect(error).toBeInstanceOf(JsonInputError);
    return (error as JsonInputError).code;
  };
  const writers = { canonicalJson, digest, prettyJson } as const;

  it.each(Object.entries(writers))(
    '%s refuses a cycle and nesting past 127 levels with depth_exceeded',
    (_name, write) => {
      const cyclic: Record<string, unknown> = { a: [1] };
      (cyclic['a'] as unknown[]).push(cyclic);
      expect(codeOf(() => write(cyclic))).toBe('depth_exceeded');
      expect(() => write(cyclic)).toThrow(/contains itself \(a cycle\)/);
      let deep: unknown = 'leaf';
      for (let i = 0; i < 127; i++) deep = [deep];
      expect(() => write(deep as object)).not.toThrow();
      expect(codeOf(() => write([deep] as object))).toBe('depth_exceeded');
      let veryDeep: unknown = null;
      for (let i = 0; i < 100_000; i++) veryDeep = { a: veryDeep };
      expect(codeOf(() => write(veryDeep as object))).toBe('depth_exceeded');
    },
  );

  it.each(Object.entries(writers))('%s refuses non-JSON values with the documented codes', (_name, write) => {
    expect(codeOf(() => write({ n: Number.NaN }))).toBe('number_out_of_range');
    expect(codeOf(() => write([Number.POSITIVE_INFINITY]))).toBe('number_out_of_range');
    expect(codeOf(() => write({ '\ud800': 1 }))).toBe('utf8_invalid');
    expect(codeOf(() => write(['\udc00']))).toBe('utf8_invalid');
    expect(codeOf(() => write({ f: () => 1 }))).toBe('json_syntax');
    expect(codeOf(() => write([Symbol('s')]))).toBe('json_syntax');
    expect(codeOf(() => (write as (value: unknown) => string)(undefined))).toBe('json_syntax');
    expect(codeOf(() => write({ d: new Date(0) }))).toBe('json_syntax');
    expect(codeOf(() => write(new Map()))).toBe('json_syntax');
  });

  it.each(Object.entries(writers))('%s lets a throwing getter’s own error through', (_name, write) => {
    const boom = new TypeError('getter says no');
    const value = {
      get a(): number {
        throw boom;
      },
    };
    expect(thrown(() => write(value))).toBe(boom);
  });

  it('digestText refuses a lone surrogate instead of hashing U+FFFD', () => {
    expect(codeOf(() => digestText('a\ud800'))).toBe('utf8_invalid');
    expect(digestText('\u{1F600}')).toBe(`sha256:${createHash('sha256').update('\u{1F600}').digest('hex')}`);
  });

  it('parseJson throws only JsonInputError, whatever the text or bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.uint8Array(),
          fc.json().map((j) => j.slice(0, -1)),
        ),
        (input) => {
          const error = thrown(() => parseJson(input));
          if (error !== undefined) expect(error).toBeInstanceOf(JsonInputError);
        },
      ),
      { seed: 15, numRuns: 500 },
    );
  });

  it('the text helpers never throw on any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (values) => {
        for (const value of values) {
          trimWhiteSpace(value);
          asciiLowercase(value);
          compareUtf8(value, values[0] ?? '');
        }
        expect(sortUtf8([...values])).toHaveLength(values.length);
      }),
      { seed: 15, numRuns: 300 },
    );
  });

  it('the number formatters throw only number_out_of_range, for non-finite values', () => {
    expect(codeOf(() => formatF64(Number.NaN))).toBe('number_out_of_range');
    expect(codeOf(() => formatNumberLiteral('1e400'))).toBe('number_out_of_range');
    expect(() => new JsonNumber('01')).toThrow(JsonInputError);
  });
});

describe('large values cost their own size', () => {
  it('digest hashes as it writes: a value larger than the flush size digests as its text does', () => {
    const value = { rows: Array.from({ length: 20_000 }, (_, i) => ({ id: `row-${i}`, n: i, ok: i % 2 === 0 })) };
    const text = canonicalJson(value);
    expect(text.length).toBeGreaterThan(1 << 17);
    expect(digest(value)).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    expect(JSON.parse(prettyJson(value))).toEqual(JSON.parse(text));
  });

  it('a string of escapes parses to the same value as JSON.parse reads', () => {
    const text = JSON.stringify('\n"\\\u0001é\u{1F600}'.repeat(20_000));
    expect(parseJson(text)).toBe(JSON.parse(text));
  });

  it('short number literals are shared frozen instances; long ones are not shared', () => {
    const [a, b, c, d] = parseJson('[12, 12, 123456, 123456]') as JsonNumber[];
    expect(a).toBe(b);
    expect(c).not.toBe(d);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
    expect(() => {
      (a as { raw: string }).raw = '13';
    }).toThrow(TypeError);
  });
});

describe('long arrays', () => {
  /** Arrays of these lengths (around the length from which the parser hands its element list over), nested. */
  interface Part {
    readonly length: number;
    readonly nesting: number;
    readonly leaf: JsonValue;
    readonly inObject: boolean;
  }
  const shapes: fc.Arbitrary<Part[]> = fc.array(
    fc.record({
      length: fc.constantFrom(0, 1, 7, 1023, 1024, 1025, 2500),
      nesting: fc.nat(2),
      leaf: fc.constantFrom<JsonValue>(0, 12, 'ab', {}, [], { b: 1, a: [2] }, [3, { z: {} }]),
      inObject: fc.boolean(),
    }),
    { maxLength: 4 },
  );
  const build = (parts: readonly Part[]): JsonValue =>
    parts.map(({ length, nesting, leaf, inObject }) => {
      let value: JsonValue = Array.from({ length }, () => leaf);
      for (let i = 0; i < nesting; i++) value = [value, length];
      return inObject ? { list: value, n: length } : value;
    });
  const numbers = (value: unknown) =>
    JSON.parse(JSON.stringify(value, (_k, v) => (v instanceof JsonNumber ? v.toNumber() : v)));

  it('parse as JSON.parse reads them, however they nest', () => {
    fc.assert(
      fc.property(shapes, (parts) => {
        const text = JSON.stringify(build(parts));
        expect(numbers(parseJson(text))).toEqual(JSON.parse(text));
        expect(numbers(parseJson(new TextEncoder().encode(text)))).toEqual(JSON.parse(text));
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('empty objects parse to distinct plain objects that take properties', () => {
    const [a, b] = parseJson('[{}, {}]') as Record<string, unknown>[];
    expect(a).not.toBe(b);
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(a?.constructor).toBe(Object);
    (a as Record<string, unknown>)['x'] = 1;
    expect(JSON.stringify([a, b])).toBe('[{"x":1},{}]');
  });

  it('write the canonical text of their elements, through the engine or not, and digest it', () => {
    fc.assert(
      fc.property(shapes, fc.boolean(), (parts, parsed) => {
        const built = build(parts);
        const value = (parsed ? parseJson(JSON.stringify(built)) : built) as JsonValue[];
        const text = canonicalJson(value);
        expect(text).toBe(`[${value.map((item) => canonicalJson(item)).join(',')}]`);
        expect(canonicalJson({ b: value, a: 1 })).toBe(`{"a":1,"b":${text}}`);
        expect(digest(value)).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
      }),
      { numRuns: 60, seed: 24 },
    );
  });

  it('take our writer where the engine writes an element otherwise, batch by batch', () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      i % 1500 === 7 ? { b: new JsonNumber('1.0'), a: i } : { a: new JsonNumber(String(i)), b: [i] },
    );
    const expected = Array.from(rows, (_, i) => (i % 1500 === 7 ? `{"a":${i},"b":1.0}` : `{"a":${i},"b":[${i}]}`));
    expect(canonicalJson(rows)).toBe(`[${expected.join(',')}]`);
  });
});

describe('UTF-8 bytes are parsed as they are, not decoded to UTF-16 first', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const withNumbers = (value: unknown) => JSON.stringify(value, (_k, v) => (v instanceof JsonNumber ? `#${v.raw}` : v));

  it('gives the value the text gives, for any JSON with any Unicode text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(withNumbers(parseJson(encode(text)))).toBe(withNumbers(parseJson(text)));
      }),
    );
  });

  it('decodes non-ASCII text next to escapes, in keys and in values', () => {
    const text = '{"clé\\n€": "a\\u00e9b—c\\"ü", "日本": ["\\ud83d\\ude00😀"]}';
    expect(parseJson(encode(text))).toEqual({ 'clé\n€': 'a\u00e9b—c"ü', 日本: ['\u{1F600}\u{1F600}'] });
  });

  it('counts columns in UTF-16 code units of the decoded line, as for string input', () => {
    const text = '{\n  "é😀€": tru\n}';
    const fromBytes = refused(encode(text));
    expect(fromBytes).toThrow(/line 2 column 11/);
    expect(refused(text)).toThrow(/line 2 column 11/);
  });

  it('refuses invalid UTF-8 and a byte-order mark as before', () => {
    expect(refused(Uint8Array.of(0x22, 0xc3, 0x28, 0x22))).toThrow(/not valid UTF-8/);
    expect(refused(Uint8Array.of(0xef, 0xbb, 0xbf, 0x31))).toThrow(/line 1 column 1/);
  });
});

describe('the engine writer and the writer of our own agree', () => {
  // A JsonNumber the engine would write differently (`1.0`) sends the whole value to our own
  // writer; the same value alone takes the engine's. Both must print the same text.
  const slow = new JsonNumber('1.0');

  it('prints canonical and pretty text alike, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        expect(canonicalJson([value as JsonValue, slow])).toBe(`[${canonicalJson(value as JsonValue)},1.0]`);
        const pretty = prettyJson({ a: value as JsonValue, b: slow });
        expect(pretty).toBe(prettyJson({ a: value as JsonValue, b: 1 }).replace(/"b": 1\n}$/, '"b": 1.0\n}'));
      }),
    );
  });

  it('sorts keys by UTF-8 bytes and shares nothing that it reorders', () => {
    const value = { b: 1, '\u{1F600}': 2, '\uFF21': 3, a: { d: 4, c: [5, { f: 6, e: 7 }] } };
    expect(canonicalJson(value)).toBe('{"a":{"c":[5,{"e":7,"f":6}],"d":4},"b":1,"\uFF21":3,"\u{1F600}":2}');
    expect(Object.keys(value)).toEqual(['b', '\u{1F600}', '\uFF21', 'a']);
  });

  it('keeps an own __proto__ key and objects without a prototype', () => {
    const parsed = parseJson('{"z": 1, "__proto__": {"x": 2}}') as JsonValue;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":2},"z":1}');
    const bare = Object.assign(Object.create(null), { b: 1, a: 2 });
    expect(canonicalJson(bare)).toBe('{"a":2,"b":1}');
  });

  it('writes numbers as serde_json does on either path', () => {
    expect(canonicalJson([1, -0, 9007199254740991, new JsonNumber('12'), new JsonNumber('0.5')])).toBe(
      '[1,0,9007199254740991,12,0.5]',
    );
    expect(canonicalJson([0.5, 1e21, new JsonNumber('1E2'), 2 ** 60])).toBe('[0.5,1e+21,100.0,1152921504606847000]');
  });

  it('refuses a lone surrogate, but writes text that merely looks like an escaped one', () => {
    expect(() => canonicalJson({ a: '\ud800' })).toThrow(JsonInputError);
    expect(() => prettyJson({ '\udc00': 1 })).toThrow(JsonInputError);
    expect(canonicalJson({ a: '\\ud800' })).toBe('{"a":"\\\\ud800"}');
  });

  it('never calls a toJSON the value or a polluted prototype offers', () => {
    const withOwn = { a: 1, toJSON: () => 'replaced' };
    expect(() => canonicalJson(withOwn)).toThrow(JsonInputError);
    const proto = Object.prototype as { toJSON?: unknown };
    proto.toJSON = () => 'polluted';
    try {
      expect(canonicalJson({ b: [1], a: 'x' })).toBe('{"a":"x","b":[1]}');
      expect(prettyJson({ a: [] })).toBe('{\n  "a": []\n}');
    } finally {
      delete proto.toJSON;
    }
  });

  it('writes only own keys while Object.prototype holds an enumerable property', () => {
    const value = { a: 'x', b: [{ c: 1 }] };
    const before = { canonical: canonicalJson(value), pretty: prettyJson(value), digest: digest(value) };
    const proto = Object.prototype as { planted?: unknown };
    // A parsed number is what the engine's path copies a container for: an inherited one must not be copied in.
    proto.planted = new JsonNumber('1');
    try {
      expect(canonicalJson(value)).toBe('{"a":"x","b":[{"c":1}]}');
      expect({ canonical: canonicalJson(value), pretty: prettyJson(value), digest: digest(value) }).toEqual(before);
    } finally {
      delete proto.planted;
    }
  });

  it('refuses class instances, cycles and nesting past the limit on either path', () => {
    expect(() => canonicalJson({ when: new Date(0) })).toThrow(/Date is not a JSON value/);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/cycle/);
    let deep: object = [1];
    for (let i = 0; i < 127; i++) deep = [deep];
    expect(() => digest(deep)).toThrow(/nesting deeper than 127/);
  });
});
