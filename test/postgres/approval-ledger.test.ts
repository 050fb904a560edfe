/**
 * The approval contract on the PostgreSQL store's approval ledger (see test/approval-ledger-suite.ts).
 * Runs when TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { sqlTables } from '../../src/chat/sql-rows.ts';
import { approvalContract, approvalsAcrossProcesses } from '../approval-ledger-suite.ts';

const url = process.env['TURNGATE_PG_URL'];
if (url === undefined) {
  throw new Error('TURNGATE_PG_URL is not set: start a server with scripts/start-postgres.sh');
}

const prefixes: string[] = [];

/** A table prefix of its own, its tables dropped after the run. */
function freshPrefix(): string {
  const prefix = `approvals_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  prefixes.push(prefix);
  return prefix;
}

afterAll(async () => {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  for (const prefix of prefixes)
    await admin.query(`DROP TABLE IF EXISTS ${Object.values(sqlTables('test', prefix)).join(', ')}`);
  await admin.end();
});

it('keeps the approval contract, across two store objects on one database', async () => {
  const prefix = freshPrefix();
  const stores: PostgresSessionStore[] = [];
  try {
    const runs = await approvalContract(() => {
      const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 2 });
      stores.push(store);
      return store.approvalLedger();
    });
    expect(Object.values(runs).every((n) => n <= 1)).toBe(true);
  } finally {
    for (const store of stores) await store.close();
  }
});

it('runs one effect per approval when four processes consume it at once', async () => {
  const prefix = freshPrefix();
  const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 1 });
  try {
    expect(await approvalsAcrossProcesses(store.approvalLedger(), ['postgres', url, prefix], 4, 10)).toBe(1);
  } finally {
    await store.close();
  }
});
