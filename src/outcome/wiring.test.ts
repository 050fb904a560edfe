/**
 * Delegated results in a typed turn: the validation record and the admissible dispositions ride on
 * the typed result rows, the use rule is the typestate layer's, and the join check's evidence is
 * that of the same rows without them.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defaultSpec } from '../../test/turn-fixtures.ts';
import { TOOL_USE_DISPOSITIONS } from '../normalize/index.ts';
import {
  checkAdmissibleDisposition,
  closeJoin,
  defineTools,
  recordResults,
  recordUse,
  requestTools,
  type ReportedToolResult,
  type ToolUseInputRow,
} from '../typestate/index.ts';
import {
  type ContractedToolResult,
  checkUse,
  defineContracts,
  delegate,
  Outcome,
  toToolResult,
  VIOLATION_DISPOSITIONS,
} from './index.ts';

class Fetchers extends defineTools({
  web_fetcher: {
    input: v.object({ url: v.string() }),
    output: v.object({ body: v.string() }),
    methods: ['fetch_url'],
    aliases: { fetch: 'fetch_url' },
  },
}) {}
const { web_fetcher } = defineContracts({
  web_fetcher: { deliverable: { type: 'object', required: ['body'] }, methods: ['fetch_url'] },
});

function requested() {
  const out = requestTools(defaultSpec('code'), Fetchers, [
    { toolCallId: 'ok', toolName: 'web_fetcher', method: 'fetch', input: { url: 'u' } },
    { toolCallId: 'bad', toolName: 'web_fetcher', method: 'fetch_url', input: { url: 'u' } },
    { toolCallId: 'own', toolName: 'web_fetcher', method: 'fetch_url', input: { url: 'u' } },
  ]);
  if (!out.ok) throw new Error(JSON.stringify(out.failures));
  return out.value;
}
const rows = {
  ok: toToolResult(
    'ok',
    delegate(web_fetcher, { method: 'fetch_url' }, () => Outcome.ok({ body: '<rss/>' })),
  ),
  bad: toToolResult(
    'bad',
    delegate(web_fetcher, { method: 'fetch_url' }, () => Outcome.ok({ Body: '<rss/>' })),
  ),
  own: toToolResult(
    'own',
    delegate(web_fetcher, { method: 'fetch_url' }, () => Outcome.error('upstream_unavailable', '503')),
  ),
};
const strip = (row: ContractedToolResult): ReportedToolResult =>
  row.status === 'ok'
    ? { toolCallId: row.toolCallId, status: 'ok', output: row.output }
    : { toolCallId: row.toolCallId, status: 'error', error: row.error };

function resulted(withRecords: boolean) {
  const reported = [rows.ok, rows.bad, rows.own].map((r) => (withRecords ? r : strip(r)));
  const out = recordResults(requested(), reported);
  if (!out.ok) throw new Error(JSON.stringify(out.failures));
  return out.value;
}

describe('delegated results in a typed turn', () => {
  it('records the canonical method and the alias a call used', () => {
    const calls = requested().requests.map((r) => [r.toolCallId, r.method, r.calledAs]);
    expect(calls).toEqual([
      ['ok', 'fetch_url', 'fetch'],
      ['bad', 'fetch_url', undefined],
      ['own', 'fetch_url', undefined],
    ]);
  });

  it('keeps the envelope, the record and the admissible dispositions on the typed rows', () => {
    const [ok, bad, own] = resulted(true).results;
    expect(ok).toMatchObject({ status: 'ok', validation: { result: 'ok' } });
    expect(bad).toMatchObject({
      status: 'error',
      error: { errorCode: 'contract_violation', retryable: false },
      validation: { result: 'contract_violation' },
      admissibleDispositions: [...VIOLATION_DISPOSITIONS],
    });
    expect(own).toMatchObject({ status: 'error', error: { errorCode: 'upstream_unavailable' } });
    expect(own && 'admissibleDispositions' in own).toBe(false);
  });

  it('gives the same digests as the same rows without records (the evidence never carries them)', () => {
    const uses: ToolUseInputRow[] = [
      { toolCallId: 'ok', disposition: 'consumed', evidence: { summaryRef: 'summary://1' } },
      { toolCallId: 'bad', disposition: 'discarded_with_reason', reasonCode: 'contract_violation' },
      { toolCallId: 'own', disposition: 'retry_scheduled', reasonCode: 'upstream' },
    ];
    const closed = [true, false].map((withRecords) => {
      const used = recordUse(resulted(withRecords), uses);
      if (!used.ok) throw new Error(JSON.stringify(used.failures));
      const joined = closeJoin(used.value);
      if (!joined.ok) throw new Error(JSON.stringify(joined.failures));
      return joined.value;
    });
    expect(closed[0]?.normalized).toEqual(closed[1]?.normalized);
    expect(closed[0]?.report).toEqual(closed[1]?.report);
    expect(closed[0]?.results[1]).toHaveProperty('validation');
    expect(closed[1]?.results[1]).not.toHaveProperty('validation');
  });

  it('refuses consumed and observed on a violated result, closes with discarded_with_reason or retry_scheduled', () => {
    for (const disposition of TOOL_USE_DISPOSITIONS) {
      const row: ToolUseInputRow =
        disposition === 'consumed'
          ? { toolCallId: 'bad', disposition, evidence: { summaryRef: 'summary://1' } }
          : { toolCallId: 'bad', disposition, reasonCode: 'contract_violation' };
      const used = recordUse(resulted(true), [
        { toolCallId: 'ok', disposition: 'observed' },
        row,
        { toolCallId: 'own', disposition: 'observed' },
      ]);
      const admissible = (VIOLATION_DISPOSITIONS as readonly string[]).includes(disposition);
      expect(used.ok).toBe(admissible);
      if (!used.ok) {
        expect(used.failures).toEqual([
          {
            class: 'tool.schema_invalid',
            detail: `bad: its result admits only some dispositions; its disposition must be discarded_with_reason or retry_scheduled, not ${disposition}`,
            ids: ['bad'],
          },
        ]);
      }
    }
  });

  it("lets a producer's own error take any disposition", () => {
    for (const disposition of TOOL_USE_DISPOSITIONS) {
      const row: ToolUseInputRow =
        disposition === 'consumed'
          ? { toolCallId: 'own', disposition, evidence: { summaryRef: 'summary://1' } }
          : { toolCallId: 'own', disposition, reasonCode: 'upstream' };
      const used = recordUse(resulted(true), [
        { toolCallId: 'ok', disposition: 'observed' },
        { toolCallId: 'bad', disposition: 'retry_scheduled', reasonCode: 'contract_violation' },
        row,
      ]);
      expect(used.ok).toBe(true);
    }
  });

  it("is one rule: outcome's checkUse answers as the typestate rule does", () => {
    if (rows.bad.status !== 'error') throw new Error('setup');
    for (const disposition of TOOL_USE_DISPOSITIONS) {
      const fromOutcome = checkUse('bad', rows.bad.validation, disposition);
      const fromRule = checkAdmissibleDisposition('bad', disposition, rows.bad.admissibleDispositions);
      expect(fromOutcome === undefined).toBe(fromRule === undefined);
      expect(fromOutcome?.class).toBe(fromRule?.class);
      expect(fromOutcome?.ids).toEqual(fromRule?.ids);
    }
  });

  it('refuses an admissibleDispositions list that is empty or names an unknown disposition', () => {
    for (const admissibleDispositions of [[], ['kept']]) {
      // What a caller without types could pass: the schema, not the type, refuses it.
      const reported: unknown = [rows.ok, { ...rows.bad, admissibleDispositions }, rows.own];
      const out = recordResults(requested(), reported as readonly ReportedToolResult[]);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.failures.map((f) => f.class)).toEqual(['tool.schema_invalid']);
    }
  });
});
