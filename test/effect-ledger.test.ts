import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InMemorySessionStore } from '../src/chat/index.ts';
import { SqliteSessionStore } from '../src/chat/sqlite.ts';
import { effectsRunOnce } from './effect-ledger.ts';

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

  it('reads a started effect as running within its lease and unknown_after_crash after it', () => {
    let clock = 1_000;
    const store = new SqliteSessionStore(':memory:');
    const ledger = store.effectLedger({ leaseMs: 500, now: () => clock });
    const entry = {
      key: 'k',
      toolCallId: 'toolu_1',
      toolName: 'send_email',
      inputDigest: 'sha256:0',
      joinSetDigest: 'sha256:1',
    };
    expect(ledger.begin(entry)).toEqual({ claimed: true });
    clock += 500;
    expect(ledger.read('k')?.state).toBe('started');
    clock += 1;
    expect(ledger.begin(entry)).toMatchObject({ claimed: false, record: { state: 'unknown_after_crash' } });
    ledger.finish('k', { state: 'completed', output: { sent: true } });
    expect(ledger.read('k')).toEqual({ ...entry, state: 'completed', output: { sent: true } });
    // An end is recorded once: a second finish does not overwrite it.
    ledger.finish('k', { state: 'failed', error: { errorCode: 'x', retryable: false, errorMessage: 'x' } });
    expect(ledger.read('k')?.state).toBe('completed');
    expect(() => store.effectLedger({ leaseMs: -1 })).toThrow(
      'SqliteSessionStore.effectLedger: options.leaseMs: expected milliseconds >= 0, got -1',
    );
    store.close();
  });

  it('keeps the effects with the sessions: a reopened file has them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-effects-db-'));
    const file = join(dir, 'chat.db');
    try {
      const entry = {
        key: 'k',
        toolCallId: 'toolu_1',
        toolName: 'send_email',
        inputDigest: 'sha256:0',
        joinSetDigest: 'sha256:1',
      };
      const a = new SqliteSessionStore(file);
      a.effectLedger().begin(entry);
      a.effectLedger().finish('k', {
        state: 'failed',
        error: { errorCode: 'smtp', retryable: true, errorMessage: '554' },
      });
      a.close();
      const b = new SqliteSessionStore(file);
      expect(b.effectLedger().read('k')).toMatchObject({ state: 'failed', error: { errorCode: 'smtp' } });
      b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the in-memory store has one ledger per store object', () => {
    const store = new InMemorySessionStore();
    expect(store.effectLedger()).toBe(store.effectLedger());
    expect(new InMemorySessionStore().effectLedger()).not.toBe(store.effectLedger());
  });
});
