import { describe, expect, it, vi } from 'vitest';
import { classes, defaultSpec, fromModel, Tools, withPollution } from '../../test/turn-fixtures.ts';
import { closeJoin, requestTools, settle, useAll, type ToolHandlers } from '../index.ts';

function requested() {
  const r = requestTools(
    defaultSpec('code'),
    Tools,
    fromModel([
      { toolCallId: 'ok', toolName: 'read_file', input: { path: 'a' } },
      { toolCallId: 'empty-error', toolName: 'read_file', input: { path: 'throw:empty' } },
      { toolCallId: 'coded', toolName: 'search_web', input: { query: 'coded' } },
      { toolCallId: 'string', toolName: 'search_web', input: { query: 'string' } },
      { toolCallId: 'undefined', toolName: 'search_web', input: { query: 'undefined' } },
      { toolCallId: 'bad-shape', toolName: 'read_file', input: { path: 'shape' } },
      { toolCallId: 'cyclic', toolName: 'read_file', input: { path: 'cyclic' } },
      { toolCallId: 'deep', toolName: 'read_file', input: { path: 'deep' } },
      { toolCallId: 'getter', toolName: 'read_file', input: { path: 'getter' } },
      { toolCallId: 'unknown', toolName: 'rm_rf', input: {} },
      { toolCallId: 'bad-input', toolName: 'read_file', input: { path: 1 } },
      { toolCallId: 'mutation', toolName: 'update_issue', input: { id: '7', status: 'closed' } },
    ]),
  );
  if (!r.ok) throw new Error(JSON.stringify(r.failures));
  return r.value;
}

const handlers: ToolHandlers<Tools> = {
  read_file: async ({ path }) => {
    if (path === 'throw:empty') throw new Error('');
    // biome-ignore lint/plugin: the handler returns what its types forbid, to check the run-time refusal
    if (path === 'shape') return { text: 3 } as unknown as { text: string };
    if (path === 'cyclic') {
      const cyclic: Record<string, unknown> = { text: 'x' };
      cyclic['self'] = cyclic;
      return cyclic as { text: string };
    }
    if (path === 'deep') return JSON.parse(`{"text":"x","n":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    if (path === 'getter') {
      return {
        get text(): string {
          throw new Error('getter');
        },
      };
    }
    return { text: `contents of ${path}` };
  },
  search_web: ({ query }) => {
    if (query === 'coded') throw Object.assign(new Error('backend down'), { code: 'unavailable', retryable: true });
    if (query === 'string') throw 'plain string';
    if (query === 'undefined') throw undefined;
    return { hits: 1 };
  },
  exec_only: () => ({}),
};

describe('settle', () => {
  it('answers every call once, in call order, each failure as that call’s typed error result', async () => {
    const results = await settle(requested(), handlers);
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    const summary = results.value.results.map((r) =>
      r.status === 'ok' ? [r.toolCallId, 'ok'] : [r.toolCallId, r.error.errorCode, r.error.retryable],
    );
    expect(summary).toEqual([
      ['ok', 'ok'],
      ['empty-error', 'tool_error', false],
      ['coded', 'unavailable', true],
      ['string', 'tool_error', false],
      ['undefined', 'tool_error', false],
      ['bad-shape', 'invalid_output', false],
      ['cyclic', 'invalid_output', false],
      ['deep', 'invalid_output', false],
      ['getter', 'invalid_output', false],
      ['unknown', 'unknown_tool', false],
      ['bad-input', 'invalid_input', false],
      ['mutation', 'mutation_pending', true],
    ]);
    const message = (id: string) => {
      const r = results.value.results.find((x) => x.toolCallId === id);
      return r?.status === 'error' ? r.error.errorMessage : undefined;
    };
    expect(message('empty-error')).toBe('read_file threw Error with no message');
    expect(message('string')).toBe('plain string');
    expect(message('undefined')).toMatch(/search_web threw/);
    expect(message('cyclic')).toMatch(/cycle/);
    expect(message('getter')).toMatch(/threw Error: getter/);
  });

  it('lets the turn close: useAll disposes of every result, the default profile derives the context', async () => {
    const results = await settle(requested(), handlers);
    if (!results.ok) throw new Error('setup');
    const decide = vi.fn((r: { status: string }) =>
      r.status === 'ok'
        ? { disposition: 'consumed' as const, evidence: { summaryRef: 'summary://1' } }
        : ('observed' as const),
    );
    const use = useAll(results.value, decide);
    if (!use.ok) throw new Error(JSON.stringify(use.failures));
    expect(decide).toHaveBeenCalledTimes(11);
    expect(use.value.uses.find((u) => u.toolCallId === 'mutation')).toEqual({
      toolCallId: 'mutation',
      disposition: 'retry_scheduled',
      reasonCode: 'mutation_pending',
    });
    const closed = closeJoin(use.value, { protocolState: { format: 'anthropic', stopReason: 'tool_use' } });
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    expect(closed.value.pendingMutations).toEqual(['mutation']);
    expect(closed.value.refusals.map((f) => [f.class, f.ids])).toEqual([
      ['tool.schema_invalid', ['bad-input']],
      ['tool.unknown_or_disallowed', ['unknown']],
    ]);
  });

  it('takes handlers as own properties only, and answers a missing one with no_handler', async () => {
    const r = requestTools(defaultSpec('code'), Tools, [
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'a' } },
    ]);
    if (!r.ok) throw new Error('setup');
    const requestsValue = r.value;
    const forged = vi.fn(() => ({ text: 'forged' }));
    const results = await withPollution({ read_file: forged }, () =>
      // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
      settle(requestsValue, {} as never),
    );
    expect(forged).not.toHaveBeenCalled();
    const only = results.ok ? results.value.results[0] : undefined;
    expect(only?.status === 'error' && only.error.errorCode).toBe('no_handler');
    expect(classes(results)).toEqual([]);
  });
});
