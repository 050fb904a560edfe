/**
 * The session store suite against PostgreSQL, and what only PostgreSQL can show: turns of one
 * session from several store objects (processes) run one at a time, and a connection that dies
 * mid-turn leaves the session whole. Runs when TURNGATE_PG_URL is set (scripts/test.sh).
 */
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  createChatHarness,
  sequentialGraph,
  SessionStoreUnavailable,
  SessionWriteConflict,
} from '../../src/chat/index.ts';
import type { ChatMessage } from '../../src/transcripts/index.ts';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { restartAndResume } from '../restart.ts';
import { sessionStoreSuite } from '../session-store-suite.ts';
import { admin, connection, freshPrefix as prefixOf } from './database.ts';

sessionStoreSuite('PostgreSQL', (options) => {
  const tablePrefix = prefixOf('tg_test');
  const opened: PostgresSessionStore[] = [new PostgresSessionStore(connection, { ...options, tablePrefix })];
  return {
    store: opened[0] as PostgresSessionStore,
    reopen: () => {
      const again = new PostgresSessionStore(connection, { ...options, tablePrefix });
      opened.push(again);
      return again;
    },
    locksAcrossStores: true,
    dispose: async () => {
      for (const store of opened) await store.close();
    },
  };
});

const user = (content: string): ChatMessage => ({ role: 'user', content });
const echo = sequentialGraph({
  entry: 'n',
  nodes: {
    n: async (state) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      const last = state.messages.at(-1) as { content: string };
      return { messages: [{ role: 'assistant', content: `echo ${last.content}` }] };
    },
  },
  edges: [],
});

describe('PostgresSessionStore', () => {
  it('creates its tables once when many stores start together', async () => {
    const tablePrefix = prefixOf('tg_test');
    const stores = Array.from({ length: 6 }, () => new PostgresSessionStore(connection, { tablePrefix }));
    await Promise.all(stores.map((store, i) => store.save(`s${i}`, { state: { messages: [] } }, 0)));
    expect((await stores[0]?.listSuspended()) ?? []).toEqual([]);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('runs the turns of one session one at a time across store objects, none lost', async () => {
    const tablePrefix = prefixOf('tg_test');
    const stores = Array.from({ length: 4 }, () => new PostgresSessionStore(connection, { tablePrefix }));
    const harnesses = stores.map((store) => createChatHarness({ graph: echo, store }));
    const outcomes = await Promise.all(
      harnesses.flatMap((harness, h) =>
        Array.from({ length: 10 }, (_, i) => harness.send('shared', user(`h${h}-${i}`))),
      ),
    );
    expect(outcomes.every((o) => o.outcome === 'completed')).toBe(true);
    const history = (await stores[0]?.load('shared'))?.state.messages ?? [];
    expect(history).toHaveLength(80);
    for (let i = 0; i < history.length; i += 2) {
      const asked = (history[i] as { content: string }).content;
      expect(history[i + 1]).toEqual({ role: 'assistant', content: `echo ${asked}` });
    }
    for (let h = 0; h < 4; h++) {
      const mine = history.filter((m) => m.role === 'user' && (m.content as string).startsWith(`h${h}-`));
      expect(mine.map((m) => m.content)).toEqual(Array.from({ length: 10 }, (_, i) => `h${h}-${i}`));
    }
    await Promise.all(stores.map((store) => store.close()));
  });

  it('holds no connection while a turn runs: its connection dying mid-turn loses nothing', async () => {
    const tablePrefix = prefixOf('tg_test');
    const application_name = `turngate-test-${tablePrefix}`;
    const store = new PostgresSessionStore({ connectionString: connection, application_name }, { tablePrefix });
    await store.save('s', { state: { messages: [user('kept')] } }, 0);
    let during: { inTransaction: number; terminated: number } = { inTransaction: -1, terminated: -1 };
    await store.withSessionLock('s', async (session) => {
      const version = await session.version();
      during = await terminateBackends(application_name);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await session.save({ state: { messages: [user('kept'), user('added')] } }, version);
    });
    expect(during.inTransaction).toBe(0);
    expect(during.terminated).toBeGreaterThan(0);
    expect((await store.load('s'))?.state.messages).toEqual([user('kept'), user('added')]);
    await store.close();
  });

  it('a pooled connection the server ended while idle is not a failed save: the save begins again on a fresh one', async () => {
    const tablePrefix = prefixOf('tg_test');
    const application_name = `turngate-test-${tablePrefix}`;
    const store = new PostgresSessionStore({ connectionString: connection, application_name }, { tablePrefix });
    let version = await store.save('s', { state: { messages: [user('m0')] } }, 0);
    const messages = [user('m0')];
    for (let round = 1; round <= 10; round++) {
      // Every idle connection of the pool ended by the server, and the save at once, with no pause
      // for the pool to hear of it: the first BEGIN may go to a dead connection.
      expect((await terminateBackends(application_name)).terminated).toBeGreaterThan(0);
      messages.push(user(`m${round}`));
      version = await store.save('s', { state: { messages: [...messages] } }, version);
    }
    expect((await store.load('s'))?.state.messages).toEqual(messages);
    await store.close();
  });

  it("runs a turn whose node takes longer than the server's idle-in-transaction timeout", async () => {
    const tablePrefix = prefixOf('tg_test');
    const store = new PostgresSessionStore(
      { connectionString: connection, options: '-c idle_in_transaction_session_timeout=1000' },
      { tablePrefix },
    );
    const slow = sequentialGraph({
      entry: 'n',
      nodes: {
        n: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          return { messages: [{ role: 'assistant', content: 'slow' }] };
        },
      },
      edges: [],
    });
    const harness = createChatHarness({ graph: slow, store });
    const outcomes = await Promise.all([harness.send('a', user('1')), harness.send('b', user('2'))]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['completed', 'completed']);
    expect((await store.load('a'))?.state.messages).toHaveLength(2);
    await store.close();
  });

  it('frees a session whose holder died when its lease runs out, and fences the late holder', async () => {
    const tablePrefix = prefixOf('tg_test');
    const store = new PostgresSessionStore(connection, { tablePrefix, lockLeaseMs: 300 });
    await store.save('s', { state: { messages: [user('first')] } }, 0);
    // A holder that died: its lease row stays until it runs out.
    await admin.query(
      `UPDATE ${tablePrefix}_locks SET holder = 'dead', expires_at = clock_timestamp() + interval '300 milliseconds' WHERE session_id = 's'`,
    );
    const started = Date.now();
    await store.withSessionLock('s', async (session) => {
      await session.save({ state: { messages: [user('first'), user('second')] } }, await session.version());
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    // A holder whose lease ran out and was taken: its save is refused, the taker's stands.
    let late: unknown;
    await store.withSessionLock('s', async (session) => {
      const version = await session.version();
      await admin.query(`UPDATE ${tablePrefix}_locks SET holder = 'taker' WHERE session_id = 's'`);
      late = await session.save({ state: { messages: [] } }, version).catch((error: unknown) => error);
    });
    expect(late).toBeInstanceOf(SessionWriteConflict);
    expect((await admin.query(`SELECT version FROM ${tablePrefix}_sessions WHERE session_id = 's'`)).rows).toEqual([
      { version: '2' },
    ]);
    await store.close();
  });

  it('answers an unreachable server and a statement past its timeout as retryable, storing nothing', async () => {
    const unreachable = new PostgresSessionStore('postgres://turngate:x@127.0.0.1:9/none', { connectTimeoutMs: 500 });
    const outcome = await createChatHarness({ graph: echo, store: unreachable }).send('s', user('hi'));
    expect(outcome.outcome === 'errored' && [outcome.errorBucket, outcome.errorCategory]).toEqual([
      'retryable_transient',
      'session_load_failed',
    ]);
    const cause = outcome.outcome === 'errored' ? outcome.cause : undefined;
    expect(cause).toBeInstanceOf(SessionStoreUnavailable);
    expect((cause as SessionStoreUnavailable).code).toBe('unreachable');
    await unreachable.close();

    const tablePrefix = prefixOf('tg_test');
    const store = new PostgresSessionStore(connection, { tablePrefix, statementTimeoutMs: 300 });
    const harness = createChatHarness({ graph: echo, store });
    expect((await harness.send('s', user('one'))).outcome).toBe('completed');
    const before = JSON.stringify(await store.load('s'));
    const locker = await admin.connect();
    await locker.query(`BEGIN; LOCK TABLE ${tablePrefix}_sessions IN ACCESS EXCLUSIVE MODE`);
    const blocked = await harness.send('s', user('two'));
    await locker.query('ROLLBACK');
    locker.release();
    expect(blocked.outcome === 'errored' && blocked.errorBucket).toBe('retryable_transient');
    const timedOut = blocked.outcome === 'errored' ? blocked.cause : undefined;
    expect((timedOut as SessionStoreUnavailable).code).toBe('timeout');
    expect(JSON.stringify(await store.load('s'))).toBe(before);
    await store.close();
  });

  it('takes two statements per turn: one to hold and read, one to save (new, steady, reloaded)', async () => {
    const tablePrefix = prefixOf('tg_test');
    const pool = new pg.Pool({ connectionString: connection, max: 4 });
    const statements: string[] = [];
    // Every statement of every connection the pool makes is counted.
    pool.on('connect', (client) => {
      const query = client.query.bind(client);
      Reflect.set(client, 'query', (...args: Parameters<typeof query>) => {
        const [config] = args;
        statements.push(typeof config === 'string' ? config : (config as { text: string }).text);
        return query(...args);
      });
    });
    const connect = vi.spyOn(pool, 'connect');
    const store = new PostgresSessionStore(pool, { tablePrefix });
    const harness = createChatHarness({ graph: echo, store });
    await harness.send('warm', user('tables made'));
    statements.length = 0;
    // A new session's first turn: the hold reads that there is no session; the save inserts it.
    await harness.send('s', user('warm up'));
    expect(statements).toHaveLength(2);
    statements.length = 0;
    connect.mockClear();
    for (let turn = 0; turn < 5; turn++)
      expect((await harness.send('s', user(`turn ${turn}`), { idempotencyKey: `k${turn}` })).outcome).toBe('completed');
    expect(statements).toHaveLength(10);
    // pool.query borrows a connection per statement; no other connection was taken (no transaction).
    expect(connect).toHaveBeenCalledTimes(10);
    // Another process wrote: the history comes back with the hold, still two statements.
    await new PostgresSessionStore(connection, { tablePrefix }).withSessionLock('s', async (session) => {
      const record = await session.load();
      await session.save(
        { state: { messages: [...(record?.state.messages ?? []), user('elsewhere')] } },
        await session.version(),
        { unchangedPrefix: record?.state.messages.length ?? 0 },
      );
    });
    statements.length = 0;
    const outcome = await harness.send('s', user('after'));
    expect(outcome.outcome === 'completed' && outcome.finalState.messages.at(-3)).toEqual(user('elsewhere'));
    expect(statements).toHaveLength(2);
    await store.close();
    await pool.end();
  });

  it('resumes in a new process a turn that an exited process suspended', async () => {
    const tablePrefix = prefixOf('tg_test');
    const stores: PostgresSessionStore[] = [];
    await restartAndResume(['postgres', connection, tablePrefix], () => {
      const store = new PostgresSessionStore(connection, { tablePrefix });
      stores.push(store);
      return store;
    });
    await Promise.all(stores.map((store) => store.close()));
  });

  it('refuses a table prefix that is not an identifier', () => {
    expect(() => new PostgresSessionStore(connection, { tablePrefix: 'x; DROP TABLE y' })).toThrow(TypeError);
  });
});

/** Ends every server process of an application's connections; counts those inside a transaction first. */
async function terminateBackends(applicationName: string): Promise<{ inTransaction: number; terminated: number }> {
  const inTransaction = await admin.query(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'",
    [applicationName],
  );
  const terminated = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  return { inTransaction: inTransaction.rowCount ?? 0, terminated: terminated.rowCount ?? 0 };
}
