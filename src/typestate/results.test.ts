import { describe, expect, it } from 'vitest';
import { closedTurn } from '../../test/turn-fixtures.ts';
import { matchToolResult, TOOL_ERROR_CODES } from '../index.ts';

describe('matchToolResult', () => {
  it("calls the handler of the result's tool, and refuses a result with no handler", () => {
    const closed = closedTurn();
    const lines = closed.results.map((r) =>
      matchToolResult(r, {
        read_file: (x) => (x.status === 'ok' ? `read ${x.output.text}` : 'read failed'),
        search_web: (x) => (x.status === 'ok' ? `${x.output.hits} hits` : `search ${x.error.errorCode}`),
        exec_only: () => 'exec',
        update_issue: (x) => (x.status === 'ok' ? `updated ${x.output.ok}` : `update ${x.error.errorCode}`),
      }),
    );
    expect(lines).toEqual(['read A', 'search timeout', 'update mutation_pending']);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => matchToolResult(closed.results[0] as never, {} as never)).toThrow(/no handler for tool "read_file"/);
  });
});

describe('TOOL_ERROR_CODES', () => {
  it('gives each refusal code the failure class its refusal reports', () => {
    const refusals = Object.entries(TOOL_ERROR_CODES)
      .filter(([, info]) => info.failureClass !== undefined)
      .map(([code, info]) => [code, info.failureClass, info.retryable]);
    expect(refusals).toEqual([
      ['unknown_tool', 'tool.unknown_or_disallowed', false],
      ['caller_not_allowed', 'tool.caller_not_allowed', false],
      ['unknown_method', 'tool.unknown_or_disallowed', false],
      ['invalid_input', 'tool.schema_invalid', false],
      ['parallel_call_refused', 'tool.parallel_policy_violation', false],
      ['approval_missing', 'approval.missing', false],
      ['approval_pending', 'approval.pending', false],
      ['approval_denied', 'approval.denied', false],
      ['approval_intent_mismatch', 'approval.intent_mismatch', false],
      ['approval_policy_changed', 'approval.policy_changed', false],
      ['approval_expired', 'approval.expired', false],
      ['approval_decision_conflict', 'approval.decision_conflict', false],
      ['approval_token_invalid', 'approval.token_invalid', false],
    ]);
  });
});
