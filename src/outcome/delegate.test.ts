import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineContracts, delegate, delegateAsync, Outcome, type ToolContract } from './index.ts';

const tools = defineContracts({
  web_fetcher: {
    purpose: 'fetch and extract content from URLs',
    deliverable: { type: 'object', required: ['body', 'statusCode'] },
    methods: ['fetch_url'],
    aliases: { fetch: 'fetch_url' },
    requiredInputs: ['url'],
  },
  rss_parser: {
    deliverable: v.array(v.object({ title: v.string(), link: v.pipe(v.string(), v.url()) })),
    methods: ['parse'],
    requiredInputs: ['xml'],
  },
  echo: {},
});
const page = { body: '<rss/>', statusCode: 200 };

describe('delegate: methods', () => {
  it('resolves an alias, calls the tool with the canonical method, and records the alias', () => {
    const calls: unknown[] = [];
    const fetched = delegate(tools.web_fetcher, { method: 'fetch', input: { url: 'https://a.example' } }, (call) => {
      calls.push(call);
      return Outcome.ok(page);
    });
    expect(calls).toEqual([{ tool: 'web_fetcher', method: 'fetch_url', input: { url: 'https://a.example' } }]);
    expect(fetched.outcome).toEqual({ status: 'ok', value: page });
    expect(fetched.record.method).toBe('fetch_url');
    expect(fetched.record.aliases).toEqual([{ kind: 'method', alias: 'fetch', method: 'fetch_url' }]);
  });

  it('refuses a method that is neither canonical nor an alias, naming the canonical methods, without calling the tool', () => {
    let ran = false;
    const method: string = 'get_page';
    const fetched = delegate(tools.web_fetcher, { method, input: { url: 'https://a.example' } }, () => {
      ran = true;
      return Outcome.ok(page);
    });
    expect(ran).toBe(false);
    expect(fetched.outcome).toEqual({
      status: 'error',
      errorType: 'unknown_method',
      message: 'web_fetcher has no method "get_page"; its methods are fetch_url',
      details: { tool: 'web_fetcher', method: 'get_page', methods: ['fetch_url'] },
      retryable: false,
    });
    expect(fetched.record).toEqual({
      tool: 'web_fetcher',
      method: null,
      contract: tools.web_fetcher.digest,
      result: 'unknown_method',
      errorType: 'unknown_method',
      deliverableChecked: false,
      aliases: [],
      mismatch: [
        {
          path: 'method',
          rule: 'unknown_method',
          message: fetched.outcome.status === 'error' ? fetched.outcome.message : '',
        },
      ],
    });
  });

  it('refuses a call that names no method when the contract declares methods', () => {
    const untyped: ToolContract = tools.web_fetcher;
    const fetched = delegate(untyped, { input: { url: 'u' } }, () => Outcome.ok(page));
    expect(fetched.outcome).toMatchObject({
      errorType: 'unknown_method',
      message: 'web_fetcher has no method; its methods are fetch_url',
      details: { method: null },
    });
  });

  it('passes any method name, or none, through a contract without methods', () => {
    const seen: unknown[] = [];
    delegate(tools.echo, { method: 'shout' }, (call) => Outcome.ok(seen.push(call.method)));
    delegate(tools.echo, {}, (call) => Outcome.ok(seen.push(call.method)));
    expect(seen).toEqual(['shout', undefined]);
  });
});

describe('delegate: required inputs', () => {
  it.each([
    ['undefined', { xml: undefined }, 'required input "xml" is undefined'],
    ['null', { xml: null }, 'required input "xml" is null'],
    ['an empty string', { xml: '' }, 'required input "xml" is an empty string'],
    ['a blank string', { xml: ' \n\u3000' }, 'required input "xml" is a blank string'],
    ['an empty array', { xml: [] }, 'required input "xml" is an empty array'],
    ['an empty Map', { xml: new Map() }, 'required input "xml" is an empty Map'],
    ['an empty Set', { xml: new Set() }, 'required input "xml" is an empty Set'],
  ])('refuses %s as a typed error, never an empty success, without calling the tool', (_, input, message) => {
    let ran = false;
    const parsed = delegate(tools.rss_parser, { method: 'parse', input: input as unknown }, () => {
      ran = true;
      return Outcome.ok([]);
    });
    expect(ran).toBe(false);
    expect(parsed.outcome).toEqual({
      status: 'error',
      errorType: 'precondition_failed',
      message: `rss_parser.parse was not called: ${message}`,
      details: {
        tool: 'rss_parser',
        method: 'parse',
        requiredInputs: ['xml'],
        mismatch: [{ path: 'xml', rule: 'empty_input', message }],
      },
      retryable: false,
    });
    expect(parsed.record).toMatchObject({ result: 'precondition_failed', method: 'parse', deliverableChecked: false });
  });

  it.each([
    ['no input', undefined, 'expected an object of inputs (xml), got undefined'],
    ['a null input', null, 'expected an object of inputs (xml), got null'],
    ['a string input', '<rss/>', 'expected an object of inputs (xml), got string'],
    ['an input without the key', { text: '<rss/>' }, 'required input "xml" is missing (inputs present: text)'],
    ['an empty input object', {}, 'required input "xml" is missing (inputs present: none)'],
  ])('refuses %s', (_, input, message) => {
    const parsed = delegate(tools.rss_parser, { method: 'parse', input: input as unknown }, () => Outcome.ok([]));
    expect(parsed.outcome).toMatchObject({
      errorType: 'precondition_failed',
      details: { mismatch: [{ rule: 'missing_input', message }] },
    });
  });

  it('lists every bad input', () => {
    const { search } = defineContracts({ search: { requiredInputs: ['query', 'index'] } });
    const searched = delegate(search, { input: { query: '', index: null } as unknown }, () => Outcome.ok(1));
    expect(searched.outcome).toMatchObject({
      message: 'search was not called: required input "index" is null; required input "query" is an empty string',
    });
  });

  it('finds inputs by tolerant key equivalence and hands them on in the contract spelling', () => {
    const { fetcher } = defineContracts({ fetcher: { requiredInputs: ['feedUrl'] } });
    const inputs: unknown[] = [];
    const run = (call: { readonly input: unknown }) => Outcome.ok(inputs.push(call.input));
    const fromMap = delegate(fetcher, { input: new Map([['feed_url', 'https://a.example']]) }, run);
    delegate(fetcher, { input: { [Symbol.for('feedUrl')]: 'https://b.example', lang: 'en' } }, run);
    expect(inputs).toEqual([{ feedUrl: 'https://a.example' }, { feedUrl: 'https://b.example', lang: 'en' }]);
    expect(fromMap.record.aliases).toEqual([
      { kind: 'input_key', path: 'feedUrl', key: 'feedUrl', source: 'map_entry', spelling: 'feed_url' },
    ]);
  });

  it('hands the input on untouched when the contract requires none', () => {
    const input = { anything: null };
    const seen: unknown[] = [];
    delegate(tools.echo, { input }, (call) => Outcome.ok(seen.push(call.input)));
    expect(seen[0]).toBe(input);
  });
});

describe('delegate: the delivered outcome', () => {
  it('hands on a conforming value as the same outcome', () => {
    const returned = Outcome.ok(page);
    const fetched = delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => returned);
    expect(fetched.outcome).toBe(returned);
    expect(fetched.record).toEqual({
      tool: 'web_fetcher',
      method: 'fetch_url',
      contract: tools.web_fetcher.digest,
      result: 'ok',
      errorType: null,
      deliverableChecked: true,
      aliases: [],
      mismatch: [],
    });
  });

  it('renames keys to the contract spelling and records each alias', () => {
    const fetched = delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () =>
      Outcome.ok({ [Symbol.for('body')]: '<rss/>', status_code: 200 }),
    );
    expect(fetched.outcome).toEqual({ status: 'ok', value: page });
    expect(fetched.record.aliases).toEqual([
      { kind: 'deliverable_key', path: 'body', key: 'body', source: 'symbol_key', spelling: 'body' },
      { kind: 'deliverable_key', path: 'statusCode', key: 'statusCode', source: 'string_key', spelling: 'status_code' },
    ]);
  });

  it('turns a value in the wrong shape into a contract_violation carrying the repair metadata', () => {
    const fetched = delegate(tools.web_fetcher, { method: 'fetch', input: { url: 'u' } }, () =>
      Outcome.ok({ Body: '<rss/>', status: 200 }),
    );
    expect(fetched.outcome).toEqual({
      status: 'error',
      errorType: 'contract_violation',
      message:
        'web_fetcher.fetch_url delivered a value that violates its contract: body: missing required key "body" (keys present: Body, status); statusCode: missing required key "statusCode" (keys present: Body, status)',
      details: {
        tool: 'web_fetcher',
        method: 'fetch_url',
        path: '',
        expectedShape: 'object',
        actualShape: 'object',
        expectedKeys: ['body', 'statusCode'],
        actualKeys: ['Body', 'status'],
        mismatch: [
          { path: 'body', rule: 'missing_key', message: 'missing required key "body" (keys present: Body, status)' },
          {
            path: 'statusCode',
            rule: 'missing_key',
            message: 'missing required key "statusCode" (keys present: Body, status)',
          },
        ],
      },
      retryable: false,
    });
    expect(fetched.record).toMatchObject({
      result: 'contract_violation',
      deliverableChecked: true,
      aliases: [{ kind: 'method', alias: 'fetch', method: 'fetch_url' }],
    });
  });

  it('runs a schema deliverable after renaming, reports its issues, and hands on its output', () => {
    const bad = delegate(tools.rss_parser, { method: 'parse', input: { xml: '<rss/>' } }, () =>
      Outcome.ok([{ title: 'Rates held', link: 'not a url' }]),
    );
    expect(bad.outcome).toMatchObject({
      errorType: 'contract_violation',
      details: {
        path: '',
        expectedShape: 'array',
        actualShape: 'array',
        expectedKeys: [],
        actualKeys: [],
        // A schema issue's path is written by validateWith, in the typestate layer's notation.
        mismatch: [{ path: '[0].link', rule: 'schema', message: expect.stringMatching(/URL/) as unknown }],
      },
    });
    const { trimmed } = defineContracts({
      trimmed: { deliverable: v.object({ title: v.pipe(v.string(), v.trim()) }) },
    });
    const good = delegate(trimmed, {}, () => Outcome.ok({ [Symbol.for('title')]: '  Rates held ' }));
    expect(good.outcome).toEqual({ status: 'ok', value: { title: 'Rates held' } });
  });

  it('passes the tool’s own error through unchanged', () => {
    const own = Outcome.error('upstream_unavailable', 'feed returned 503', { retryable: true });
    const fetched = delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => own);
    expect(fetched.outcome).toBe(own);
    expect(fetched.record).toMatchObject({ result: 'producer_error', errorType: 'upstream_unavailable', mismatch: [] });
  });

  it.each([
    ['undefined', undefined, 'undefined', []],
    ['a bare value', [{ title: 'a' }], 'array', []],
    ['an ok without value', { status: 'ok' }, 'object', ['status']],
    ['an error without errorType', { status: 'error', message: 'x' }, 'object', ['status', 'message']],
  ])('calls %s returned in place of an Outcome a contract_violation', (_, returned, actualShape, actualKeys) => {
    // A tool written in untyped code: its declared type promises an Outcome it does not return.
    const untyped = (() => returned) as () => Outcome<unknown>;
    const echoed = delegate(tools.echo, {}, untyped);
    expect(echoed.outcome).toMatchObject({
      errorType: 'contract_violation',
      details: {
        expectedShape: 'outcome',
        actualShape,
        expectedKeys: ['status'],
        actualKeys,
        mismatch: [{ rule: 'not_an_outcome' }],
      },
    });
    expect(echoed.record.deliverableChecked).toBe(false);
  });

  it('shortens a long mismatch list in the message and keeps all of it in the details', () => {
    const { wide } = defineContracts({
      wide: { deliverable: { type: 'object', required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } },
    });
    const delivered = delegate(wide, {}, () => Outcome.ok({}));
    expect(delivered.outcome.status === 'error' && delivered.outcome.message).toMatch(/; and 2 more$/);
    expect(delivered.record.mismatch).toHaveLength(7);
  });

  it('hands on the value unchecked when the contract declares no deliverable', () => {
    const returned = Outcome.ok(Symbol('anything'));
    const echoed = delegate(tools.echo, {}, () => returned);
    expect(echoed.outcome).toBe(returned);
    expect(echoed.record).toMatchObject({ result: 'ok', deliverableChecked: false });
  });

  it('gives frozen JSON records', () => {
    const fetched = delegate(tools.web_fetcher, { method: 'fetch', input: { url: 'u' } }, () => Outcome.ok({}));
    expect(Object.isFrozen(fetched.record)).toBe(true);
    expect(Object.isFrozen(fetched.record.mismatch[0])).toBe(true);
    expect(JSON.parse(JSON.stringify(fetched.record))).toEqual(fetched.record);
  });
});

describe('delegateAsync', () => {
  it('returns a promise of the delegation, with the same checks', async () => {
    const pending = delegateAsync(tools.web_fetcher, { method: 'fetch', input: { url: 'u' } }, async () =>
      Outcome.ok({ body: 'b', status_code: 1 }),
    );
    expect(pending).toBeInstanceOf(Promise);
    const fetched = await pending;
    expect(fetched.outcome).toEqual({ status: 'ok', value: { body: 'b', statusCode: 1 } });
    expect(fetched.record.aliases.map((alias) => alias.kind)).toEqual(['method', 'deliverable_key']);
  });

  it('settles a refused call before starting the tool', async () => {
    let started = false;
    const refused = delegateAsync(tools.web_fetcher, { method: 'fetch', input: { url: '' } as unknown }, async () => {
      started = true;
      return Outcome.ok(page);
    });
    expect(refused).toBeInstanceOf(Promise);
    expect((await refused).outcome).toMatchObject({ errorType: 'precondition_failed' });
    expect(started).toBe(false);
  });

  it('accepts a tool that answers synchronously', async () => {
    const echoed = await delegateAsync(tools.echo, {}, () => Outcome.ok(1));
    expect(echoed.outcome).toEqual({ status: 'ok', value: 1 });
  });

  it('rejects when the tool throws or rejects', async () => {
    await expect(
      delegateAsync(tools.echo, {}, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(delegateAsync(tools.echo, {}, async () => Promise.reject(new Error('later')))).rejects.toThrow(
      'later',
    );
  });
});

describe('delegate with a tool that throws or answers asynchronously', () => {
  it('lets the exception propagate', () => {
    expect(() =>
      delegate(tools.echo, {}, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });

  it('calls a promise a contract_violation that names delegateAsync', () => {
    // biome-ignore lint/plugin: untyped code on purpose: the declared type promises an Outcome, the function returns a promise of one
    const pending = (async () => Outcome.ok(page)) as unknown as () => Outcome<unknown>;
    const fetched = delegate(tools.echo, {}, pending);
    expect(fetched.outcome).toMatchObject({
      errorType: 'contract_violation',
      message:
        'echo delivered a value that violates its contract: the tool returned a promise; delegate an asynchronous tool with delegateAsync',
      details: { expectedShape: 'outcome', actualShape: 'promise' },
    });
  });
});

describe('delegate: hostile values never throw out of the boundary', () => {
  const throwing = (name: string) => {
    throw new TypeError(`${name} getter`);
  };

  it('calls a delivered value whose getter throws a contract_violation (unreadable)', () => {
    const value = Object.defineProperty({ statusCode: 1 }, 'body', { get: () => throwing('body'), enumerable: true });
    const fetched = delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => Outcome.ok(value));
    expect(fetched.outcome).toMatchObject({
      errorType: 'contract_violation',
      message:
        'web_fetcher.fetch_url delivered a value that violates its contract: reading the returned value threw TypeError: body getter',
      details: { actualShape: 'unreadable', mismatch: [{ path: '', rule: 'unreadable' }] },
    });
    expect(fetched.record).toMatchObject({ result: 'contract_violation', aliases: [] });
  });

  it('calls a returned Proxy whose traps throw a contract_violation', async () => {
    const trap = () => throwing('trap');
    const hostile = new Proxy({}, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap });
    const untyped = (() => hostile) as () => Outcome<unknown>;
    expect(delegate(tools.echo, {}, untyped).outcome).toMatchObject({
      errorType: 'contract_violation',
      details: {
        mismatch: [{ rule: 'unreadable', message: 'reading the returned value threw TypeError: trap getter' }],
      },
    });
    await expect(delegateAsync(tools.echo, {}, untyped)).resolves.toMatchObject({
      outcome: { errorType: 'contract_violation' },
    });
    const value = new Proxy({}, { ownKeys: trap });
    expect(
      delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => Outcome.ok(value)).outcome,
    ).toMatchObject({ errorType: 'contract_violation', details: { mismatch: [{ rule: 'unreadable' }] } });
  });

  it('refuses an input whose getter throws, without calling the tool', () => {
    let ran = false;
    const input = Object.defineProperty({}, 'xml', { get: () => throwing('xml'), enumerable: true });
    const parsed = delegate(tools.rss_parser, { method: 'parse', input: input as unknown }, () => {
      ran = true;
      return Outcome.ok([]);
    });
    expect(ran).toBe(false);
    expect(parsed.outcome).toMatchObject({
      errorType: 'precondition_failed',
      message: "rss_parser was not called: reading the call's request threw TypeError: xml getter",
    });
  });

  it('shows a thrown value whose toString throws, and cuts a long one', () => {
    const unshowable = { toString: () => throwing('toString') };
    const long = 'x'.repeat(500);
    const value = Object.defineProperty({}, 'body', {
      get: () => {
        throw unshowable;
      },
      enumerable: true,
    });
    const valueLong = Object.defineProperty({}, 'body', {
      get: () => {
        throw long;
      },
      enumerable: true,
    });
    const run = (delivered: object) =>
      delegate(tools.web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => Outcome.ok(delivered)).record
        .mismatch[0]?.message;
    expect(run(value)).toBe('reading the returned value threw a value that cannot be shown');
    expect(run(valueLong)).toBe(`reading the returned value threw ${'x'.repeat(200)}… (300 more characters)`);
  });
});

describe('property: a delegated ok is never a silent success', () => {
  it('either every required key is readable in the contract spelling, or the outcome is a contract_violation', () => {
    const { strict } = defineContracts({
      strict: { deliverable: { type: 'object', required: ['body', 'statusCode'] } },
    });
    const value = fc.oneof(
      fc.anything(),
      fc.record({ body: fc.anything(), status_code: fc.anything() }, { requiredKeys: [] }),
      fc.constantFrom(new Map([['body', 1]]), { [Symbol.for('body')]: 1, statusCode: 2 }),
    );
    fc.assert(
      fc.property(value, (delivered) => {
        const { outcome, record } = delegate(strict, {}, () => Outcome.ok(delivered));
        if (outcome.status === 'ok') {
          expect(record.result).toBe('ok');
          const checked = outcome.value as Record<string, unknown>;
          expect(checked['body']).not.toBeUndefined();
          expect(checked['statusCode']).not.toBeUndefined();
        } else {
          expect(outcome.errorType).toBe('contract_violation');
          expect(record.mismatch.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
