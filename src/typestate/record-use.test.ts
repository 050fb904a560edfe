import { describe, expect, it } from 'vitest';
import { classes, mintsNothingMore, rowsAtRunTime, specFor, Tools, withPollution } from '../../test/turn-fixtures.ts';
import { recordResults, recordUse, requestTools } from '../index.ts';

function resulted() {
  const requested = requestTools(specFor('code'), Tools, [
    { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } },
    { toolCallId: 'b', toolName: 'read_file', input: { path: 'y' } },
  ]);
  if (!requested.ok) throw new Error('setup');
  const results = recordResults(requested.value, [
    { toolCallId: 'a', status: 'ok', output: { text: 'x' } },
    { toolCallId: 'b', status: 'ok', output: { text: 'y' } },
  ]);
  if (!results.ok) throw new Error('setup');
  return results.value;
}

describe('recordUse', () => {
  it('binds rows of ok results to their digest', () => {
    const results = resulted();
    const use = recordUse(results, [
      { toolCallId: 'a', disposition: 'consumed', evidence: { summaryRef: 'summary://1' } },
      { toolCallId: 'b', disposition: 'observed' },
    ]);
    if (!use.ok) throw new Error(JSON.stringify(use.failures));
    const first = results.results[0];
    expect(use.value.uses[0]?.resultDigest).toBe(first?.status === 'ok' ? first.resultDigest : undefined);
  });

  it('refuses a use without a result, and a disposition without what it needs', () => {
    const results = resulted();
    expect(classes(recordUse(results, [{ toolCallId: 'q', disposition: 'observed' }]))).toEqual([
      'tool.use_without_result',
    ]);
    const discarded = recordUse(results, rowsAtRunTime([{ toolCallId: 'a', disposition: 'discarded_with_reason' }]));
    expect(classes(discarded)).toEqual(['tool.schema_invalid']);
    if (!discarded.ok) expect(discarded.failures[0]?.ids).toEqual(['a']);
    const consumed = recordUse(
      results,
      rowsAtRunTime([{ toolCallId: 'a', disposition: 'consumed', evidence: { summaryRef: ' ' } }]),
    );
    expect(classes(consumed)).toEqual(['mutation.use_evidence_missing']);
    if (!consumed.ok) expect(consumed.failures[0]?.ids).toEqual(['a']);
    expect(
      classes(
        recordUse(results, [{ toolCallId: 'a', disposition: 'observed', evidence: { mutationInput: { id: 1 } } }]),
      ),
    ).toEqual(['tool.schema_invalid']);
    const conflicting = recordUse(results, [
      { toolCallId: 'a', disposition: 'consumed', evidence: { mutationInputRef: 'm://1', mutationInput: { id: 1 } } },
      { toolCallId: 'b', disposition: 'consumed', evidence: { mutationInputRef: 'm://1', mutationInput: { id: 2 } } },
    ]);
    expect(classes(conflicting)).toEqual(['tool.schema_invalid']);
    if (!conflicting.ok) expect(conflicting.failures[0]?.ids).toEqual(['a', 'b']);
    expect(classes(recordUse(results, [{ toolCallId: 'a', disposition: 'kept' as 'observed' }]))).toEqual([
      'tool.schema_invalid',
    ]);
  });

  it('reads rows as own data: a polluted evidence or reasonCode disposes of nothing more', () => {
    const results = resulted();
    const rows = rowsAtRunTime([
      { toolCallId: 'a', disposition: 'consumed' },
      { toolCallId: 'b', disposition: 'discarded_with_reason' },
    ]);
    const clean = recordUse(results, rows);
    expect(classes(clean)).toEqual(['mutation.use_evidence_missing', 'tool.schema_invalid']);
    const polluted = withPollution({ evidence: { summaryRef: 'summary://forged' }, reasonCode: 'forged' }, () =>
      recordUse(results, rows),
    );
    mintsNothingMore(polluted, clean, (v) => v.uses);
    expect(classes(polluted)).toEqual(classes(clean));
  });
});
