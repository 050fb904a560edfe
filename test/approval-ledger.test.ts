import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteSessionStore } from '../src/chat/sqlite.ts';
import { FileEffectLedger } from '../src/tusk/index.ts';
import { beginApproved, readApproval, requestApproval } from '../src/approvals.ts';
import { approvalContract, approvalsAcrossProcesses, askFor, entryOf } from './approval-ledger-suite.ts';

describe('the approval contract on the durable ledgers', () => {
  it('the SQLite store’s approval ledger keeps it, across two store objects on one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-approvals-db-'));
    const stores: SqliteSessionStore[] = [];
    try {
      const runs = await approvalContract(() => {
        const store = new SqliteSessionStore(join(dir, 'chat.db'));
        stores.push(store);
        return store.approvalLedger();
      });
      expect(Object.values(runs).every((n) => n <= 1)).toBe(true);
    } finally {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the Tusk FileEffectLedger keeps it, across two ledger objects on one directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-approvals-files-'));
    try {
      const runs = await approvalContract(() => new FileEffectLedger(join(dir, 'effects')));
      expect(Object.values(runs).every((n) => n <= 1)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a torn approval file as approval.missing, and runs nothing on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-approvals-torn-'));
    try {
      const ledger = new FileEffectLedger(join(dir, 'effects'));
      const request = askFor('torn-file');
      expect((await requestApproval(ledger, request)).ok).toBe(true);
      writeFileSync(ledger.approvalPathOf(request.key), '{"key": "approval-torn-file", "req');
      const read = await readApproval(ledger, request.key);
      expect(read !== undefined && !read.ok && read.failures[0]?.class).toBe('approval.missing');
      const claim = await beginApproved(ledger, entryOf(request), {
        policyVersion: 'v1',
        schemaDigest: 'sha256:schema',
        now: 2_000,
      });
      expect(!claim.claimed && 'refused' in claim && claim.refused.class).toBe('approval.missing');
      expect(await ledger.read(request.key)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs one effect per approval when four processes consume it at once (SQLite, files)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-approvals-proc-'));
    const store = new SqliteSessionStore(join(dir, 'chat.db'));
    try {
      const files = new FileEffectLedger(join(dir, 'effects'));
      expect(
        await approvalsAcrossProcesses(store.approvalLedger(), ['sqlite', join(dir, 'chat.db'), 'turngate'], 4, 10),
      ).toBe(1);
      expect(await approvalsAcrossProcesses(files, ['files', join(dir, 'effects'), '-'], 4, 10)).toBe(1);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
