/**
 * The PostgreSQL store's effect ledger across processes (see test/effect-ledger.ts). Runs when
 * TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { sqlTables } from '../../src/chat/sql-rows.ts';
import { effectsRunOnce, ledgerContract } from '../effect-ledger.ts';

const url = process.env['TURNGATE_PG_URL'];
if (url === undefined) {
  throw new Error('TURNGATE_PG_URL is not set: start a server with scripts/start-postgres.sh');
}

const prefixes: string[] = [];

/** A table prefix of its own, its tables dropped after the run. */
function freshPrefix(): string {
  const prefix = `effects_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  prefixes.push(prefix);
  return prefix;
}

afterAll(async () => {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  for (const prefix of prefixes)
    await admin.query(`DROP TABLE IF EXISTS ${Object.values(sqlTables('test', prefix)).join(', ')}`);
  await admin.end();
});

it('runs each effect once across a replay in a new process, four processes at once, and kill -9 mid-effect', async () => {
  const prefix = freshPrefix();
  const counts = await effectsRunOnce(['postgres', url, prefix], 4, 40);
  expect(counts).toEqual({ replay: 1, concurrent: { calls: 40, maxRuns: 1 }, crash: 1 });
});

it('keeps the durable ledger contract', async () => {
  const prefix = freshPrefix();
  const stores: PostgresSessionStore[] = [];
  try {
    await ledgerContract((options) => {
      const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 1 });
      stores.push(store);
      return store.effectLedger(options);
    });
  } finally {
    for (const store of stores) await store.close();
  }
});
