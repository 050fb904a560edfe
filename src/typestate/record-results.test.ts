import { describe, expect, it } from 'vitest';
import { classes, fromModel, mintsNothingMore, specFor, Tools, withPollution } from '../../test/turn-fixtures.ts';
import { digest } from '../canonical/index.ts';
import { recordResults, requestTools } from '../index.ts';

function requested() {
  const r = requestTools(
    specFor('code'),
    Tools,
    fromModel([
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } },
      { toolCallId: 'u', toolName: 'update_issue', input: { id: '7', status: 'closed' } },
      { toolCallId: 'z', toolName: 'delete_file', input: {} },
    ]),
  );
  if (!r.ok) throw new Error(JSON.stringify(r.failures));
  return r.value;
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('recordResults', () => {
  it('types ok outputs with their digest, keeps error envelopes, records a mutation call pending', () => {
    const results = recordResults(requested(), [
      { toolCallId: 'a', status: 'ok', output: { text: 'x' } },
      { toolCallId: 'u', status: 'pending' },
      { toolCallId: 'z', status: 'error', error: { errorCode: 'unknown_tool', retryable: false, errorMessage: 'no' } },
    ]);
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    const [a, u] = results.value.results;
    expect(a?.status === 'ok' && a.resultDigest).toBe(digest({ text: 'x' }));
    expect(u?.status === 'error' && [u.error.errorCode, u.error.retryable]).toEqual(['mutation_pending', true]);
  });

  it('refuses orphans, outputs that fail their schema, incomplete envelopes, and results the gate or a refusal owns', () => {
    const r = requested();
    const orphan = recordResults(r, [{ toolCallId: 'q', status: 'ok', output: {} }]);
    expect(classes(orphan)).toEqual(['tool.result_orphan']);
    if (!orphan.ok) expect(orphan.failures[0]?.ids).toEqual(['q']);
    expect(classes(recordResults(r, [{ toolCallId: 'a', status: 'ok', output: { text: 1 } }]))).toEqual([
      'tool.schema_invalid',
    ]);
    expect(
      classes(
        recordResults(r, [
          { toolCallId: 'a', status: 'error', error: { errorCode: ' ', retryable: false, errorMessage: 'x' } },
        ]),
      ),
    ).toEqual(['tool.schema_invalid']);
    expect(classes(recordResults(r, [{ toolCallId: 'u', status: 'ok', output: { ok: true } }]))).toEqual([
      'tool.schema_invalid',
    ]);
    expect(classes(recordResults(r, [{ toolCallId: 'a', status: 'pending' }]))).toEqual(['tool.schema_invalid']);
    expect(classes(recordResults(r, [{ toolCallId: 'z', status: 'ok', output: {} }]))).toEqual([
      'tool.unknown_or_disallowed',
    ]);
  });

  it('returns a typed failure, never a throw, for a payload too deep, cyclic, or with a throwing getter', () => {
    const r = requested();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const getter = {
      get text(): string {
        throw new RangeError('no');
      },
    };
    for (const output of [nested(100_000), cyclic, getter, JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`)]) {
      const outcome = recordResults(r, [{ toolCallId: 'a', status: 'ok', output }]);
      expect(classes(outcome)).toEqual(['tool.schema_invalid']);
    }
    const detail = recordResults(r, [{ toolCallId: 'a', status: 'ok', output: getter }]);
    expect(detail.ok).toBe(false);
    if (!detail.ok)
      expect(detail.failures[0]?.detail).toMatch(/results\[0\]\.output\.text: reading it threw RangeError/);
  });

  it('reads results as own data: a polluted output or status records nothing more', () => {
    const r = requested();
    const rows = [
      { toolCallId: 'a', status: 'error' as const, error: { errorCode: 'x', retryable: false, errorMessage: 'y' } },
    ];
    const clean = recordResults(r, rows);
    const polluted = withPollution({ output: { text: 'forged' }, status: 'ok' }, () => recordResults(r, rows));
    mintsNothingMore(polluted, clean, (v) => v.results);
  });
});
