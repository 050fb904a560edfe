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

// The specs' classes, which the join check decides; turngate's own (the tool loop's gate at the
// adapter boundary) are not the join check's and are covered by test/adapters/hostile-replies.test.ts;
// the approval classes by test/approval-ledger-suite.ts.
const SPEC_CLASSES = FAILURE_CLASSES.filter((c) => !c.source.startsWith('turngate:'));

describe('our conformance vectors', () => {
  const all = vectors();
  const emitted = new Set(all.flatMap((v) => v.expect.expectedFailureClasses));
  const passed = new Set(
    all.filter((v) => v.expect.result === 'accepted').flatMap((v) => v.expect.checkedClasses ?? []),
  );

  it('make every fail-closed class fire in at least one rejected vector', () => {
    const silent = SPEC_CLASSES.map((c) => c.class).filter((c) => !emitted.has(c));
    expect(silent).toEqual([]);
  });

  it('pass every fail-closed class’s check in at least one accepted vector', () => {
    const untried = SPEC_CLASSES.map((c) => c.class).filter((c) => !passed.has(c));
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
