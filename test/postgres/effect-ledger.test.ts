/**
 * The PostgreSQL store's effect ledger across processes (see test/effect-ledger.ts), and a claim
 * whose answer is lost (through a proxy, test/postgres/proxy.ts). Runs when
 * TURNGATE_PG_URL is set (scripts/test.sh).
 */
import { expect, it } from 'vitest';
import { PostgresSessionStore } from '../../src/chat/postgres.ts';
import { effectEntry, effectsRunOnce, ledgerContract } from '../effect-ledger.ts';
import { startProxy } from './proxy.ts';
import { connection, freshPrefix as prefixOf } from './database.ts';

it('runs each effect once across a replay in a new process, four processes at once, and kill -9 mid-effect', async () => {
  const prefix = prefixOf('effects');
  const counts = await effectsRunOnce(['postgres', connection, prefix], 4, 40);
  expect(counts).toEqual({ replay: 1, concurrent: { calls: 40, maxRuns: 1 }, crash: 1 });
});

it('keeps the durable ledger contract', async () => {
  const prefix = prefixOf('effects');
  const stores: PostgresSessionStore[] = [];
  try {
    await ledgerContract((options) => {
      const store = new PostgresSessionStore(connection, { tablePrefix: prefix, maxConnections: 1 });
      stores.push(store);
      return store.effectLedger(options);
    });
  } finally {
    for (const store of stores) await store.close();
  }
});

it('keeps the durable ledger contract through the approval ledger too (claimants included)', async () => {
  const prefix = prefixOf('effects');
  const stores: PostgresSessionStore[] = [];
  try {
    await ledgerContract((options) => {
      const store = new PostgresSessionStore(connection, { tablePrefix: prefix, maxConnections: 1 });
      stores.push(store);
      return store.approvalLedger(options);
    });
  } finally {
    for (const store of stores) await store.close();
  }
});

it('runs once an effect whose claim lost its answer: the retry under the same claimant resumes the claim', async () => {
  const prefix = prefixOf('effects');
  const proxy = await startProxy(connection);
  const store = new PostgresSessionStore(proxy.url, { tablePrefix: prefix, maxConnections: 2 });
  try {
    await store.version('warm'); // the tables exist before answers are lost
    // Every second claim reaches the server and is stored; its answer never comes back.
    proxy.loseAnswers(`${prefix}_effects (effect_key`, (count) => count % 2 === 0);
    const ledger = store.effectLedger({ leaseMs: 60_000 });
    const runs = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const entry = { ...effectEntry, key: `sha256:lost-${i}` };
      const claim = await ledger.begin(entry);
      if (claim.claimed) {
        runs.set(entry.key, (runs.get(entry.key) ?? 0) + 1);
        await ledger.finish(entry.key, { state: 'completed', output: i });
      }
    }
    expect(proxy.dropped).toBeGreaterThanOrEqual(10);
    expect([...runs.values()]).toEqual(Array.from({ length: 20 }, () => 1));
    const states = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await ledger.read(`sha256:lost-${i}`))?.state),
    );
    expect(states).toEqual(Array.from({ length: 20 }, () => 'completed'));
  } finally {
    await store.close();
    await proxy.close();
  }
});
