import { describe, expect, it } from 'vitest';
import { callSpec } from '../../test/arbitraries.ts';
import { joinCheck } from '../check/index.ts';
import { TOOL_USE_DISPOSITIONS } from '../normalize/index.ts';
import {
  checkUse,
  defineContracts,
  delegate,
  errorEnvelopeOf,
  Outcome,
  toToolResult,
  VIOLATION_DISPOSITIONS,
  type ContractedToolResult,
} from './index.ts';

const tools = defineContracts({
  web_fetcher: {
    deliverable: { type: 'object', required: ['body'] },
    methods: ['fetch_url'],
    requiredInputs: ['url'],
  },
});
const { web_fetcher } = tools;
const violated = toToolResult(
  'toolu_01',
  delegate(web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => Outcome.ok({ Body: 'x' })),
);
const refused = toToolResult(
  'toolu_02',
  delegate(web_fetcher, { method: 'fetch_url', input: { url: '' } as unknown }, () => Outcome.ok({ body: 'x' })),
);
const own = toToolResult(
  'toolu_03',
  delegate(web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () =>
    Outcome.error('upstream_unavailable', 'feed returned 503', { retryable: true }),
  ),
);
const fine = toToolResult(
  'toolu_04',
  delegate(web_fetcher, { method: 'fetch_url', input: { url: 'u' } }, () => Outcome.ok({ [Symbol.for('body')]: 'x' })),
);

describe('toToolResult', () => {
  it('makes an ok row with the value in the contract spelling and the record beside it', () => {
    expect(fine).toEqual({
      toolCallId: 'toolu_04',
      status: 'ok',
      output: { body: 'x' },
      validation: expect.objectContaining({ result: 'ok', tool: 'web_fetcher' }) as unknown,
    });
    expect(Object.isFrozen(fine)).toBe(true);
  });

  it('makes a contract violation an error row with a typed, non-retryable envelope and the admissible dispositions', () => {
    expect(violated).toMatchObject({
      toolCallId: 'toolu_01',
      status: 'error',
      error: { errorCode: 'contract_violation', retryable: false },
      admissibleDispositions: ['discarded_with_reason', 'retry_scheduled'],
      validation: { result: 'contract_violation', method: 'fetch_url' },
    });
    expect(violated.status === 'error' && violated.error.errorMessage).toMatch(
      /^web_fetcher\.fetch_url delivered a value/,
    );
    expect(refused).toMatchObject({
      error: { errorCode: 'precondition_failed', retryable: false },
      admissibleDispositions: VIOLATION_DISPOSITIONS,
    });
  });

  it('keeps the tool’s own error as it said it, with every disposition admissible', () => {
    expect(own).toEqual({
      toolCallId: 'toolu_03',
      status: 'error',
      error: { errorCode: 'upstream_unavailable', retryable: true, errorMessage: 'feed returned 503' },
      validation: expect.objectContaining({ result: 'producer_error' }) as unknown,
    });
    expect(errorEnvelopeOf(Outcome.error('x', 'm'))).toEqual({ errorCode: 'x', retryable: false, errorMessage: 'm' });
  });
});

describe('the join check accepts a violated result as a failed call', () => {
  const row = (result: ContractedToolResult) =>
    result.status === 'ok'
      ? { toolCallId: result.toolCallId, status: 'ok', payload: { body: 'x' } }
      : { toolCallId: result.toolCallId, status: 'error', ...result.error };

  it('closes the join with the violated and refused results discarded or retried', () => {
    const results = [violated, refused, own, fine];
    const checked = joinCheck({
      evidence: {
        callSpec,
        toolRequests: results.map((r) => ({ toolCallId: r.toolCallId, toolName: 'web_fetcher' })),
        toolResults: results.map(row),
        toolUse: [
          { toolCallId: 'toolu_01', disposition: 'discarded_with_reason', reasonCode: 'contract_violation' },
          { toolCallId: 'toolu_02', disposition: 'retry_scheduled' },
          { toolCallId: 'toolu_03', disposition: 'observed' },
          { toolCallId: 'toolu_04', disposition: 'observed' },
        ],
        protocolState: { stopReason: 'end_turn', continuationAllowed: false },
      },
    });
    expect(checked.ok && checked.value.result).toBe('accepted');
    expect(checked.ok && checked.value.normalized.toolResults?.find((r) => r.toolCallId === 'toolu_01')).toMatchObject({
      status: 'error',
      error: { errorCode: 'contract_violation', retryable: false },
    });
  });
});

describe('checkUse', () => {
  it.each(TOOL_USE_DISPOSITIONS)('%s on a violated result', (disposition) => {
    const failure = violated.status === 'error' ? checkUse('toolu_01', violated.validation, disposition) : undefined;
    if ((VIOLATION_DISPOSITIONS as readonly string[]).includes(disposition)) expect(failure).toBeUndefined();
    else
      expect(failure).toEqual({
        class: 'tool.schema_invalid',
        detail: `toolu_01: the result of web_fetcher.fetch_url broke its contract (contract_violation); its disposition must be discarded_with_reason or retry_scheduled, not ${disposition}`,
        ids: ['toolu_01'],
      });
  });

  it('admits any disposition for a result that kept its contract or failed in its own words', () => {
    for (const disposition of TOOL_USE_DISPOSITIONS) {
      expect(checkUse('toolu_04', fine.validation, disposition)).toBeUndefined();
      expect(checkUse('toolu_03', own.validation, disposition)).toBeUndefined();
    }
  });
});
