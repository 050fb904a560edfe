import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatHarness, InMemorySessionStore, SessionWriteConflict, sequentialGraph, type SessionStore } from './index.ts';
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
    (loaded?.state.messages as unknown[]).push({ role: 'user', content: 'c' });
    expect((await store.load('s'))?.state.messages).toHaveLength(1);
  });

  it('leaves the stored session byte-identical when a save fails inside the harness', async () => {
    const store = make();
    const graph = sequentialGraph({
      entry: 'n',
      nodes: { n: (state) => (state.messages.length > 2 ? { messages: [{ role: 'assistant', content: 'x' }], bad: { f: () => 1, n: 10n } } : { messages: [{ role: 'assistant', content: 'ok' }] }) },
      edges: [],
    });
    const harness = createChatHarness({ graph, store });
    await harness.send('s', { role: 'user', content: 'one' });
    const before = JSON.stringify(await store.load('s'));
    const outcome = await harness.send('s', { role: 'user', content: 'two' });
    expect(outcome).toMatchObject({ outcome: 'errored', errorCategory: 'session_save_failed', errorBucket: 'session_terminating' });
    expect(JSON.stringify(await store.load('s'))).toBe(before);
  });
});

describe('SqliteSessionStore', () => {
  it('keeps sessions across a reopen of the database file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-sqlite-')), 'chat.db');
    const first = new SqliteSessionStore(path);
    await createChatHarness({ graph: sequentialGraph({ entry: 'n', nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'stored' }] }) }, edges: [] }), store: first }).send('durable', { role: 'user', content: 'hi' });
    first.close();
    const second = new SqliteSessionStore(path);
    expect((await second.load('durable'))?.state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    second.close();
  });

  it('refuses a table name that is not an identifier', () => {
    expect(() => new SqliteSessionStore(':memory:', { table: 'x; DROP TABLE y' })).toThrow(TypeError);
  });
});
