import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStoreSuite } from '../../test/session-store-suite.ts';
import {
  createChatHarness,
  InMemorySessionStore,
  type SendRecord,
  SessionLockTimeout,
  SessionStoreUnavailable,
  sequentialGraph,
} from './index.ts';
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
    locksAcrossStores: true,
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
      code: 'session_write_conflict',
    });
    expect((await b.load('s'))?.state.messages).toEqual([{ role: 'user', content: 'two' }]);
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

/** A database file in a fresh directory, and how to remove it. */
function scratch(): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-sqlite-'));
  return { path: join(dir, 'chat.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const hello = { role: 'user', content: 'hello' } as const;
const echo = sequentialGraph({
  entry: 'n',
  nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'hi' }] }) },
  edges: [],
});

describe('SqliteSessionStore: kept sends', () => {
  it('keeps them in <prefix>_sends (session_id, send_key, version, record), keyed by session and key, without rowid', () => {
    const store = new SqliteSessionStore(':memory:', { tablePrefix: 'support' });
    const db = new Database(':memory:');
    const shared = new SqliteSessionStore(db, { tablePrefix: 'support' });
    const columns = db.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all('support_sends');
    expect(columns).toEqual([
      { name: 'session_id', pk: 1 },
      { name: 'send_key', pk: 2 },
      { name: 'version', pk: 0 },
      { name: 'record', pk: 0 },
    ]);
    const sql = db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'support_sends'`).get() as { sql: string };
    expect(sql.sql).toMatch(/WITHOUT ROWID$/);
    shared.close();
    db.close();
    store.close();
  });

  it('counts only keyed sends toward sendKeysKept: a save without a key forgets none', async () => {
    const store = new SqliteSessionStore(':memory:', { sendKeysKept: 2 });
    const send = (key: string): SendRecord => ({
      key,
      messageDigest: `sha256:${key}`,
      outcome: { outcome: 'completed', replies: [], dispatchPath: '3.2' },
    });
    await store.save('s', { state: { messages: [] } }, 0, { send: send('k1') });
    await store.save('s', { state: { messages: [] } }, 1, { send: send('k2') });
    await store.save('s', { state: { messages: [] } }, 2);
    await store.save('s', { state: { messages: [] } }, 3, {
      resumed: { signalId: 'sig', invocationId: 'inv', resumedBy: 'h', replies: [] },
    });
    expect([await store.findSend('s', 'k1'), await store.findSend('s', 'k2')]).toEqual([send('k1'), send('k2')]);
    await store.save('s', { state: { messages: [] } }, 4, { send: send('k3') });
    expect(await store.findSend('s', 'k1')).toBeUndefined();
    store.close();
  });

  it('refuses a sendKeysKept that is not an integer >= 0, naming the option', () => {
    for (const bad of [-1, 1.5, Number.NaN, '10'])
      expect(() => new SqliteSessionStore(':memory:', { sendKeysKept: bad as number })).toThrow(
        `SqliteSessionStore: options.sendKeysKept: expected an integer >= 0, got ${String(bad)}`,
      );
    const none = new SqliteSessionStore(':memory:', { sendKeysKept: 0 });
    none.close();
  });

  it('replays a keyed send for another process on the same file (a second store object)', async () => {
    const { path, remove } = scratch();
    const a = new SqliteSessionStore(path);
    const b = new SqliteSessionStore(path);
    let runs = 0;
    const graph = sequentialGraph({
      entry: 'n',
      nodes: { n: () => ({ messages: [{ role: 'assistant', content: `reply ${++runs}` }] }) },
      edges: [],
    });
    const first = await createChatHarness({ graph, store: a }).send('s', hello, { idempotencyKey: 'req-1' });
    const again = await createChatHarness({ graph, store: b }).send('s', hello, { idempotencyKey: 'req-1' });
    expect(again).toMatchObject({ outcome: 'completed', replayed: true, replies: [{ content: 'reply 1' }] });
    expect(first).toMatchObject({ replies: [{ content: 'reply 1' }] });
    expect(runs).toBe(1);
    a.close();
    b.close();
    remove();
  });
});

describe('SqliteSessionStore: errors by cause', () => {
  it('throws SessionStoreUnavailable (busy, not outcomeUnknown, the SQLite error as cause) for a save or delete on a busy database', async () => {
    const { path, remove } = scratch();
    const db = new Database(path, { timeout: 0 });
    const store = new SqliteSessionStore(db);
    await store.save('s', { state: { messages: [hello] } }, 0);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const saving = await store.save('s', { state: { messages: [] } }, 1).catch((e: unknown) => e);
    expect(saving).toBeInstanceOf(SessionStoreUnavailable);
    expect(saving).toMatchObject({ code: 'busy', outcomeUnknown: false, cause: { code: 'SQLITE_BUSY' } });
    expect((saving as Error).message).toBe(
      'SqliteSessionStore: save of session "s": the database is busy (SQLITE_BUSY)',
    );
    await expect(store.delete('s')).rejects.toMatchObject({ code: 'busy', cause: { code: 'SQLITE_BUSY' } });
    other.exec('ROLLBACK');
    expect(await store.load('s')).toEqual({ version: 1, state: { messages: [hello] } });
    expect(await store.save('s', { state: { messages: [] } }, 1)).toBe(2);
    other.close();
    store.close();
    db.close();
    remove();
  });

  it('answers a save on a busy database as retryable_transient; the turn saved nothing, so its keyed retry runs', async () => {
    const { path, remove } = scratch();
    const db = new Database(path, { timeout: 0 });
    const store = new SqliteSessionStore(db);
    const other = new Database(path);
    let runs = 0;
    const graph = sequentialGraph({
      entry: 'n',
      nodes: {
        n: () => {
          runs++;
          // Another process takes the write lock while the turn runs; it holds it past the save.
          if (runs === 1) other.exec('BEGIN IMMEDIATE');
          return { messages: [{ role: 'assistant', content: `reply ${runs}` }] };
        },
      },
      edges: [],
    });
    const harness = createChatHarness({ graph, store });
    const failed = await harness.send('s', hello, { idempotencyKey: 'req-1' });
    expect(failed).toMatchObject({
      outcome: 'errored',
      errorBucket: 'retryable_transient',
      errorCategory: 'session_save_failed',
    });
    const cause = (failed as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(SessionStoreUnavailable);
    expect(cause).toMatchObject({ code: 'busy', outcomeUnknown: false, cause: { code: 'SQLITE_BUSY' } });
    other.exec('ROLLBACK');
    expect(await store.load('s')).toBeUndefined();
    const retried = await harness.send('s', hello, { idempotencyKey: 'req-1' });
    expect(retried).toMatchObject({ outcome: 'completed', replies: [{ content: 'reply 2' }] });
    expect(retried).not.toHaveProperty('replayed');
    other.close();
    store.close();
    db.close();
    remove();
  });

  it('waits for the session while the database is busy, then times out as SessionLockTimeout (retryable_transient)', async () => {
    const { path, remove } = scratch();
    const db = new Database(path, { timeout: 0 });
    const store = new SqliteSessionStore(db, { lockTimeoutMs: 20 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(store.withSessionLock('s', async () => 'ran')).rejects.toBeInstanceOf(SessionLockTimeout);
    const outcome = await createChatHarness({ graph: echo, store }).send('s', hello);
    expect(outcome).toMatchObject({
      outcome: 'errored',
      errorBucket: 'retryable_transient',
      errorCategory: 'session_load_failed',
    });
    other.exec('ROLLBACK');
    expect(await store.withSessionLock('s', async () => 'ran')).toBe('ran');
    other.close();
    store.close();
    db.close();
    remove();
  });

  it('keeps what the body returned when the lock cannot be released at once, and releases it when the database is free', async () => {
    const { path, remove } = scratch();
    const db = new Database(path, { timeout: 0 });
    const store = new SqliteSessionStore(db);
    const later = new SqliteSessionStore(path, { lockTimeoutMs: 10_000 });
    const other = new Database(path);
    const result = await store.withSessionLock('s', async (session) => {
      await session.save({ state: { messages: [hello] } }, 0);
      other.exec('BEGIN IMMEDIATE');
      return 'saved';
    });
    expect(result).toBe('saved');
    other.exec('ROLLBACK');
    // Another process gets the session without waiting for the lease (30 s) to run out.
    expect(await later.withSessionLock('s', async (session) => session.version())).toBe(1);
    // A body that fails because the database is busy keeps the release's failure beside its own.
    const failed = await store
      .withSessionLock('s', async (session) => {
        other.exec('BEGIN IMMEDIATE');
        return session.save({ state: { messages: [] } }, 1);
      })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SessionStoreUnavailable);
    expect(failed).toMatchObject({
      code: 'busy',
      cause: { code: 'SQLITE_BUSY' },
      cleanupError: { code: 'SQLITE_BUSY' },
    });
    other.exec('ROLLBACK');
    expect(await later.withSessionLock('s', async (session) => session.version())).toBe(1);
    // Closing the store drops a lock row whose release is still pending, before any retry ran.
    await store.withSessionLock('t', async () => {
      other.exec('BEGIN IMMEDIATE');
    });
    other.exec('ROLLBACK');
    expect(other.prepare(`SELECT session_id FROM turngate_locks`).all()).toEqual([{ session_id: 't' }]);
    store.close();
    expect(other.prepare(`SELECT session_id FROM turngate_locks`).all()).toEqual([]);
    other.close();
    later.close();
    store.close();
    db.close();
    remove();
  });

  it('leaves other SQLite errors and a closed database as they are (session_terminating)', async () => {
    const { path, remove } = scratch();
    const writer = new SqliteSessionStore(path);
    await writer.save('s', { state: { messages: [] } }, 0);
    const readonly = new Database(path, { readonly: true });
    const store = new SqliteSessionStore(readonly);
    await expect(store.save('s', { state: { messages: [] } }, 1)).rejects.toMatchObject({
      name: 'SqliteError',
      code: 'SQLITE_READONLY',
    });
    const outcome = await createChatHarness({ graph: echo, store }).send('s', hello);
    expect(outcome).toMatchObject({ outcome: 'errored', errorBucket: 'session_terminating' });
    expect((outcome as { cause?: unknown }).cause).toMatchObject({ code: 'SQLITE_READONLY' });
    writer.close();
    await expect(writer.load('s')).rejects.toThrow(TypeError);
    await expect(writer.load('s')).rejects.not.toBeInstanceOf(SessionStoreUnavailable);
    readonly.close();
    remove();
  });
});
