import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { digest } from '../canonical/index.ts';
import { defineTools } from '../typestate/index.ts';
import { defineContracts, delegate, Outcome, resolveMethod, type ToolContract } from './index.ts';

/** `text` as a literal part of a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('defineContracts', () => {
  const tools = defineContracts({
    web_fetcher: {
      purpose: 'fetch and extract content from URLs',
      deliverable: { type: 'object', required: ['body', 'statusCode'] },
      methods: ['fetch_url', 'fetch_headers'],
      aliases: { fetch: 'fetch_url' },
      requiredInputs: ['url'],
    },
    rss_parser: { deliverable: v.array(v.object({ title: v.string() })), methods: ['parse'], requiredInputs: ['xml'] },
    echo: {},
  });

  it('describes each contract as JSON, methods and inputs sorted, and digests the description', () => {
    expect(tools.web_fetcher.tool).toBe('web_fetcher');
    expect(tools.web_fetcher.description).toEqual({
      tool: 'web_fetcher',
      purpose: 'fetch and extract content from URLs',
      deliverable: { type: 'object', required: ['body', 'statusCode'] },
      methods: ['fetch_headers', 'fetch_url'],
      aliases: { fetch: 'fetch_url' },
      requiredInputs: ['url'],
    });
    expect(tools.web_fetcher.digest).toBe(digest(tools.web_fetcher.description));
    expect(tools.echo.description).toEqual({ tool: 'echo', methods: [], aliases: {}, requiredInputs: [] });
    expect(Object.keys(tools)).toEqual(['web_fetcher', 'rss_parser', 'echo']);
    expect(Object.isFrozen(tools)).toBe(true);
    expect(Object.isFrozen(tools.web_fetcher)).toBe(true);
  });

  it('gives the same digest whatever the order of methods, inputs and aliases', () => {
    const a = defineContracts({ t: { methods: ['b', 'a'], aliases: { x: 'a', y: 'b' }, requiredInputs: ['q', 'p'] } });
    const b = defineContracts({ t: { requiredInputs: ['p', 'q'], aliases: { y: 'b', x: 'a' }, methods: ['a', 'b'] } });
    expect(a.t.digest).toBe(b.t.digest);
    const c = defineContracts({ t: { methods: ['a', 'b'], aliases: { x: 'b', y: 'b' }, requiredInputs: ['p', 'q'] } });
    expect(c.t.digest).not.toBe(a.t.digest);
  });

  it.each([
    [
      'an unknown field',
      { web: { method: ['fetch'] } },
      /defineContracts: web\.method: unknown field; a contract has purpose, deliverable, methods, aliases and requiredInputs/,
    ],
    [
      'a blank method',
      { web: { methods: ['fetch', ' '] } },
      /defineContracts: web\.methods\[1\]: expected a non-blank name/,
    ],
    [
      'a repeated method',
      { web: { methods: ['fetch', 'fetch'] } },
      /defineContracts: web\.methods: "fetch" is listed twice/,
    ],
    [
      'an alias naming no method',
      { web: { methods: ['fetch_url'], aliases: { fetch: 'fetch_uri' } } },
      /defineContracts: web\.aliases\.fetch: must name one of the canonical methods \(fetch_url\), got "fetch_uri"/,
    ],
    ['aliases without methods', { web: { aliases: { fetch: 'fetch_url' } } }, /\(none declared\)/],
    [
      'an alias that is canonical',
      { web: { methods: ['fetch', 'get'], aliases: { get: 'fetch' } } },
      /web\.aliases\.get: "get" is a canonical method, not an alias/,
    ],
    ['a purpose that is not a string', { web: { purpose: 3 } }, /web\.purpose: Invalid type: Expected string/],
    [
      'required inputs that are twins',
      { web: { requiredInputs: ['feedUrl', 'feed_url'] } },
      /web\.requiredInputs: keys "feedUrl" and "feed_url"/,
    ],
    [
      'a bad deliverable',
      { web: { deliverable: { type: 'list' } } },
      /web\.deliverable\.type: expected a Standard Schema/,
    ],
    ['a blank tool name', { ' ': {} }, /a tool name must be non-blank/],
    [
      'a definition that is not an object',
      { web: 'fetch' },
      /web: expected a contract definition \(an object\), got "fetch"/,
    ],
  ])('refuses %s, naming the field', (_, definitions, message) => {
    // Untyped definitions (from JSON or JavaScript): Reflect.apply skips the compile-time check.
    expect(() => Reflect.apply(defineContracts, undefined, [definitions])).toThrow(message);
  });

  it('refuses something that is not an object of definitions', () => {
    expect(() => Reflect.apply(defineContracts, undefined, [[]])).toThrow(/expected an object of contract definitions/);
  });
});

describe('defineTools and defineContracts check methods by one rule', () => {
  it.each([
    ['a blank method', { methods: ['fetch', ' '] }, '.methods[1]: expected a non-blank name'],
    ['a method that is not a string', { methods: [3] }, '.methods[0]: Invalid type: Expected string but received 3'],
    ['methods that are not a list', { methods: 'fetch' }, '.methods: Invalid type: Expected Array'],
    ['a repeated method', { methods: ['fetch', 'fetch'] }, '.methods: "fetch" is listed twice'],
    [
      'an alias naming no method',
      { methods: ['fetch_url'], aliases: { fetch: 'fetch_uri' } },
      '.aliases.fetch: must name one of the canonical methods (fetch_url), got "fetch_uri"',
    ],
    [
      'aliases without methods',
      { aliases: { fetch: 'fetch_url' } },
      '.aliases.fetch: must name one of the canonical methods (none declared), got "fetch_url"',
    ],
    [
      'an alias that is canonical',
      { methods: ['fetch', 'get'], aliases: { get: 'fetch' } },
      '.aliases.get: "get" is a canonical method, not an alias',
    ],
    ['a blank alias', { methods: ['fetch'], aliases: { ' ': 'fetch' } }, '.aliases: an alias must be a non-blank name'],
    [
      'an alias to a blank name',
      { methods: ['fetch'], aliases: { get: '' } },
      '.aliases.get: expected a non-blank name',
    ],
  ])('refuses %s with the same message', (_, fields, message) => {
    const thrown = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof TypeError ? error.message : String(error);
      }
      return 'nothing thrown';
    };
    // Untyped definitions (from JSON or JavaScript): Reflect.apply skips the compile-time check.
    const tool = { input: v.any(), output: v.any(), ...fields };
    expect(thrown(() => Reflect.apply(defineTools, undefined, [{ web: tool }]))).toMatch(
      new RegExp(`^defineTools: web${literal(message)}`),
    );
    expect(thrown(() => Reflect.apply(defineContracts, undefined, [{ web: fields }]))).toMatch(
      new RegExp(`^defineContracts: web${literal(message)}`),
    );
  });

  it('keeps the methods and aliases a registry was made with, frozen, with every alias key', () => {
    const aliases = JSON.parse('{"__proto__": "fetch_url", "fetch": "fetch_url"}') as Record<string, 'fetch_url'>;
    const tools = defineTools({ web: { input: v.any(), output: v.any(), methods: ['fetch_url'], aliases } });
    expect(Object.keys(tools.definitions.web.aliases ?? {})).toEqual(['__proto__', 'fetch']);
    expect(Object.isFrozen(tools.definitions.web.methods)).toBe(true);
    expect(Object.isFrozen(tools.definitions.web.aliases)).toBe(true);
    expect(resolveMethod(tools.definitions.web, '__proto__')).toEqual({
      status: 'resolved',
      method: 'fetch_url',
      alias: { kind: 'method', alias: '__proto__', method: 'fetch_url' },
    });
  });
});

describe('resolveMethod', () => {
  const { web_fetcher, echo } = defineContracts({
    web_fetcher: { methods: ['fetch_url'], aliases: { fetch: 'fetch_url', get: 'fetch_url' } },
    echo: {},
  });

  it('resolves a canonical method to itself and an alias to its canonical method', () => {
    expect(resolveMethod(web_fetcher.description, 'fetch_url')).toEqual({
      status: 'resolved',
      method: 'fetch_url',
      alias: undefined,
    });
    expect(resolveMethod(web_fetcher.description, 'get')).toEqual({
      status: 'resolved',
      method: 'fetch_url',
      alias: { kind: 'method', alias: 'get', method: 'fetch_url' },
    });
  });

  it('calls anything else unknown, naming the canonical methods; a missing name too', () => {
    expect(resolveMethod(web_fetcher.description, 'fetchUrl')).toEqual({
      status: 'unknown',
      called: 'fetchUrl',
      methods: ['fetch_url'],
    });
    expect(resolveMethod(web_fetcher.description, undefined)).toEqual({
      status: 'unknown',
      called: undefined,
      methods: ['fetch_url'],
    });
    expect(resolveMethod(web_fetcher.description, 'toString')).toMatchObject({ status: 'unknown' });
    expect(resolveMethod(web_fetcher.description, '__proto__')).toMatchObject({ status: 'unknown' });
  });

  it('accepts any name, or none, when the contract declares no methods', () => {
    expect(resolveMethod(echo.description, 'anything')).toEqual({
      status: 'resolved',
      method: 'anything',
      alias: undefined,
    });
    expect(resolveMethod(echo.description, undefined)).toEqual({
      status: 'resolved',
      method: undefined,
      alias: undefined,
    });
  });
});

describe('a contract not made by defineContracts', () => {
  it('is refused by delegate before anything runs', () => {
    const { echo } = defineContracts({ echo: {} });
    const copy: ToolContract = { ...echo };
    let ran = false;
    expect(() =>
      delegate(copy, {}, () => {
        ran = true;
        return Outcome.ok(1);
      }),
    ).toThrow(/this contract was not made by defineContracts/);
    expect(ran).toBe(false);
  });
});
