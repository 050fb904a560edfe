import { describe, expect, it } from 'vitest';
import { fromModel, rowsAtRunTime, specFor, Tools } from '../../test/turn-fixtures.ts';
import { recordResults, recordUse, requestTools, turn } from '../index.ts';
import { fail, failedWith, failure, FailureCollector, firstFailure } from './collect.ts';
import type { Failure, Result } from './classes.ts';

/** The collector's shape: one entry per class, sorted by class, ids sorted and unique, `ids` absent when none. */
function expectCollectorShape(failures: readonly Failure[]): void {
  const classes = failures.map((f) => f.class);
  expect(classes).toEqual([...new Set(classes)].sort());
  for (const f of failures) {
    if (f.ids === undefined) expect(Object.hasOwn(f, 'ids')).toBe(false);
    else {
      expect(f.ids.length).toBeGreaterThan(0);
      expect(f.ids).toEqual([...new Set(f.ids)].sort());
    }
  }
}

function failuresOf(result: Result<unknown>): readonly Failure[] {
  if (result.ok) throw new Error('expected failures');
  expect(result.failures.length).toBeGreaterThan(0);
  expectCollectorShape(result.failures);
  return result.failures;
}

function requested() {
  const requests = requestTools(
    specFor('code'),
    Tools,
    fromModel([
      { toolCallId: 'c', toolName: 'read_file', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'search_web', input: { query: 'q' } },
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'y' } },
      { toolCallId: 'z', toolName: 'delete_file', input: {} },
    ]),
  );
  if (!requests.ok) throw new Error(JSON.stringify(requests.failures));
  return requests.value;
}

describe('FailureCollector', () => {
  it('lists one failure per class, sorted by class, details joined once, ids merged and sorted', () => {
    const collected = new FailureCollector()
      .add('tool.use_missing', 'second', ['b', 'a'])
      .add('tool.result_missing', 'first', ['c'])
      .add('tool.use_missing', 'second', ['a'])
      .add('tool.use_missing', 'third')
      .add('tool.join_incomplete', 'no ids');
    expect(collected.list()).toEqual([
      { class: 'tool.join_incomplete', detail: 'no ids' },
      { class: 'tool.result_missing', detail: 'first', ids: ['c'] },
      { class: 'tool.use_missing', detail: 'second; third', ids: ['a', 'b'] },
    ]);
  });

  it('keeps merged details readable: a sentence is followed by a space, a fragment by a semicolon', () => {
    const collected = new FailureCollector()
      .add('tool.result_missing', 'Requested tool calls have no terminal result.')
      .add('tool.result_missing', 'calls[1]: expected an object')
      .add('tool.result_missing', 'A second sentence.');
    expect(collected.list()[0]?.detail).toBe(
      'Requested tool calls have no terminal result. calls[1]: expected an object; A second sentence.',
    );
  });

  it('refuses to build a failed result with no failure', () => {
    expect(() => new FailureCollector().failed()).toThrow(/no failure/);
  });

  it('gives single failures and merged lists the same shape', () => {
    expect(failure('tool.result_orphan', 'orphan', ['b', 'a', 'b'])).toEqual({
      class: 'tool.result_orphan',
      detail: 'orphan',
      ids: ['a', 'b'],
    });
    expect(failure('tool.result_orphan', 'orphan')).toEqual({ class: 'tool.result_orphan', detail: 'orphan' });
    expect(fail('tool.schema_invalid', 'bad', [])).toEqual({
      ok: false,
      failures: [{ class: 'tool.schema_invalid', detail: 'bad' }],
    });
    const merged = failedWith([failure('tool.use_missing', 'x', ['b']), failure('tool.result_missing', 'y', ['a'])]);
    expect(merged).toEqual({
      ok: false,
      failures: [
        { class: 'tool.result_missing', detail: 'y', ids: ['a'] },
        { class: 'tool.use_missing', detail: 'x', ids: ['b'] },
      ],
    });
    expect(firstFailure({ ok: false, failures: ['only'] })).toBe('only');
  });
});

describe('transitions report through the collector', () => {
  it('recordUse: two classes, one entry each, sorted by class, ids merged', () => {
    const requests = requested();
    const results = recordResults(requests, [
      { toolCallId: 'a', status: 'ok', output: { text: 'y' } },
      { toolCallId: 'b', status: 'ok', output: { hits: 1 } },
      { toolCallId: 'c', status: 'ok', output: { text: 'x' } },
      { toolCallId: 'z', status: 'error', error: { errorCode: 'unknown_tool', retryable: false, errorMessage: 'no' } },
    ]);
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    const used = recordUse(
      results.value,
      rowsAtRunTime([
        { toolCallId: 'c', disposition: 'discarded_with_reason' },
        { toolCallId: 'b', disposition: 'consumed' },
        { toolCallId: 'a', disposition: 'discarded_with_reason' },
        { toolCallId: 'z', disposition: 'observed' },
      ]),
    );
    expect(failuresOf(used)).toEqual([
      {
        class: 'mutation.use_evidence_missing',
        detail: 'b is consumed without evidence: give evidence.summaryRef, handoffRef or mutationInputRef',
        ids: ['b'],
      },
      {
        class: 'tool.schema_invalid',
        detail: 'c is discarded_with_reason without a reasonCode; a is discarded_with_reason without a reasonCode',
        ids: ['a', 'c'],
      },
    ]);
  });

  it('recordResults: an ok result for a refused call and a pending non-mutation call, sorted by class', () => {
    const results = recordResults(requested(), [
      { toolCallId: 'z', status: 'ok', output: {} },
      { toolCallId: 'c', status: 'pending' },
      { toolCallId: 'a', status: 'pending' },
    ]);
    const failures = failuresOf(results);
    expect(failures.map((f) => [f.class, f.ids])).toEqual([
      ['tool.schema_invalid', ['a', 'c']],
      ['tool.unknown_or_disallowed', ['z']],
    ]);
  });

  it('requestTools: a repeated tool call id and a malformed call are one tool.schema_invalid entry', () => {
    const requests = requestTools(
      specFor('code'),
      Tools,
      fromModel([
        { toolCallId: 'b', toolName: 'read_file', input: { path: 'x' } },
        { toolCallId: 'b', toolName: 'read_file', input: { path: 'y' } },
        { toolCallId: 'a', toolName: ' ', input: {} },
        { toolCallId: 'q', toolName: 'unknown_tool', input: {} },
      ]),
    );
    expect(failuresOf(requests)).toEqual([
      {
        class: 'tool.schema_invalid',
        detail: 'toolCallId "b" is requested twice; calls[2].toolName: expected a non-blank string',
        ids: ['a', 'b'],
      },
    ]);
  });

  it("the builder's close: refused calls of one class are one entry", () => {
    // biome-ignore lint/suspicious/noExplicitAny: unknown tool names are a type error; this checks the run time
    const builder = turn(specFor('code'), Tools) as any;
    const closed: Result<unknown> = builder.request('x', 'delete_file', {}).request('y', 'drop_table', {}).close();
    const failures = failuresOf(closed);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.class).toBe('tool.unknown_or_disallowed');
    expect(failures[0]?.ids).toEqual(['x', 'y']);
  });
});
