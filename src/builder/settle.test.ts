import { describe, expect, it, vi } from 'vitest';
import { continuing, specFor, tools } from '../../test/turn-fixtures.ts';
import { closeJoin, requestTools, settle, useAll } from '../index.ts';

describe('settle and useAll', () => {
  it('give one result per request and one disposition per result; mutation tools do not run', async () => {
    const requested = requestTools(specFor('code'), tools, [
      { toolCallId: 'model-1', toolName: 'fs.read', input: { path: 'a' } },
      { toolCallId: 'model-2', toolName: 'web.search', input: { query: 'q' } },
      { toolCallId: 'model-3', toolName: 'issues.update', input: { id: '1', status: 'closed' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const run = vi.fn(async (request: { toolName: string }) => {
      if (request.toolName === 'web.search')
        throw Object.assign(new Error('search backend down'), { code: 'unavailable', retryable: true });
      return { text: 'A' };
    });
    const results = await settle(requested.value, run);
    expect(run).toHaveBeenCalledTimes(2);
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    expect(results.value.results.map((r) => (r.status === 'ok' ? 'ok' : r.error.errorCode))).toEqual([
      'ok',
      'unavailable',
      'mutation_not_admitted',
    ]);
    const use = useAll(results.value, (r) =>
      r.status === 'ok' ? { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } } : 'observed',
    );
    if (!use.ok) throw new Error('setup');
    const closed = closeJoin(use.value, continuing(['model-1', 'model-2', 'model-3']));
    expect(closed.ok).toBe(true);
  });
});
