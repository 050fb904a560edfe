import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { check, failure, patch, turn } from '../../../test/extended-turns.ts';
import { withinAny } from './refs.ts';

describe('withinAny', () => {
  it('holds a ref below a prefix at a / boundary only, and no ref with a dot segment', () => {
    expect(withinAny('/workspace/repo', ['/workspace/repo'])).toBe(true);
    expect(withinAny('/workspace/repo/pkg', ['/workspace/repo'])).toBe(true);
    expect(withinAny('/workspace/repo-old', ['/workspace/repo'])).toBe(false);
    expect(withinAny('artifact://docs/a.md', ['artifact://docs/'])).toBe(true);
    expect(withinAny('artifact://docs/../secrets', ['artifact://docs'])).toBe(false);
    expect(withinAny('/workspace/repo/./x', ['/'])).toBe(false);
    expect(withinAny('/anything', [])).toBe(false);
  });
});

describe('checkShellBoundary', () => {
  const spec = { executionBoundaryPolicy: { shellTools: ['tool.sh'] }, runtimeSandboxRef: 'sandbox://ro' };

  it('names what boundary evidence a shell row lacks', () => {
    const ev = turn(['sh'], spec);
    const r = check({
      ...ev,
      toolResults: patch(ev['toolResults'], 'sh', { shell: { sandboxProfile: 'sandbox://ro' } }),
    });
    expect(failure(r, 'runtime.shell_boundary_violation')).toEqual({
      class: 'runtime.shell_boundary_violation',
      detail: 'A shell-executed result lacks boundary evidence (workdir, commandDigest).',
      ids: ['sh'],
    });
  });

  it('checks a row that carries shell evidence even for a tool the policy does not list', () => {
    const ev = turn(['a'], { runtimeSandboxRef: 'sandbox://ro' });
    const shell = { workdir: 'relative/dir', sandboxProfile: 'sandbox://ro', commandDigest: 'sha256:c' };
    const r = check({ ...ev, toolResults: patch(ev['toolResults'], 'a', { shell }) });
    expect(failure(r, 'runtime.shell_boundary_violation')?.detail).toBe(
      'A shell command ran in a workdir outside the allowed directories.',
    );
  });
});

describe('checkCompaction', () => {
  // An empty compaction policy normalizes to `{}`; its digest is the SHA-256 of those two bytes.
  const emptyPolicyDigest = `sha256:${createHash('sha256').update('{}').digest('hex')}`;

  it('names the calls scheduled for retry that a compaction dropped', () => {
    const ev = turn(['a', 'b'], { compactionPolicy: {} });
    const r = check({
      ...ev,
      toolUse: patch(ev['toolUse'], 'b', { disposition: 'retry_scheduled' }),
      compaction: {
        compactionId: 'k',
        policyDigest: emptyPolicyDigest,
        sourceDigest: 'sha256:s',
        summaryDigest: 'sha256:t',
        carriedItems: [{ kind: 'tool_call', ref: 'a' }],
      },
    });
    expect(r.extended?.normalized.digests.compactionPolicyDigest).toBe(emptyPolicyDigest);
    expect(failure(r, 'runtime.compaction_state_invalid')).toEqual({
      class: 'runtime.compaction_state_invalid',
      detail: 'The compaction dropped tool calls scheduled for retry.',
      ids: ['b'],
    });
  });
});

describe('checkUseReferences', () => {
  it('treats a non-terminal result as no answer and its use as a use of an unknown result', () => {
    const ev = turn(['a', 'b']);
    const r = check({ ...ev, toolResults: patch(ev['toolResults'], 'b', { terminal: false }) });
    expect(r.failureClasses).toEqual(['tool.join_incomplete', 'tool.result_missing', 'tool.use_unknown_result']);
    expect(failure(r, 'tool.result_missing')?.ids).toEqual(['b']);
    expect(r.normalized.joinState.joinClosed).toBe(true); // premath's view: a row is a row
  });
});
