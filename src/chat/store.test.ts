import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStoreSuite } from '../../test/session-store-suite.ts';
import { createChatHarness, InMemorySessionStore, sequentialGraph } from './index.ts';
import { SqliteSessionStore } from './sqlite.ts';

sessionStoreSuite('in-memory', (options) => ({ store: new InMemorySessionStore(options), locksAcrossStores: false }));

sessionStoreSuite('SQLite', (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-sqlite-'));
  const path = join(dir, 'chat.db');
  const opened: SqliteSessionStore[] = [new SqliteSessionStore(path, options)];
  return {
    store: opened[0] as SqliteSessionStore,
    reopen: () => {
      const again = new SqliteSessionStore(path, options);
      opened.push(again);
      return again;
    },
    locksAcrossStores: false,
    dispose: () => {
      for (const store of opened) store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteSessionStore', () => {
  it('keeps sessions across a reopen of the database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-sqlite-'));
    const path = join(dir, 'chat.db');
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
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a table prefix that is not an identifier', () => {
    expect(() => new SqliteSessionStore(':memory:', { tablePrefix: 'x; DROP TABLE y' })).toThrow(TypeError);
  });

  it('meets a second process writing the same session as a write conflict, not a torn session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-sqlite-'));
    const path = join(dir, 'chat.db');
    const a = new SqliteSessionStore(path);
    const b = new SqliteSessionStore(path);
    await a.save('s', { state: { messages: [{ role: 'user', content: 'one' }] } }, 0);
    const loadedByB = await b.load('s');
    await a.save('s', { state: { messages: [{ role: 'user', content: 'two' }] } }, 1);
    await expect(b.save('s', { state: { messages: [] } }, loadedByB?.version ?? 0)).rejects.toMatchObject({
      category: 'session_write_conflict',
    });
    expect((await b.load('s'))?.state.messages).toEqual([{ role: 'user', content: 'two' }]);
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
