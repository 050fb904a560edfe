/**
 * Hostile input through send(): values that are not JSON data, getters and Proxy traps that
 * throw, a polluted Object.prototype, and a seeded property run over thousands of inputs.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  createChatHarness,
  END,
  InMemorySessionStore,
  sequentialGraph,
  suspend,
  type ChatState,
  type ChatTurnOutcome,
  type SessionStore,
} from './index.ts';
import { type ChatMessage, validateChatMessage } from '../transcripts/index.ts';
import { SqliteSessionStore } from './sqlite.ts';

const echo = sequentialGraph({
  entry: 'echo',
  nodes: { echo: () => ({ messages: [{ role: 'assistant', content: 'heard you' }] }) },
  edges: [],
});

/** A value whose `key` getter throws an error carrying an internal detail. */
function throwingGetter(base: Record<string, unknown>, key: string): unknown {
  const value = { ...base };
  Object.defineProperty(value, key, {
    enumerable: true,
    get() {
      throw new Error('secret-internal-detail');
    },
  });
  return value;
}

function throwingTrap(trap: keyof ProxyHandler<object>): unknown {
  return new Proxy(
    { role: 'user', content: 'hi' },
    {
      [trap]: () => {
        throw new Error('secret-internal-detail');
      },
    },
  );
}

const cyclic: Record<string, unknown> = { id: 'c1', name: 'search', arguments: {} };
(cyclic['arguments'] as Record<string, unknown>)['self'] = cyclic['arguments'];
const holey = [1, 2, 3];
delete holey[1];
let deep: unknown = 'leaf';
for (let i = 0; i < 200; i++) deep = { a: deep };

const call = (args: unknown) => ({
  role: 'assistant',
  content: [],
  tool_calls: [{ id: 'c1', name: 'search', arguments: args }],
});

const BAD: [string, unknown, RegExp][] = [
  [
    'a cycle',
    { role: 'assistant', content: [], tool_calls: [cyclic] },
    /tool_calls\[0\]\.arguments\.self: the value contains itself/,
  ],
  ['a BigInt', call({ n: 10n }), /tool_calls\[0\]\.arguments\.n: a bigint is not JSON data/],
  ['a Date', call({ when: new Date(0) }), /tool_calls\[0\]\.arguments\.when: a Date is not plain JSON data/],
  ['a Map', call({ m: new Map() }), /arguments\.m: a Map is not plain JSON data/],
  ['a function', call({ f: () => 1 }), /arguments\.f: a function is not JSON data/],
  ['NaN', call({ x: Number.NaN }), /arguments\.x: NaN is not a JSON number/],
  ['a hole', call({ list: holey }), /arguments\.list\[1\]: undefined \(or a hole\)/],
  ['nesting past the limit', call({ deep }), /nesting deeper than 127 levels/],
  [
    'a throwing getter',
    throwingGetter({ role: 'user' }, 'content'),
    /^That request couldn't be processed: content could not be read\./,
  ],
  ['a throwing get trap', throwingTrap('get'), /could not be read/],
  ['a throwing ownKeys trap', throwingTrap('ownKeys'), /the message could not be read/],
  ['a throwing getPrototypeOf trap', throwingTrap('getPrototypeOf'), /the message could not be read/],
  ['null', null, /./],
  ['a number', 42, /./],
  ['a string', 'hello', /./],
  ['undefined', undefined, /./],
  [
    'a class instance',
    new (class Message {
      role = 'user';
      content = 'hi';
    })(),
    /a Message is not plain JSON data/,
  ],
];

describe('send() with values that are not JSON data or cannot be read', () => {
  it.each(BAD)(
    'answers %s with chat_message_shape_invalid naming the field, before touching the store',
    async (_, message, reply) => {
      const store = new InMemorySessionStore();
      const load = vi.spyOn(store, 'load');
      const version = vi.spyOn(store, 'version');
      const harness = createChatHarness({ graph: echo, store });
      // biome-ignore lint/plugin: the test sends values its types forbid, to check the run-time refusal
      const outcome = await harness.send('s', message as never);
      expect(outcome).toMatchObject({
        outcome: 'errored',
        errorBucket: 'user_correctable',
        errorCategory: 'chat_message_shape_invalid',
      });
      const text = outcome.outcome === 'errored' ? String(outcome.reply.content) : '';
      expect(text).toMatch(reply);
      expect(text).not.toContain('secret-internal-detail');
      expect(load).not.toHaveBeenCalled();
      expect(version).not.toHaveBeenCalled();
    },
  );

  it('keeps what a getter threw for the application, in the cause', async () => {
    const harness = createChatHarness({ graph: echo });
    // biome-ignore lint/plugin: the test sends a value its types forbid
    const outcome = await harness.send('s', throwingGetter({ role: 'user' }, 'content') as never);
    expect(outcome.outcome === 'errored' && (outcome.cause as Error).message).toMatch(
      /content: reading it threw Error: secret-internal-detail/,
    );
  });

  it('answers every bad value alike with the in-memory and the SQLite store', async () => {
    const sqlite = new SqliteSessionStore(':memory:');
    const answers = async (store: SessionStore) => {
      const harness = createChatHarness({ graph: echo, store });
      const out: string[] = [];
      // biome-ignore lint/plugin: the test sends values its types forbid
      for (const [, message] of BAD) out.push(JSON.stringify(await harness.send('s', message as never)));
      return out;
    };
    expect(await answers(sqlite)).toEqual(await answers(new InMemorySessionStore()));
    expect(await sqlite.load('s')).toBeUndefined();
    sqlite.close();
  });

  it('refuses a session id that is blank, not a string, not well-formed or holding U+0000', async () => {
    const harness = createChatHarness({ graph: echo });
    for (const id of ['', ' \u3000', '\ud800', 'a\u0000b', 7, null]) {
      // biome-ignore lint/plugin: the test passes ids its types forbid
      const outcome = await harness.send(id as never, { role: 'user', content: 'hi' });
      expect(outcome).toMatchObject({ outcome: 'errored', errorCategory: 'harness_session_id_unresolved' });
    }
  });

  it('refuses what a graph produces when it is not a ChatMessage or not JSON data, saving nothing', async () => {
    const store = new InMemorySessionStore();
    const outputs: Record<string, unknown> = {
      'empty assistant': { messages: [{ role: 'assistant', content: '' }] },
      'a bigint field': { messages: [], total: 1n },
      'a getter': { messages: [throwingGetter({ role: 'assistant' }, 'content')] },
      'messages not a list': { messages: 'hello' },
      'a number': 42,
    };
    const graph = sequentialGraph({
      entry: 'n',
      nodes: {
        n: (state) => outputs[String((state.messages.at(-1) as { content: string }).content)] as Partial<ChatState>,
      },
      edges: [],
    });
    const harness = createChatHarness({ graph, store });
    for (const key of Object.keys(outputs)) {
      const outcome = await harness.send('s', { role: 'user', content: key });
      expect(outcome).toMatchObject({
        outcome: 'errored',
        errorCategory: 'graph_programming_error',
        errorBucket: 'session_terminating',
      });
      expect(outcome.outcome === 'errored' && outcome.reply.content).not.toMatch(/secret|bigint|messages\[/);
    }
    expect(await store.load('s')).toBeUndefined();
  });
});

describe('send() under a polluted Object.prototype', () => {
  const POLLUTION: Record<string, unknown> = {
    tool_calls: [{ id: 'evil', name: 'evil', arguments: {} }],
    tool_call_id: 'evil',
    suspension: { invocationId: 'evil', node: 'evil', descriptor: { signal_id: 'evil' }, openToolCalls: [] },
    suspended: { descriptor: { signal_id: 'evil' }, node: 'evil' },
    resume: { invocationId: 'evil', node: 'evil', signalPayload: {}, signalId: 'evil' },
    resumed: { signalId: 'evil', invocationId: 'evil', resumedBy: 'evil', replies: [] },
    appendOnly: true,
    unchangedPrefix: 0,
    approved: true,
    category: 'provider_rate_limited',
    status: 429,
    code: 'ECONNRESET',
    ids: ['evil'],
    maxDepth: 1,
    maxSteps: 1,
    stateSchema: { '~standard': { validate: () => ({ issues: [{ message: 'evil' }] }) } },
    metadata: 'evil',
    store: new InMemorySessionStore(),
    initialState: { evil: true },
    cacheSize: 0,
    limit: 0,
    after: 'zzz',
    sessionId: 'evil',
  };

  /** A conversation through every path: a tool loop, a suspension and its resume, an inbound tool reply, errors. */
  async function conversation(store: SessionStore): Promise<string[]> {
    const hasCalls = (state: ChatState) => {
      const last = state.messages.at(-1);
      return last !== undefined && last.role === 'assistant' && Object.hasOwn(last, 'tool_calls');
    };
    const graph = sequentialGraph({
      entry: 'model',
      nodes: {
        model: (state) => {
          const last = state.messages.at(-1) as ChatMessage;
          if (last.role === 'user' && last.content === 'crash') throw new TypeError('bug');
          if (last.role === 'user' && last.content === 'transfer')
            return {
              messages: [
                {
                  role: 'assistant',
                  content: [],
                  tool_calls: [{ id: 'call_t', name: 'transfer', arguments: { amount: 5 } }],
                },
              ],
            };
          if (last.role === 'user' && last.content === 'lookup')
            return {
              messages: [
                {
                  role: 'assistant',
                  content: [],
                  tool_calls: [{ id: `call_l${state.messages.length}`, name: 'lookup', arguments: {} }],
                },
              ],
            };
          return { messages: [{ role: 'assistant', content: `reply ${state.messages.length}` }] };
        },
        gate: (state) => {
          const last = state.messages.at(-1);
          const calls = last?.role === 'assistant' && Object.hasOwn(last, 'tool_calls') ? (last.tool_calls ?? []) : [];
          return calls.some((c) => c.name === 'transfer') && state['approved'] !== true
            ? suspend({ signal_id: 'approve' })
            : undefined;
        },
        tools: (state) => {
          const last = state.messages.at(-1);
          if (last?.role !== 'assistant') return undefined;
          const calls = Object.hasOwn(last, 'tool_calls') ? (last.tool_calls ?? []) : [];
          return {
            messages: calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'ok' })),
            approved: false,
          };
        },
      },
      edges: [
        { from: 'model', to: (state) => (hasCalls(state) ? 'gate' : END) },
        { from: 'gate', to: 'tools' },
        { from: 'tools', to: 'model' },
      ],
    });
    const harness = createChatHarness({ graph, store, initialState: { approved: false } });
    const log: string[] = [];
    // Invocation ids are random: each run gets the same placeholder.
    const line = (value: unknown) =>
      String(JSON.stringify(value ?? null)).replace(/"invocationId":"[0-9a-f-]{36}"/g, '"invocationId":"…"');
    const record = (o: ChatTurnOutcome | undefined) => log.push(line(o));
    harness.subscribe('s', (o) => log.push(`listener ${line(o)}`));
    record(await harness.send('s', { role: 'user', content: 'hello' }));
    record(await harness.send('s', { role: 'user', content: 'lookup' }));
    record(await harness.send('s', { role: 'user', content: 'transfer' }));
    record(await harness.send('s', { role: 'user', content: 'are you there?' }));
    record(await harness.signal('approve', { approved: true }));
    record(await harness.send('s', { role: 'user', content: 'transfer' }));
    record(await harness.send('s', { role: 'tool', tool_call_id: 'call_t', content: 'done by hand' }));
    record(await harness.send('s', { role: 'tool', tool_call_id: 'call_t', content: 'again' }));
    record(await harness.send('s', { role: 'user', content: 'crash' }));
    record(await harness.send('s', { role: 'assistant', content: 'no tool calls here' }));
    log.push(line(await harness.listSuspended()));
    log.push(line(await store.load('s')));
    return log;
  }

  /** Runs `body` with every POLLUTION key on Object.prototype (enumerable or not), then removes them. */
  async function polluted<T>(enumerable: boolean, body: () => Promise<T>): Promise<T> {
    const proto = Object.prototype as Record<string, unknown>;
    for (const [key, value] of Object.entries(POLLUTION))
      Object.defineProperty(proto, key, { value, enumerable, configurable: true, writable: true });
    try {
      return await body();
    } finally {
      for (const key of Object.keys(POLLUTION)) delete proto[key];
    }
  }

  it.each([
    ['in-memory', () => new InMemorySessionStore()],
    ['SQLite', () => new SqliteSessionStore(':memory:')],
  ] as const)('accepts and saves exactly what it does without the pollution (%s store)', async (_, make) => {
    const clean = await conversation(make());
    expect(clean.some((line) => line.includes('"outcome":"suspended"'))).toBe(true);
    // Every property read in the chat code sees an inherited key here, as a polluted prototype
    // offers it. (The pollution is not enumerable: see the next test for what enumerable keys do.)
    expect(await polluted(false, () => conversation(make()))).toEqual(clean);
  });

  it.each([
    ['in-memory', () => new InMemorySessionStore()],
    ['SQLite', () => new SqliteSessionStore(':memory:')],
  ] as const)('answers and saves the same under enumerable pollution (%s store)', async (_, make) => {
    // Enumerable keys on Object.prototype are also visited by for...in (valibot walks its object
    // schemas' entries that way): the ChatMessage schemas keep their entries off the prototype.
    const clean = await conversation(make());
    const store = make();
    expect(await polluted(true, () => conversation(store))).toEqual(clean);
    expect(JSON.stringify(await store.load('s'))).not.toMatch(/evil/);
  });
});

describe('send() over thousands of generated inputs (seeded)', () => {
  const anything = fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withTypedArray: true,
    withSparseArray: true,
    withBoxedValues: true,
    withObjectString: true,
    maxDepth: 3,
  });
  const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', ' ', 'call_1', '\u0000', '\ud800'));
  const toolCall = fc.record({
    id: text,
    name: text,
    arguments: fc.oneof(fc.dictionary(text, anything, { maxKeys: 3 }), anything),
  });
  const message = fc.oneof(
    fc.record({ role: fc.constantFrom('user', 'system'), content: fc.oneof(text, anything) }),
    fc.record(
      {
        role: fc.constant('assistant'),
        content: fc.oneof(text, fc.constant([])),
        tool_calls: fc.array(toolCall, { maxLength: 2 }),
      },
      { requiredKeys: ['role'] },
    ),
    fc.record(
      { role: fc.constant('tool'), tool_call_id: text, content: fc.oneof(text, anything) },
      { requiredKeys: ['role'] },
    ),
    fc.record(
      { role: fc.constantFrom('user', 'developer', 'assistant'), content: text, extra: anything },
      { requiredKeys: ['role'] },
    ),
    anything,
  );
  // Getters and traps that throw are built inside the property: fast-check inspects what its
  // arbitraries produce, and would trip over them itself.
  type Recipe =
    | { readonly kind: 'plain'; readonly value: unknown }
    | { readonly kind: 'getter'; readonly value: unknown; readonly key: string }
    | { readonly kind: 'trap'; readonly trap: keyof ProxyHandler<object> };
  const recipe: fc.Arbitrary<Recipe> = fc.oneof(
    { weight: 6, arbitrary: message.map((value) => ({ kind: 'plain' as const, value })) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('getter' as const),
        value: message,
        key: fc.constantFrom('content', 'role', 'tool_calls', 'x'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('trap' as const),
        trap: fc.constantFrom<keyof ProxyHandler<object>>(
          'get',
          'ownKeys',
          'getPrototypeOf',
          'getOwnPropertyDescriptor',
          'has',
        ),
      }),
    },
  );
  const build = (r: Recipe): unknown => {
    if (r.kind === 'trap') return throwingTrap(r.trap);
    if (r.kind === 'getter' && r.value !== null && typeof r.value === 'object')
      return throwingGetter(r.value as Record<string, unknown>, r.key);
    return r.value;
  };
  const sessionId = fc.oneof({ weight: 9, arbitrary: fc.constantFrom('p', 'q') }, { weight: 1, arbitrary: anything });

  /** Echoes; asks for a tool and answers it when told to; leaves a call open when told to. */
  const graph = sequentialGraph({
    entry: 'n',
    nodes: {
      n: (state) => {
        const last = state.messages.at(-1) as { content?: unknown };
        if (last.content === 'call_1')
          return {
            messages: [
              {
                role: 'assistant',
                content: [],
                tool_calls: [{ id: `t${state.messages.length}`, name: 'x', arguments: {} }],
              },
              { role: 'tool', tool_call_id: `t${state.messages.length}`, content: 'done' },
            ],
          };
        if (last.content === ' ')
          return {
            messages: [{ role: 'assistant', content: [], tool_calls: [{ id: 'open', name: 'x', arguments: {} }] }],
          };
        return { messages: [{ role: 'assistant', content: 'ok' }] };
      },
    },
    edges: [],
  });

  it.each([
    ['in-memory', () => new InMemorySessionStore(), 2500],
    ['SQLite', () => new SqliteSessionStore(':memory:'), 500],
  ] as const)('always resolves, and a failed turn leaves the %s store as it was', async (_, make, numRuns) => {
    const store = make();
    const harness = createChatHarness({ graph, store });
    // Every write to a store goes through save, which moves the version: an unchanged version and
    // history length mean the store is as it was.
    const stored = async () =>
      JSON.stringify(
        await Promise.all(
          ['p', 'q'].map(async (id) => [await store.version?.(id), (await store.load(id))?.state.messages.length]),
        ),
      );
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(sessionId, recipe, async (id, r) => {
        const before = await stored();
        // biome-ignore lint/plugin: the property sends any value, as code outside TypeScript may
        const outcome = await harness.send(id as never, build(r) as never);
        expect(['completed', 'errored', 'suspended']).toContain(outcome.outcome);
        if (outcome.outcome === 'errored') {
          expect(await stored()).toBe(before);
          expect(outcome.reply.role).toBe('system');
        } else completed++;
      }),
      { seed: 15, numRuns },
    );
    expect(completed).toBeGreaterThan(numRuns / 20);
  });
});

describe('hostile values in replies, stored messages and listeners', () => {
  const quiet = sequentialGraph({ entry: 'n', nodes: { n: () => undefined }, edges: [] });
  const hostile = `${'x'.repeat(5000)}\u001b[31m\u0007\u202e`;

  it('quotes a sent value in the reply bounded, with control characters escaped', async () => {
    const harness = createChatHarness({ graph: quiet });
    for (const message of [
      { role: hostile, content: 'hi' },
      { role: 'tool', tool_call_id: hostile, content: 'x' },
      { role: 'user', content: [{ type: hostile }] },
    ]) {
      const outcome = await harness.send('s', message as ChatMessage);
      const reply = outcome.outcome === 'errored' ? String(outcome.reply.content) : '';
      expect(reply.length).toBeGreaterThan(0);
      expect(reply.length).toBeLessThan(600);
      expect([...reply].filter((c) => c < ' ' || c === '\u007f' || c === '\u202e')).toEqual([]);
    }
  });

  it('stores a message as validation read it: a block field ChatMessage does not have is dropped', async () => {
    const store = new InMemorySessionStore();
    const harness = createChatHarness({ graph: quiet, store });
    const sent: unknown = {
      role: 'user',
      content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }],
    };
    expect((await harness.send('s', sent as ChatMessage)).outcome).toBe('completed');
    const checked = validateChatMessage(sent);
    expect(checked.ok && (await store.load('s'))?.state.messages).toEqual([checked.ok ? checked.value : undefined]);
    expect((await store.load('s'))?.state.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
  });

  it('reports an async listener that rejects through onListenerError, and warns by default', async () => {
    const approval = sequentialGraph({
      entry: 'gate',
      nodes: { gate: () => suspend({ signal_id: 'ok' }), after: () => undefined },
      edges: [{ from: 'gate', to: 'after' }],
    });
    const failures: unknown[] = [];
    const harness = createChatHarness({
      graph: approval,
      onListenerError: (error, sessionId) => failures.push([(error as Error).message, sessionId]),
    });
    harness.subscribe('s', async () => {
      throw new Error('listener failed');
    });
    await harness.send('s', { role: 'user', content: 'go' });
    expect((await harness.signal('ok', {}))?.outcome).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failures).toEqual([['listener failed', 's']]);

    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => warnings.push(`${warning.code}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const plain = createChatHarness({ graph: approval });
      plain.subscribe('t', async () => {
        throw new Error('default path');
      });
      await plain.send('t', { role: 'user', content: 'go' });
      await plain.signal('ok', {});
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual(['TURNGATE_LISTENER_FAILED: a chat listener of session "t" failed: Error: default path']);
  });
});
