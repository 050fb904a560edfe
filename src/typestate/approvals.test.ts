import { describe, expect, it } from 'vitest';
import { approvalContract } from '../../test/approval-ledger-suite.ts';
import { MemoryEffectLedger } from './memory-ledger.ts';

describe('the approval contract on MemoryEffectLedger', () => {
  it('keeps it: every attack runs its effect at most once', async () => {
    const ledger = new MemoryEffectLedger();
    const runs = await approvalContract(() => ledger);
    expect(runs).toEqual({
      pending: 0,
      'replayed decision': 1,
      missing: 0,
      denied: 0,
      expired: 0,
      'policy changed': 0,
      intent: 0,
      'concurrent begins': 1,
    });
  });
});
