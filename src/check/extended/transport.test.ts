import { describe, expect, it } from 'vitest';
import { check, failure, patch, turn } from '../../../test/extended-turns.ts';

describe('checkBranches', () => {
  it('counts only the model’s own calls as branches, and names them', () => {
    const json = turn(['a', 'b'], { actionMode: 'json' });
    expect(failure(check(json), 'tool.parallel_policy_violation')).toEqual({
      class: 'tool.parallel_policy_violation',
      detail: 'json mode: one tool invocation per action, but the model made 2.',
      ids: ['a', 'b'],
    });
    const ev = turn(['a', 'b', 'c'], { parallelPolicy: { allowed: false } });
    const byCode = {
      ...ev,
      toolRequests: patch(patch(ev['toolRequests'], 'b', { callerId: 'tool.a', parentToolCallId: 'a' }), 'c', {
        callerId: 'tool.a',
        parentToolCallId: 'a',
      }),
    };
    expect(check(byCode).result).toBe('accepted');
  });
});

describe('checkTransportOrder', () => {
  const ordered = (requestIdx: (number | undefined)[], resultIdx: (number | undefined)[]): Record<string, unknown> => {
    const ev = turn(['a', 'b', 'c'], { toolTransportPolicy: { ordering: ' STRICT ' } });
    const place = (rows: unknown, idx: (number | undefined)[]) =>
      ['a', 'b', 'c'].reduce<Record<string, unknown>[]>(
        (acc, id, i) => patch(acc, id, { transportIndex: idx[i] }),
        rows as Record<string, unknown>[],
      );
    return {
      ...ev,
      toolRequests: place(ev['toolRequests'], requestIdx),
      toolResults: place(ev['toolResults'], resultIdx),
    };
  };

  it('accepts outputs in call order whatever the index values, and names the outputs out of place', () => {
    expect(check(ordered([4, 7, 9], [0, 1, 2])).result).toBe('accepted');
    expect(failure(check(ordered([0, 1, 2], [0, 2, 1])), 'protocol.parallel_transport_order_invalid')?.ids).toEqual([
      'b',
      'c',
    ]);
  });

  it('names the rows without an index, and checks nothing under unordered transport', () => {
    expect(
      failure(check(ordered([0, undefined, 2], [0, 1, 2])), 'protocol.parallel_transport_order_invalid')?.ids,
    ).toEqual(['b']);
    const unordered = ordered([0, 1, 2], [2, 1, 0]);
    const spec = { ...(unordered['callSpec'] as object), toolTransportPolicy: { ordering: 'unordered' } };
    expect(check({ ...unordered, callSpec: spec }).result).toBe('accepted');
  });
});

describe('checkTruncation', () => {
  const policy = { toolResponseTruncationPolicy: { maxBytes: 100, marker: '[cut]' } };
  const truncated = (truncation: Record<string, unknown>) => {
    const ev = turn(['a'], policy);
    return {
      ...ev,
      toolResults: patch(ev['toolResults'], 'a', {
        truncation: { originalBytes: 500, headBytes: 50, tailBytes: 50, marker: '[cut]', ...truncation },
      }),
    };
  };

  it('accepts a middle cut that keeps exactly the budget', () => {
    expect(check(truncated({})).result).toBe('accepted');
  });

  it('says each way a cut breaks the contract', () => {
    const detail = (t: Record<string, unknown>) =>
      failure(check(truncated(t)), 'tool.response_truncation_policy_violation')?.detail;
    expect(detail({ headBytes: 51 })).toBe('A truncated response keeps more than the 100-byte budget.');
    expect(detail({ tailBytes: 0 })).toBe(
      'A truncated response was not cut in the middle (it must keep a head and a tail).',
    );
    expect(detail({ originalBytes: 90, headBytes: 40, tailBytes: 40 })).toBe(
      'A response within the budget was truncated.',
    );
    expect(detail({ originalBytes: 100 })).toBe("A response's truncation metadata cuts nothing out.");
    expect(detail({ marker: '…' })).toBe("A truncated response carries another marker than the policy's.");
  });
});

describe('checkProtocolStatePolicy', () => {
  it('narrows the handled stop reasons and the continuation, never widens them', () => {
    const spec = { protocolStatePolicy: { handledStopReasons: ['tool_use', 'refusal'], continueOn: ['tool_use'] } };
    expect(check(turn(['a'], spec)).result).toBe('accepted');
    const refusal = { ...turn(['a'], spec), protocolState: { stopReason: 'refusal', continuationAllowed: false } };
    expect(check(refusal).failureClasses).toEqual(['protocol.stop_reason_unhandled']);
    expect(failure(check(refusal), 'protocol.stop_reason_unhandled')?.detail).toMatch(
      /^Stop reason `refusal` is not one of/,
    );
  });
});

describe('checkExecutionPattern', () => {
  it('judges the iteration bound by the loop state, continuing or not', () => {
    const at = (iteration: number, continuationAllowed: boolean) => ({
      ...turn(['a'], { stopPolicy: { maxIterations: 3 } }),
      protocolState: { stopReason: 'tool_use', continuationAllowed },
      loopState: { iteration },
    });
    expect(check(at(3, false)).result).toBe('accepted');
    expect(failure(check(at(3, true)), 'coordination.decomposition_policy_violation')?.detail).toBe(
      "Iteration 3 may continue past the stop policy's 3 iterations.",
    );
  });
});
