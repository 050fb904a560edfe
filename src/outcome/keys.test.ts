import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCaseTwin } from './index.ts';
import { keyEntries, lookupKey } from './keys.ts';

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const words = fc.array(word, { minLength: 1, maxLength: 4 });
const camel = (parts: string[]) =>
  parts.map((part, i) => (i === 0 ? part : `${part[0]?.toUpperCase()}${part.slice(1)}`)).join('');

describe('isCaseTwin', () => {
  it.each([
    ['resultDigest', 'result_digest', true],
    ['result_digest', 'resultDigest', true],
    ['fetchURL', 'fetch_url', true],
    ['fetchUrl', 'fetch_url', true],
    ['parseHTMLBody', 'parse_html_body', true],
    ['aBC', 'a_b_c', true],
    ['sha256Digest', 'sha256_digest', true],
    ['body', 'body', false],
    ['body', 'Body', false],
    ['resultDigest', 'ResultDigest', false],
    ['result_digest', 'result-digest', false],
    ['resultDigest', 'result_digests', false],
    ['fetchURL', 'fetchUrl', false],
    ['_id', 'id', false],
    ['a__b', 'aB', false],
    ['', '', false],
  ])('%s / %s -> %s', (a, b, expected) => {
    expect(isCaseTwin(a, b)).toBe(expected);
  });

  it('pairs snake_case words with their camelCase spelling, both ways', () => {
    fc.assert(
      fc.property(words, (parts) => {
        const snake = parts.join('_');
        const camelCase = camel(parts);
        expect(isCaseTwin(camelCase, snake)).toBe(snake !== camelCase);
        expect(isCaseTwin(snake, camelCase)).toBe(snake !== camelCase);
      }),
    );
  });

  it('pairs a camelCase name with an acronym to its snake_case words', () => {
    // The word after an acronym needs a second lowercase letter to be told apart from it (`aAAA`
    // is `a_aaa` as much as `a_aa_a`).
    fc.assert(
      fc.property(word, fc.stringMatching(/^[A-Z]{2,4}$/), fc.stringMatching(/^[a-z]{2,6}$/), (head, acronym, tail) => {
        const camelCase = `${head}${acronym}${tail[0]?.toUpperCase()}${tail.slice(1)}`;
        expect(isCaseTwin(camelCase, `${head}_${acronym.toLowerCase()}_${tail}`)).toBe(true);
      }),
    );
  });

  it('is symmetric, and no name is its own twin', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(isCaseTwin(a, b)).toBe(isCaseTwin(b, a));
        expect(isCaseTwin(a, a)).toBe(false);
      }),
    );
  });
});

describe('keyEntries', () => {
  it('reads own enumerable string keys, then own enumerable symbol keys', () => {
    const value: Record<PropertyKey, unknown> = { b: 1, [Symbol.for('body')]: 2, [Symbol('local')]: 3 };
    Object.defineProperty(value, 'hidden', { value: 4, enumerable: false });
    Object.defineProperty(value, Symbol.for('hiddenSymbol'), { value: 5, enumerable: false });
    const inherited = Object.create(value) as object;
    expect(keyEntries(value).map(({ name, source, value: v, display }) => [name, source, v, display])).toEqual([
      ['b', 'string_key', 1, 'b'],
      ['body', 'symbol_key', 2, 'Symbol.for("body")'],
      [undefined, 'symbol_key', 3, 'Symbol(local)'],
    ]);
    expect(keyEntries(inherited)).toEqual([]);
  });

  it('reads the entries of a Map; keys that are neither strings nor symbols can satisfy no contract key', () => {
    const entries = keyEntries(
      new Map<unknown, unknown>([
        ['body', 1],
        [Symbol.for('status'), 2],
        [7, 3],
        [{}, 4],
      ]),
    );
    expect(entries.map(({ name, display }) => [name, display])).toEqual([
      ['body', 'body'],
      ['status', 'Symbol.for("status")'],
      [undefined, '7'],
      [undefined, '[object]'],
    ]);
    expect(entries.every((entry) => entry.source === 'map_entry')).toBe(true);
  });
});

describe('lookupKey', () => {
  const entriesOf = (value: object) => keyEntries(value);

  it('prefers the same name over a twin, and a string key over a symbol key over a map entry, when values agree', () => {
    const shared = { same: true };
    const found = lookupKey(entriesOf({ result_digest: shared, resultDigest: shared }), 'resultDigest', true);
    expect(found).toMatchObject({ status: 'found', alias: false, entry: { name: 'resultDigest' } });
    const symbolFirst = lookupKey(entriesOf({ [Symbol.for('body')]: 1, body_: 2 }), 'body', true);
    expect(symbolFirst).toMatchObject({ status: 'found', alias: true, entry: { source: 'symbol_key' } });
  });

  it('reports a conflict when spellings disagree, never picking one', () => {
    const lookup = lookupKey(entriesOf({ body: 'a', [Symbol.for('body')]: 'b' }), 'body', true);
    expect(lookup.status).toBe('conflict');
    if (lookup.status === 'conflict')
      expect(lookup.entries.map((e) => e.display)).toEqual(['body', 'Symbol.for("body")']);
  });

  it('counts an undefined value as absent only when asked', () => {
    const absent = lookupKey(entriesOf({ body: undefined }), 'body', true);
    expect(absent.status).toBe('missing');
    // Still the key's spelling, so the walk does not carry it over as another key.
    expect(absent.candidates.map((entry) => entry.name)).toEqual(['body']);
    expect(lookupKey(entriesOf({ body: undefined }), 'body', false)).toMatchObject({ status: 'found' });
    expect(lookupKey(entriesOf({ body: undefined, [Symbol.for('body')]: 'x' }), 'body', true)).toMatchObject({
      status: 'found',
      entry: { value: 'x' },
    });
  });

  it('does not find a key under an unregistered symbol or another case', () => {
    expect(lookupKey(entriesOf({ [Symbol('body')]: 1, Body: 2 }), 'body', true)).toEqual({
      status: 'missing',
      candidates: [],
    });
  });
});
