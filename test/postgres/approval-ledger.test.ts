/**
 * The approval contract on the PostgreSQL store's approval ledger (see test/approval-ledger-suite.ts).
 * Runs when TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { expect, it } from 'vitest';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { approvalContract, approvalsAcrossProcesses } from '../approval-ledger-suite.ts';
import { connection, freshPrefix as prefixOf } from './database.ts';

it('keeps the approval contract, across two store objects on one database', async () => {
  const prefix = prefixOf('approvals');
  const stores: PostgresSessionStore[] = [];
  try {
    const runs = await approvalContract(() => {
      const store = new PostgresSessionStore(connection, { tablePrefix: prefix, maxConnections: 2 });
      stores.push(store);
      return store.approvalLedger();
    });
    expect(Object.values(runs).every((n) => n <= 1)).toBe(true);
  } finally {
    for (const store of stores) await store.close();
  }
});

it('runs one effect per approval when four processes consume it at once', async () => {
  const prefix = prefixOf('approvals');
  const store = new PostgresSessionStore(connection, { tablePrefix: prefix, maxConnections: 1 });
  try {
    expect(await approvalsAcrossProcesses(store.approvalLedger(), ['postgres', connection, prefix], 4, 10)).toBe(1);
  } finally {
    await store.close();
  }
});
