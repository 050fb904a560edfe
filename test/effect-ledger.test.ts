import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { InMemorySessionStore } from '../src/chat/index.ts';
import { SessionLockTimeout, SqliteSessionStore } from '../src/chat/sqlite.ts';
import { effectsRunOnce, ledgerContract } from './effect-ledger.ts';

describe('the SQLite store’s effect ledger', () => {
  it('runs each effect once across a replay in a new process, two processes at once, and kill -9 mid-effect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-effects-db-'));
    try {
      const counts = await effectsRunOnce(['sqlite', join(dir, 'chat.db'), 'turngate'], 2, 40);
      expect(counts).toEqual({ replay: 1, concurrent: { calls: 40, maxRuns: 1 }, crash: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the durable ledger contract, with the effects in the sessions’ file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-effects-db-'));
    const stores: SqliteSessionStore[] = [];
    try {
      await ledgerContract((options) => {
        const store = new SqliteSessionStore(join(dir, 'chat.db'));
        stores.push(store);
        return store.effectLedger(options);
      });
    } finally {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => new SqliteSessionStore(':memory:').effectLedger({ leaseMs: -1 })).toThrow(
      'SqliteSessionStore.effectLedger: options.leaseMs: expected milliseconds >= 0, got -1',
    );
  });

  it('keeps the durable ledger contract through the approval ledger too (claimants included)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-effects-db-'));
    const stores: SqliteSessionStore[] = [];
    try {
      await ledgerContract((options) => {
        const store = new SqliteSessionStore(join(dir, 'chat.db'));
        stores.push(store);
        return store.approvalLedger(options);
      });
    } finally {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the in-memory store has one ledger per store object', () => {
    const store = new InMemorySessionStore();
    expect(store.effectLedger()).toBe(store.effectLedger());
    expect(new InMemorySessionStore().effectLedger()).not.toBe(store.effectLedger());
  });
});

describe('the SQLite store’s session lock across processes', () => {
  it('resumes a turn once when two processes deliver its signal at the same time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-signal-race-'));
    const file = join(dir, 'chat.db');
    const log = join(dir, 'resumed.log');
    const child = new URL('./fixtures/signal-race.mjs', import.meta.url).pathname;
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: '' };
    const rounds = 60;
    try {
      const suspended = JSON.parse(
        execFileSync(process.execPath, [child, 'suspend', file, log, String(rounds)], { encoding: 'utf8', env }),
      ) as string[];
      expect(new Set(suspended)).toEqual(new Set(['suspended']));
      const run = promisify(execFile);
      const [a, b] = await Promise.all([
        run(process.execPath, [child, 'signal', file, log, String(rounds)], { env }),
        run(process.execPath, [child, 'signal', file, log, String(rounds)], { env }),
      ]);
      const outcomes = [...JSON.parse(a.stdout), ...JSON.parse(b.stdout)] as string[];
      // Each round: one delivery resumed it; the other found nothing waiting (or that it was answered).
      expect(outcomes.filter((o) => o === 'completed')).toHaveLength(rounds);
      const runs = new Map<string, number>();
      for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
        const id = line.split(' ')[0] ?? '';
        runs.set(id, (runs.get(id) ?? 0) + 1);
      }
      expect(runs.size).toBe(rounds);
      expect(Math.max(...runs.values())).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad lock options naming the field, and times out on a session another process holds', async () => {
    expect(() => new SqliteSessionStore(':memory:', { lockLeaseMs: -5 })).toThrow(
      'SqliteSessionStore: options.lockLeaseMs: expected milliseconds >= 0, got -5',
    );
    const dir = mkdtempSync(join(tmpdir(), 'turngate-lock-'));
    const file = join(dir, 'chat.db');
    const a = new SqliteSessionStore(file);
    const b = new SqliteSessionStore(file, { lockTimeoutMs: 50 });
    try {
      let release: () => void = () => undefined;
      const held = a.withSessionLock('s', () => new Promise<void>((resolve) => (release = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 10));
      await expect(b.withSessionLock('s', async () => 'ran')).rejects.toBeInstanceOf(SessionLockTimeout);
      release();
      await held;
      expect(await b.withSessionLock('s', async () => 'ran')).toBe('ran');
    } finally {
      a.close();
      b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a retried send takes over its own lock row at once; another send, or another store object, waits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-lock-'));
    const file = join(dir, 'chat.db');
    const store = new SqliteSessionStore(file, { lockTimeoutMs: 100 });
    const elsewhere = new SqliteSessionStore(file, { lockTimeoutMs: 100 });
    const raw = new Database(file);
    try {
      const holderOf = () =>
        raw.prepare<[], { holder: string }>("SELECT holder FROM turngate_locks WHERE session_id = 's'").get()?.holder;
      let token: string | undefined;
      await store.withSessionLock(
        's',
        async () => {
          token = holderOf();
        },
        { sendKey: 'k-1' },
      );
      expect(holderOf()).toBeUndefined(); // released
      // The row a release that never landed leaves: the send's token, an hour from running out.
      raw
        .prepare('INSERT INTO turngate_locks (session_id, holder, expires_at) VALUES (?, ?, ?)')
        .run('s', token, Date.now() + 3_600_000);
      const held = (options: { sendKey?: string }, on = store) =>
        on.withSessionLock('s', async () => 'ran', options).catch((error: unknown) => error);
      expect(await held({ sendKey: 'k-2' })).toBeInstanceOf(SessionLockTimeout);
      expect(await held({})).toBeInstanceOf(SessionLockTimeout);
      expect(await held({ sendKey: 'k-1' }, elsewhere)).toBeInstanceOf(SessionLockTimeout);
      expect(await held({ sendKey: 'k-1' })).toBe('ran');
      expect(await held({}, elsewhere)).toBe('ran');
    } finally {
      raw.close();
      store.close();
      elsewhere.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
