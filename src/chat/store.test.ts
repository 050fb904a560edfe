import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createChatHarness,
  InMemorySessionStore,
  SessionWriteConflict,
  sequentialGraph,
  type ChatGraph,
  type SessionStore,
} from './index.ts';
import { SqliteSessionStore } from './sqlite.ts';

const stores: [string, () => SessionStore][] = [
  ['in-memory', () => new InMemorySessionStore()],
  ['SQLite', () => new SqliteSessionStore(':memory:')],
];

describe.each(stores)('%s session store', (_name, make) => {
  it('round-trips records and versions, and refuses a stale version', async () => {
    const store = make();
    expect(await store.load('s')).toBeUndefined();
    expect(await store.save('s', { state: { messages: [{ role: 'user', content: 'hi' }], n: 1 } }, 0)).toBe(1);
    expect(await store.save('s', { state: { messages: [] } }, 1)).toBe(2);
    await expect(store.save('s', { state: { messages: [] } }, 1)).rejects.toBeInstanceOf(SessionWriteConflict);
    await expect(store.save('s', { state: { messages: [] } }, 0)).rejects.toBeInstanceOf(SessionWriteConflict);
    expect(await store.load('s')).toEqual({ version: 2, state: { messages: [] } });
    await store.delete('s');
    expect(await store.load('s')).toBeUndefined();
  });

  it('does not let callers change what is stored except through save', async () => {
    const store = make();
    const record = { state: { messages: [{ role: 'user' as const, content: 'a' }] } };
    await store.save('s', record, 0);
    (record.state.messages as unknown[]).push({ role: 'user', content: 'b' });
    const loaded = await store.load('s');
    (loaded?.state.messages as unknown[] | undefined)?.push({ role: 'user', content: 'c' });
    expect(loaded).toBeDefined();
    expect((await store.load('s'))?.state.messages).toHaveLength(1);
  });

  it('appends only new messages, and still saves a history a graph rewrote', async () => {
    const store = make();
    let rewrite = false;
    const graph: ChatGraph = {
      async invoke(state) {
        if (rewrite)
          return {
            outcome: 'completed',
            state: {
              ...state,
              messages: [{ role: 'system', content: 'summary of earlier turns' }, ...state.messages.slice(-1)],
            },
          };
        return sequentialGraph({
          entry: 'n',
          nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'ok' }] }) },
          edges: [],
        }).invoke(state, { invocationId: 'i' });
      },
    };
    const harness = createChatHarness({ graph, store });
    for (let i = 0; i < 5; i++) await harness.send('s', { role: 'user', content: `m${i}` });
    expect((await store.load('s'))?.state.messages).toHaveLength(10);
    rewrite = true;
    await harness.send('s', { role: 'user', content: 'last' });
    expect((await store.load('s'))?.state.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('ignores an unchangedPrefix hint that does not match what it stores', async () => {
    const store = make();
    await store.save('s', { state: { messages: [{ role: 'user', content: 'a' }] } }, 0);
    await store.save(
      's',
      {
        state: {
          messages: [
            { role: 'user', content: 'b' },
            { role: 'user', content: 'c' },
          ],
        },
      },
      1,
      { unchangedPrefix: 7 },
    );
    expect((await store.load('s'))?.state.messages.map((m) => (m as { content: string }).content)).toEqual(['b', 'c']);
  });

  it('leaves the stored session byte-identical when a graph produces state that is not JSON', async () => {
    const store = make();
    const graph = sequentialGraph({
      entry: 'n',
      nodes: {
        n: (state) =>
          state.messages.length > 2
            ? { messages: [{ role: 'assistant', content: 'x' }], bad: { f: () => 1, n: 10n } }
            : { messages: [{ role: 'assistant', content: 'ok' }] },
      },
      edges: [],
    });
    const harness = createChatHarness({ graph, store });
    await harness.send('s', { role: 'user', content: 'one' });
    const before = JSON.stringify(await store.load('s'));
    const outcome = await harness.send('s', { role: 'user', content: 'two' });
    expect(outcome).toMatchObject({
      outcome: 'errored',
      errorCategory: 'graph_programming_error',
      errorBucket: 'session_terminating',
    });
    expect(outcome.outcome === 'errored' && (outcome.cause as Error).message).toMatch(
      /bad\.f: a function is not JSON data/,
    );
    expect(JSON.stringify(await store.load('s'))).toBe(before);
  });
});

describe('SqliteSessionStore', () => {
  it('keeps sessions across a reopen of the database file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-sqlite-')), 'chat.db');
    const first = new SqliteSessionStore(path);
    await createChatHarness({
      graph: sequentialGraph({
        entry: 'n',
        nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'stored' }] }) },
        edges: [],
      }),
      store: first,
    }).send('durable', { role: 'user', content: 'hi' });
    first.close();
    const second = new SqliteSessionStore(path);
    expect((await second.load('durable'))?.state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    second.close();
  });

  it('refuses a table prefix that is not an identifier', () => {
    expect(() => new SqliteSessionStore(':memory:', { tablePrefix: 'x; DROP TABLE y' })).toThrow(TypeError);
  });
});
