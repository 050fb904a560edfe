import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES, isFailureClass } from '../src/index.ts';

const SUITES = ['harness-typestate', 'harness-typestate-extended'].map((name) =>
  join(import.meta.dirname, '..', 'conformance', name),
);

interface Expect {
  readonly result: 'accepted' | 'rejected' | 'invalid';
  readonly expectedFailureClasses: readonly string[];
  readonly checkedClasses?: readonly string[];
}

function vectors(): { id: string; expect: Expect }[] {
  return SUITES.flatMap((suite) => {
    const manifest = JSON.parse(readFileSync(join(suite, 'manifest.json'), 'utf8')) as { vectors: string[] };
    return manifest.vectors.map((id) => ({
      id,
      expect: JSON.parse(readFileSync(join(suite, id, 'expect.json'), 'utf8')) as Expect,
    }));
  });
}

// The join check's classes; the approval classes (APPROVALS §3) are decided by the effect ledger
// and the approval rules, not by evidence: test/approval-ledger-suite.ts makes each of them fire.
const JOIN_CLASSES = FAILURE_CLASSES.filter((c) => c.source !== 'APPROVALS §3').map((c) => c.class);

describe('our conformance vectors', () => {
  const all = vectors();
  const emitted = new Set(all.flatMap((v) => v.expect.expectedFailureClasses));
  const passed = new Set(
    all.filter((v) => v.expect.result === 'accepted').flatMap((v) => v.expect.checkedClasses ?? []),
  );

  it('make every fail-closed class fire in at least one rejected vector', () => {
    const silent = JOIN_CLASSES.filter((c) => !emitted.has(c));
    expect(silent).toEqual([]);
  });

  it('pass every fail-closed class’s check in at least one accepted vector', () => {
    const untried = JOIN_CLASSES.filter((c) => !passed.has(c));
    expect(untried).toEqual([]);
  });

  it('name only known classes, and list checked classes only on accepted vectors', () => {
    for (const { id, expect: e } of all) {
      for (const c of [...e.expectedFailureClasses, ...(e.checkedClasses ?? [])])
        expect(isFailureClass(c), `${id}: ${c}`).toBe(true);
      if (e.result !== 'accepted') expect(e.checkedClasses, id).toBeUndefined();
    }
  });
});
