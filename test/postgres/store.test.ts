/**
 * The session store suite against PostgreSQL, and what only PostgreSQL can show: turns of one
 * session from several store objects (processes) run one at a time, and a connection that dies
 * mid-turn leaves the session whole. Runs when TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatHarness, sequentialGraph, type ChatMessage } from '../../src/chat/index.ts';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { restartAndResume } from '../restart.ts';
import { sessionStoreSuite } from '../session-store-suite.ts';

const url = process.env['TURNGATE_PG_URL'];
if (url === undefined || url === '')
  throw new Error('TURNGATE_PG_URL is not set: start a server with scripts/start-postgres.sh');
const connection: string = url;

const prefixes: string[] = [];
const admin = new pg.Pool({ connectionString: connection, max: 2 });

/** A table prefix of its own, dropped after the run. */
function freshPrefix(): string {
  const prefix = `tg_test_${randomBytes(6).toString('hex')}`;
  prefixes.push(prefix);
  return prefix;
}

afterAll(async () => {
  for (const prefix of prefixes)
    await admin.query(
      `DROP TABLE IF EXISTS ${prefix}_sessions, ${prefix}_messages, ${prefix}_suspensions, ${prefix}_resumes`,
    );
  await admin.end();
});

sessionStoreSuite('PostgreSQL', (options) => {
  const tablePrefix = freshPrefix();
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
    const tablePrefix = freshPrefix();
    const stores = Array.from({ length: 6 }, () => new PostgresSessionStore(connection, { tablePrefix }));
    await Promise.all(stores.map((store, i) => store.save(`s${i}`, { state: { messages: [] } }, 0)));
    expect((await stores[0]?.listSuspended()) ?? []).toEqual([]);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('runs the turns of one session one at a time across store objects, none lost', async () => {
    const tablePrefix = freshPrefix();
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

  it('rolls a turn back when its connection dies mid-turn, and frees the session', async () => {
    const tablePrefix = freshPrefix();
    const application_name = `turngate-test-${tablePrefix}`;
    const store = new PostgresSessionStore({ connectionString: connection, application_name }, { tablePrefix });
    await store.save('s', { state: { messages: [user('kept')] } }, 0);
    const before = JSON.stringify(await store.load('s'));
    let pid = 0;
    const dying = store.withSessionLock('s', async (session) => {
      const version = await session.version();
      pid = await backendInTransaction(application_name);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await session.save({ state: { messages: [user('kept'), user('lost')] } }, version);
    });
    await expect(dying).rejects.toThrow();
    expect(pid).toBeGreaterThan(0);
    expect(JSON.stringify(await store.load('s'))).toBe(before);
    await store.withSessionLock('s', async (session) => session.save({ state: { messages: [] } }, 1));
    expect((await store.load('s'))?.version).toBe(2);
    await store.close();
  });

  it('resumes in a new process a turn that an exited process suspended', async () => {
    const tablePrefix = freshPrefix();
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

/** The server process of this store's connection that is inside a transaction (the locked turn's). */
async function backendInTransaction(applicationName: string): Promise<number> {
  const result = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction'",
    [applicationName],
  );
  return result.rows[0]?.pid ?? 0;
}
