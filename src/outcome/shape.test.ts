import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { describeDeliverable, type ShapeContract } from './index.ts';
import { compileDeliverable } from './shape.ts';
import { checkShape } from './shape-check.ts';

const check = (deliverable: unknown, value: unknown) =>
  checkShape(compileDeliverable(deliverable, 'deliverable'), value, 'deliverable_key');
const page: ShapeContract = { type: 'object', required: ['body', 'statusCode'] };

describe('object deliverables: required keys by tolerant key equivalence', () => {
  it('hands on a value with every key in the contract spelling as the same object', () => {
    const value = { body: '<rss/>', statusCode: 200 };
    const checked = check(page, value);
    expect(checked.value).toBe(value);
    expect(checked.aliases).toEqual([]);
    expect(checked.mismatch).toEqual([]);
  });

  it.each([
    ['a Symbol.for key', { [Symbol.for('body')]: '<rss/>', statusCode: 200 }, 'symbol_key', 'body'],
    ['a snake_case twin', { body: '<rss/>', status_code: 200 }, 'string_key', 'status_code'],
    ['a Symbol.for twin', { body: '<rss/>', [Symbol.for('status_code')]: 200 }, 'symbol_key', 'status_code'],
    [
      'a Map entry',
      new Map<unknown, unknown>([
        ['body', '<rss/>'],
        ['statusCode', 200],
      ]),
      'map_entry',
      'body',
    ],
  ])('accepts %s and renames it to the contract spelling', (_, value, source, spelling) => {
    const checked = check(page, value);
    expect(checked.mismatch).toEqual([]);
    expect(checked.value).toEqual({ body: '<rss/>', statusCode: 200 });
    expect(Object.getPrototypeOf(checked.value)).toBe(Object.prototype);
    expect(checked.aliases).toContainEqual({
      kind: 'deliverable_key',
      path: spelling === 'body' ? 'body' : 'statusCode',
      key: spelling === 'body' ? 'body' : 'statusCode',
      source,
      spelling,
    });
  });

  it('accepts the camelCase twin of a snake_case contract key', () => {
    const checked = check({ type: 'object', required: ['result_digest'] }, { resultDigest: 'sha256:ab' });
    expect(checked.value).toEqual({ result_digest: 'sha256:ab' });
    expect(checked.aliases).toEqual([
      {
        kind: 'deliverable_key',
        path: 'result_digest',
        key: 'result_digest',
        source: 'string_key',
        spelling: 'resultDigest',
      },
    ]);
  });

  it('keeps other keys, a registered symbol under its name, and drops unregistered symbols and non-key map entries', () => {
    const local = Symbol('local');
    const checked = check(page, {
      [Symbol.for('body')]: 'b',
      statusCode: 1,
      etag: 'W/1',
      [Symbol.for('lang')]: 'en',
      [local]: 'x',
    });
    expect(checked.value).toEqual({ body: 'b', statusCode: 1, etag: 'W/1', lang: 'en' });
    expect(Object.getOwnPropertySymbols(checked.value)).toEqual([]);
    const fromMap = check(
      page,
      new Map<unknown, unknown>([
        ['body', 'b'],
        ['statusCode', 1],
        [7, 'seven'],
      ]),
    );
    expect(fromMap.value).toEqual({ body: 'b', statusCode: 1 });
  });

  it('lets a string key win over a symbol key of the same extra name', () => {
    const checked = check(page, { [Symbol.for('body')]: 'b', statusCode: 1, lang: 'en', [Symbol.for('lang')]: 'fr' });
    expect(checked.value).toEqual({ body: 'b', statusCode: 1, lang: 'en' });
  });

  it('reports a missing key with the keys that were there, and where', () => {
    const checked = check(page, { Body: '<rss/>', [Symbol('statusCode')]: 200 });
    expect(checked.mismatch).toEqual([
      {
        path: 'body',
        rule: 'missing_key',
        message: 'missing required key "body" (keys present: Body, Symbol(statusCode))',
      },
      {
        path: 'statusCode',
        rule: 'missing_key',
        message: 'missing required key "statusCode" (keys present: Body, Symbol(statusCode))',
      },
    ]);
    expect(checked.focus).toEqual({
      path: '',
      expectedShape: 'object',
      actualShape: 'object',
      expectedKeys: ['body', 'statusCode'],
      actualKeys: ['Body', 'Symbol(statusCode)'],
    });
  });

  it('reports two spellings with different values as a conflict', () => {
    const checked = check(page, { body: 'a', [Symbol.for('body')]: 'b', statusCode: 1, status_code: 1 });
    expect(checked.mismatch).toEqual([
      {
        path: 'body',
        rule: 'conflicting_keys',
        message: 'key "body" is given 2 ways with different values: body, Symbol.for("body")',
      },
    ]);
  });

  it('counts a key whose value is undefined as missing in a light shape', () => {
    expect(check(page, { body: undefined, statusCode: 1 }).mismatch.map((m) => m.rule)).toEqual(['missing_key']);
    expect(check(page, { body: null, statusCode: 1 }).mismatch).toEqual([]);
  });

  it.each([
    [null, 'null'],
    [[], 'array'],
    ['body', 'string'],
    [new Set(['body']), 'set'],
    [() => 1, 'function'],
  ])('refuses %o where an object is expected (%s)', (value, actual) => {
    const checked = check(page, value);
    expect(checked.mismatch).toEqual([{ path: '', rule: 'shape', message: `expected object, got ${actual}` }]);
    expect(checked.focus).toMatchObject({
      expectedShape: 'object',
      actualShape: actual,
      expectedKeys: ['body', 'statusCode'],
    });
  });

  it('treats __proto__ as an ordinary own key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const checked = check({ type: 'object', required: ['__proto__'] }, value);
    expect(checked.mismatch).toEqual([]);
    expect(check({ type: 'object', required: ['__proto__'] }, {}).mismatch.map((m) => m.rule)).toEqual(['missing_key']);
    const renamed = check(
      { type: 'object', required: ['__proto__', 'a'] },
      { ...(value as object), [Symbol.for('a')]: 1 },
    );
    expect(Object.hasOwn(renamed.value as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(renamed.value)).toBe(Object.prototype);
  });
});

describe('array deliverables', () => {
  const feed: ShapeContract = { type: 'array', items: { type: 'object', required: ['title', 'link'] } };

  it('checks every item and renames keys inside items, keeping the array when nothing changed', () => {
    const items = [{ title: 'a', link: 'x' }];
    expect(check(feed, items).value).toBe(items);
    const checked = check(feed, [
      { title: 'a', link: 'x' },
      { title: 'b', [Symbol.for('link')]: 'y' },
    ]);
    expect(checked.value).toEqual([
      { title: 'a', link: 'x' },
      { title: 'b', link: 'y' },
    ]);
    expect(checked.aliases).toEqual([
      { kind: 'deliverable_key', path: '[1].link', key: 'link', source: 'symbol_key', spelling: 'link' },
    ]);
  });

  it('names the item and key that miss, and describes that item', () => {
    const checked = check(feed, [{ title: 'a', link: 'x' }, { title: 'b', url: 'y' }, 'c']);
    expect(checked.mismatch).toEqual([
      { path: '[1].link', rule: 'missing_key', message: 'missing required key "link" (keys present: title, url)' },
      { path: '[2]', rule: 'shape', message: 'expected object, got string' },
    ]);
    expect(checked.focus).toEqual({
      path: '[1]',
      expectedShape: 'object',
      actualShape: 'object',
      expectedKeys: ['title', 'link'],
      actualKeys: ['title', 'url'],
    });
  });

  it('refuses a non-array, an empty array meets a shape without minimum', () => {
    expect(check({ type: 'array' }, { length: 0 }).mismatch).toEqual([
      { path: '', rule: 'shape', message: 'expected array, got object' },
    ]);
    expect(check({ type: 'array' }, []).mismatch).toEqual([]);
  });

  it('checks nested properties when present, and their absence only when required', () => {
    const shape: ShapeContract = {
      type: 'object',
      required: ['meta'],
      properties: { meta: { type: 'object', required: ['etag'] }, items: { type: 'array' } },
    };
    expect(check(shape, { meta: { etag: 'W/1' } }).mismatch).toEqual([]);
    expect(check(shape, { meta: { e_tag: 'W/1' }, items: 'none' }).mismatch).toEqual([
      { path: 'meta.etag', rule: 'missing_key', message: 'missing required key "etag" (keys present: e_tag)' },
      { path: 'items', rule: 'shape', message: 'expected array, got string' },
    ]);
    expect(check(shape, { meta: { [Symbol.for('etag')]: 'W/1' } }).value).toEqual({ meta: { etag: 'W/1' } });
  });
});

describe('valibot deliverables: the structure is read from the schema, which has the last word', () => {
  const schema = v.object({
    resultDigest: v.string(),
    items: v.array(v.object({ title: v.string() })),
    etag: v.optional(v.string()),
    note: v.undefinedable(v.string()),
    meta: v.nullable(v.object({ lang: v.string() })),
  });

  it('renames keys at every level the schema declares', () => {
    const checked = check(schema, {
      result_digest: 'sha256:1',
      items: [{ [Symbol.for('title')]: 'a' }],
      e_tag: 'x',
      note: undefined,
      meta: null,
    });
    expect(checked.mismatch).toEqual([]);
    expect(checked.value).toEqual({
      resultDigest: 'sha256:1',
      items: [{ title: 'a' }],
      note: undefined,
      meta: null,
      e_tag: 'x', // not a twin of etag (that would be eTag): kept as an extra key, for the schema to judge
    });
    expect(Object.hasOwn(checked.value as object, 'note')).toBe(true);
    expect(checked.aliases.map((a) => a.path)).toEqual(['resultDigest', 'items[0].title']);
  });

  it('leaves an optional key absent, and its twin is not taken for it when absent', () => {
    const checked = check(schema, { resultDigest: 'd', items: [], note: 'n', meta: { lang: 'en' } });
    expect(checked.mismatch).toEqual([]);
  });

  it('reports a required key that is missing under every spelling', () => {
    expect(check(schema, { items: [], note: 'n', meta: null }).mismatch).toEqual([
      {
        path: 'resultDigest',
        rule: 'missing_key',
        message: 'missing required key "resultDigest" (keys present: items, note, meta)',
      },
    ]);
  });
});

describe('compileDeliverable and describeDeliverable', () => {
  it('describes light shapes and valibot schemas the same way', () => {
    expect(describeDeliverable({ type: 'array', items: { type: 'object', required: ['title', 'link'] } })).toEqual(
      describeDeliverable(v.array(v.object({ title: v.string(), link: v.string() }))),
    );
    expect(
      describeDeliverable(
        v.pipe(
          v.strictObject({ a: v.string(), b: v.optional(v.object({ c: v.number() })), d: v.nullish(v.string()) }),
          v.readonly(),
        ),
      ),
    ).toEqual({
      type: 'object',
      required: ['a'],
      optional: ['b', 'd'],
      properties: { b: { type: 'object', required: ['c'] } },
    });
    expect(describeDeliverable(v.string())).toEqual({ type: 'string' });
    expect(describeDeliverable(v.union([v.string(), v.number()]))).toEqual({ type: 'union' });
  });

  it('describes a schema of another Standard Schema library by its vendor, without reading its structure', () => {
    const foreign = {
      '~standard': { version: 1 as const, vendor: 'arktype', validate: (value: unknown) => ({ value }) },
    };
    expect(describeDeliverable(foreign)).toEqual({ type: 'schema', vendor: 'arktype' });
    expect(check(foreign, { anything: 1 }).mismatch).toEqual([]);
  });

  it.each([
    [
      'a light shape of no known type',
      { type: 'objekt' },
      /deliverable\.type: expected a Standard Schema .*Invalid type/,
    ],
    [
      'a blank required key',
      { type: 'object', required: ['a', ''] },
      /deliverable\.required\[1\]: .*expected a non-empty key/,
    ],
    ['required as a string', { type: 'object', required: 'a' }, /deliverable\.required: /],
    [
      'an unknown field in items',
      { type: 'array', items: { type: 'object', extra: 1 } },
      /deliverable\.items\.extra: /,
    ],
    [
      'required case twins',
      { type: 'object', required: ['resultDigest', 'result_digest'] },
      /"resultDigest" and "result_digest" would match the same delivered key/,
    ],
    [
      'keys that are not twins',
      { type: 'object', required: ['a'], properties: { a: { type: 'array' }, A_: { type: 'array' } } },
      undefined,
    ],
    ['valibot keys etag and eTag', v.object({ etag: v.string(), eTag: v.string() }), undefined],
    [
      'valibot keys e_tag and eTag',
      v.object({ e_tag: v.string(), eTag: v.string() }),
      /"e_tag" and "eTag" would match/,
    ],
    ['null', null, /expected a Standard Schema/],
  ])('compiling %s', (_, deliverable, error) => {
    if (error === undefined) expect(() => compileDeliverable(deliverable, 'deliverable')).not.toThrow();
    else expect(() => compileDeliverable(deliverable, 'deliverable')).toThrow(error);
  });
});

describe('property: a required key given in any accepted spelling is handed on under the contract spelling', () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9]{1,6}$/);
  const keyWords = fc.uniqueArray(fc.array(word, { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 5,
    selector: (parts) => parts.join('_'),
  });
  const spellings = ['snake', 'camel', 'symbol_snake', 'symbol_camel'] as const;

  it('holds for objects and maps, and every renamed key is recorded', () => {
    fc.assert(
      fc.property(
        keyWords,
        fc.boolean(),
        fc.boolean(),
        fc.infiniteStream(fc.constantFrom(...spellings)),
        fc.infiniteStream(fc.jsonValue({ maxDepth: 1 })),
        (keys, contractCamel, asMap, chosen, values) => {
          const camel = (parts: string[]) =>
            parts.map((p, i) => (i === 0 ? p : `${p[0]?.toUpperCase()}${p.slice(1)}`)).join('');
          const contractKeys = keys.map((parts) => (contractCamel ? camel(parts) : parts.join('_')));
          fc.pre(new Set(keys.map(camel)).size === keys.length);
          const given = new Map<string | symbol, unknown>();
          const expected: Record<string, unknown> = {};
          let renamed = 0;
          keys.forEach((parts, i) => {
            const spelling = chosen.next().value as (typeof spellings)[number];
            const name = spelling.endsWith('snake') ? parts.join('_') : camel(parts);
            const value = values.next().value;
            given.set(spelling.startsWith('symbol') ? Symbol.for(name) : name, value);
            expected[contractKeys[i] as string] = value === undefined ? null : value;
            if (asMap || spelling.startsWith('symbol') || name !== contractKeys[i]) renamed++;
          });
          const value = asMap ? given : Object.fromEntries(given);
          const checked = check({ type: 'object', required: contractKeys }, value);
          expect(checked.mismatch).toEqual([]);
          expect(checked.value).toEqual(expected);
          expect(checked.aliases).toHaveLength(renamed);
        },
      ),
    );
  });

  it('never passes a value without every required key readable under the contract spelling', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.anything(), fc.dictionary(word, fc.anything())),
        (required, value) => {
          const checked = check({ type: 'object', required }, value);
          if (checked.mismatch.length > 0) return;
          for (const key of required) {
            expect(Object.hasOwn(checked.value as object, key)).toBe(true);
            expect((checked.value as Record<string, unknown>)[key]).not.toBeUndefined();
          }
        },
      ),
    );
  });
});

describe('property: the direct path for values already in the contract spelling agrees with the general walk', () => {
  // An unrelated registered symbol key sends a value down the general walk; nothing else changes.
  const viaGeneralWalk = (value: object) => ({ ...value, [Symbol.for('unrelated_marker')]: true });
  const withoutSymbols = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(withoutSymbols)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([k]) => k !== 'unrelated_marker') // a renamed copy keeps the marker as a string key
              .map(([k, v]) => [k, withoutSymbols(v)]),
          )
        : value;
  const key = fc.constantFrom('body', 'statusCode', 'status_code', 'meta', 'items', 'Body', 'etag', 'e_tag');
  const leaf = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 3 }), fc.integer());
  const inner = fc.dictionary(fc.constantFrom('etag', 'eTag', 'lang', 'title'), leaf, { maxKeys: 3 });
  const value = fc.dictionary(key, fc.oneof(leaf, inner, fc.array(inner, { maxLength: 2 })), { maxKeys: 5 });
  const contracts: unknown[] = [
    { type: 'object', required: ['body', 'statusCode'] },
    {
      type: 'object',
      required: ['body'],
      properties: {
        meta: { type: 'object', required: ['etag'] },
        items: { type: 'array', items: { type: 'object', required: ['title'] } },
      },
    },
    v.object({
      body: v.unknown(),
      meta: v.optional(v.object({ eTag: v.string() })),
      items: v.optional(v.array(v.object({ title: v.string() }))),
    }),
  ];

  it('finds the same mismatches and aliases and hands on the same value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...contracts), value, (deliverable, given) => {
        const direct = check(deliverable, given);
        const general = check(deliverable, viaGeneralWalk(given));
        const unmarked = general.mismatch.map((m) => ({
          ...m,
          message: m.message
            .replace(/(, )?Symbol\.for\("unrelated_marker"\)/, '')
            .replace('present: )', 'present: none)'),
        }));
        expect(direct.mismatch).toEqual(unmarked);
        expect(direct.aliases).toEqual(general.aliases);
        expect(direct.focus === undefined).toBe(general.focus === undefined);
        expect(withoutSymbols(direct.value)).toEqual(withoutSymbols(general.value));
      }),
      { numRuns: 500 },
    );
  });

  it('hands on the same object when every key is already spelled as the contract spells it', () => {
    const given = { body: 'b', statusCode: 1, extra: true };
    expect(check({ type: 'object', required: ['body', 'statusCode'] }, given).value).toBe(given);
  });

  it('does not count a non-enumerable key, as the general walk does not', () => {
    const given = Object.defineProperty({ statusCode: 1 }, 'body', { value: 'b', enumerable: false });
    expect(check({ type: 'object', required: ['body', 'statusCode'] }, given).mismatch.map((m) => m.rule)).toEqual([
      'missing_key',
    ]);
  });
});
