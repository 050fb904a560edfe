/**
 * The PostgreSQL store's lease after failures (lease.ts, postgres-lease.ts): a turn cut off by an
 * outage gives its lease back when the server returns; a retried send takes over its own lease;
 * a save names what became of its lease; `outcomeUnknown` only for a statement that may have
 * reached the server. The outages go through a proxy (test/postgres/proxy.ts), so the shared
 * server never stops. Runs when TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { describe, expect, it } from 'vitest';
import {
  createChatHarness,
  SessionLockTimeout,
  SessionStoreUnavailable,
  SessionWriteConflict,
  sequentialGraph,
} from '../../src/chat/index.ts';
import type { ChatMessage } from '../../src/transcripts/index.ts';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { startProxy } from './proxy.ts';
import { admin, connection, freshPrefix as prefixOf } from './database.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The holder token of the session's lock row (null: nobody holds it; undefined: no row). */
async function holderOf(prefix: string, sessionId: string): Promise<string | null | undefined> {
  const rows = (await admin.query(`SELECT holder FROM ${prefix}_locks WHERE session_id = $1`, [sessionId])).rows;
  return (rows[0] as { holder: string | null } | undefined)?.holder;
}

describe('the PostgreSQL lease after failures', () => {
  it('a turn cut off by an outage releases its lease once the server is back, long before the lease runs out', async () => {
    const tablePrefix = prefixOf('tg_lease');
    const proxy = await startProxy(connection);
    // The default lease (30 s): a lease left behind would outlast every wait below.
    const cut = new PostgresSessionStore(proxy.url, { tablePrefix, connectTimeoutMs: 500 });
    const other = new PostgresSessionStore(connection, { tablePrefix, lockTimeoutMs: 5000 });
    try {
      const graph = sequentialGraph({
        entry: 'n',
        nodes: {
          n: () => {
            proxy.down(); // the server goes away while the turn runs: its save and release fail
            return { messages: [{ role: 'assistant', content: 'lost' }] };
          },
        },
        edges: [],
      });
      const outcome = await createChatHarness({ graph, store: cut }).send('s', user('one'));
      expect(outcome.outcome === 'errored' && outcome.errorBucket).toBe('retryable_transient');
      expect(await holderOf(tablePrefix, 's')).toEqual(expect.any(String)); // the lease is still held
      await sleep(300);
      proxy.up();
      // Another store takes the session within its 5 s lock timeout: the release was retried.
      const version = await other.withSessionLock('s', async (session) =>
        session.save({ state: { messages: [user('other')] } }, await session.version()),
      );
      expect(version).toBe(1);
    } finally {
      await cut.close();
      await other.close();
      await proxy.close();
    }
  });

  it('a retried send takes over its own lease at once; another send, or another store object, waits', async () => {
    const tablePrefix = prefixOf('tg_lease');
    const store = new PostgresSessionStore(connection, { tablePrefix, lockTimeoutMs: 300 });
    const elsewhere = new PostgresSessionStore(connection, { tablePrefix, lockTimeoutMs: 300 });
    try {
      let token: string | null | undefined;
      await store.withSessionLock(
        's',
        async () => {
          token = await holderOf(tablePrefix, 's');
        },
        { sendKey: 'k-1' },
      );
      // The send's lease as a failed release leaves it: held by its token, far from running out.
      await admin.query(
        `UPDATE ${tablePrefix}_locks SET holder = $1, expires_at = clock_timestamp() + interval '1 hour' WHERE session_id = 's'`,
        [token],
      );
      const held = (options: { sendKey?: string }, on = store) =>
        on.withSessionLock('s', async (session) => session.version(), options).catch((error: unknown) => error);
      expect(await held({ sendKey: 'k-2' })).toBeInstanceOf(SessionLockTimeout);
      expect(await held({})).toBeInstanceOf(SessionLockTimeout);
      expect(await held({ sendKey: 'k-1' }, elsewhere)).toBeInstanceOf(SessionLockTimeout);
      expect(await held({ sendKey: 'k-1' })).toBe(0);
      // Its end released the lease: anyone takes the session now.
      expect(await held({}, elsewhere)).toBe(0);
    } finally {
      await store.close();
      await elsewhere.close();
    }
  });

  it('a save whose lease was lost while nobody took the session saves; one whose lease another holds is refused, naming it', async () => {
    const tablePrefix = prefixOf('tg_lease');
    const store = new PostgresSessionStore(connection, { tablePrefix });
    try {
      await store.save('s', { state: { messages: [user('first')] } }, 0);
      // A server crash empties the (unlogged) lock table under a running turn.
      const saved = await store.withSessionLock('s', async (session) => {
        const version = await session.version();
        await admin.query(`DELETE FROM ${tablePrefix}_locks WHERE session_id = 's'`);
        return session.save({ state: { messages: [user('first'), user('second')] } }, version);
      });
      expect(saved).toBe(2);
      const refused = await store.withSessionLock('s', async (session) => {
        const version = await session.version();
        await admin.query(`UPDATE ${tablePrefix}_locks SET holder = 'taker' WHERE session_id = 's'`);
        return session.save({ state: { messages: [] } }, version).catch((error: unknown) => error);
      });
      expect(refused).toBeInstanceOf(SessionWriteConflict);
      expect((refused as Error).message).toMatch(/another turn holds it/);
      expect((await store.load('s'))?.version).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('marks a failed save outcomeUnknown only when its statement may have reached the server', async () => {
    const tablePrefix = prefixOf('tg_lease');
    const proxy = await startProxy(connection);
    const store = new PostgresSessionStore(proxy.url, { tablePrefix, connectTimeoutMs: 500 });
    try {
      await store.save('s', { state: { messages: [] } }, 0);
      const failedSave = (before: () => Promise<void> | undefined) =>
        store.withSessionLock('s', async (session) => {
          const version = await session.version();
          await before();
          return session.save({ state: { messages: [user('x')] } }, version).catch((error: unknown) => error);
        });
      // No connection could be made (the pool's idle ones closed too): never sent.
      const unsent = await failedSave(async () => {
        proxy.down();
        await sleep(100);
      });
      proxy.up();
      expect(unsent).toBeInstanceOf(SessionStoreUnavailable);
      expect((unsent as SessionStoreUnavailable).outcomeUnknown).toBe(false);
      await sleep(100); // the lease's release, retried, lands
      // The save's COMMIT reached the server and its answer was lost: unknown (here it committed).
      proxy.loseAnswers('COMMIT', (count) => count === 1);
      const lost = await failedSave(() => undefined);
      expect(lost).toBeInstanceOf(SessionStoreUnavailable);
      expect((lost as SessionStoreUnavailable).outcomeUnknown).toBe(true);
      expect((await store.load('s'))?.version).toBe(2);
    } finally {
      await store.close();
      await proxy.close();
    }
  });
});
