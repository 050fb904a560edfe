/**
 * Hostile servers: a schema that is not JSON Schema, 10 MB results, prototype keys in arguments
 * and results, tool names that collide across servers or fit no provider's grammar; and a tool
 * that needs input before it runs (MCP 2025-11-25's URL elicitation error, the 2026-07-28 draft's
 * `input_required` result), resumed once.
 */
import { toolLoop } from 'turngate/adapters/anthropic';
import { mcpTools } from 'turngate/mcp';
import { describe, expect, it } from 'vitest';
import { outputOf } from '../../src/mcp/call.ts';
import { HISTORY, inMemory, reply } from './helpers.ts';
import { ErrorCode, McpError, OBJECT, rawServer, TEXT, UrlElicitationRequiredError } from './hostile.ts';

describe('hostile servers', () => {
  it('leaves out a tool whose inputSchema is not valid JSON Schema (or has a $ref to fetch), and says why', async () => {
    const client = await inMemory(
      rawServer(
        [
          { name: 'bad', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
          {
            name: 'remote',
            inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
          },
          { name: 'fine', inputSchema: OBJECT },
        ],
        () => TEXT('ok'),
      ),
    );
    const mcp = await mcpTools([{ name: 'raw', client, reads: ['fine'] }]);
    expect(mcp.tools.names).toEqual(['raw__fine']);
    expect(mcp.refused.map((r) => r.tool)).toEqual(['bad', 'remote']);
    expect(mcp.refused[0]?.reason).toContain('inputSchema is not a JSON Schema Ajv accepts: schema is invalid');
    expect(mcp.refused[1]?.reason).toContain("can't resolve reference https://example.com/a.json");
  });

  it('answers a 10 MB result mcp_result_too_large: a read as an error, a mutation as ran-but-not-passed-on', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const client = await inMemory(
      rawServer(
        [
          { name: 'dump', inputSchema: OBJECT },
          { name: 'export', inputSchema: OBJECT },
        ],
        () => TEXT(big),
      ),
    );
    const mcp = await mcpTools([{ name: 'raw', client, reads: ['dump'] }]);
    const read = await toolLoop(mcp).answer(HISTORY, reply('msg_1', [['toolu_1', 'raw__dump', {}]]));
    expect(read.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'mcp_result_too_large' } });
    const mutation = await toolLoop(mcp).answer(HISTORY, reply('msg_2', [['toolu_1', 'raw__export', {}]]));
    expect(mutation.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'mcp_result_too_large' } });
    expect(mutation.results[0]?.status === 'error' && mutation.results[0].error.errorMessage).toMatch(
      /^the tool ran and answered, but raw\/export answered \d+ bytes, over maxResultBytes \(1000000\)/,
    );
    expect(JSON.stringify(mutation.messages).length).toBeLessThan(10_000);
  });

  it('passes __proto__ keys in arguments and results as keys, and pollutes nothing', async () => {
    const seen: unknown[] = [];
    const client = await inMemory(
      rawServer([{ name: 'echo', inputSchema: OBJECT }], (params) => {
        seen.push(params['arguments']);
        return { content: [], structuredContent: JSON.parse('{"__proto__":{"polluted":true},"ok":true}') };
      }),
    );
    const mcp = await mcpTools([{ name: 'raw', client, reads: ['echo'] }]);
    const args = JSON.parse('{"__proto__":{"admin":true},"q":"x"}');
    const step = await toolLoop(mcp).answer(HISTORY, reply('msg_3', [['toolu_1', 'raw__echo', args]]));
    const output = step.results[0]?.status === 'ok' ? (step.results[0].output as Record<string, unknown>) : undefined;
    // The SDK's own schema of a result (zod) drops a `__proto__` key before the result reaches us:
    // what is left is a plain copy with nothing inherited.
    expect(JSON.stringify(output)).toBe('{"ok":true}');
    expect(output?.['polluted']).toBeUndefined();
    // A result that still holds one (another SDK version, another transport): kept as a key.
    const plan = { server: 'raw', tool: 'echo', name: 'raw__echo', mutation: false, output: undefined } as const;
    const raw = { content: [], structuredContent: JSON.parse('{"__proto__":{"polluted":true},"ok":true}') };
    const copied = outputOf(
      { ...plan, client, maxResultBytes: 1000, timeoutMs: undefined, onInputRequired: undefined },
      raw,
      10,
    ) as object;
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(JSON.stringify(copied)).toBe('{"__proto__":{"polluted":true},"ok":true}');
    expect(seen.length).toBe(1);
    expect(Object.hasOwn(seen[0] as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it("keeps tool names apart across servers and inside the providers' grammar", async () => {
    const long = `lookup_${'x'.repeat(70)}`;
    const tools = [
      { name: 'lookup', inputSchema: OBJECT },
      { name: 'get.order', inputSchema: OBJECT },
      { name: 'get_order', inputSchema: OBJECT },
      { name: long, inputSchema: OBJECT },
      { name: 'lookup', inputSchema: OBJECT },
    ];
    const calls: string[] = [];
    const a = await inMemory(
      rawServer(tools, (p) => {
        calls.push(`a:${p['name']}`);
        return TEXT('a');
      }),
    );
    const b = await inMemory(
      rawServer(tools, (p) => {
        calls.push(`b:${p['name']}`);
        return TEXT('b');
      }),
    );
    const mcp = await mcpTools([
      { name: 'a', client: a, reads: ['lookup', 'get.order'] },
      { name: 'b', client: b, reads: ['lookup'] },
    ]);
    const names = mcp.tools.names;
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/);
    expect(names).toContain('a__lookup');
    expect(names).toContain('b__lookup');
    expect(names).toContain('a__get_order');
    const dotted = mcp.entries.find((e) => e.server === 'a' && e.tool === 'get.order')?.name;
    expect(dotted).toMatch(/^a__get_order_[0-9a-f]{8}$/);
    expect(mcp.refused.filter((r) => r.tool === 'lookup').map((r) => r.reason)).toEqual([
      'the server lists two tools with this name',
      'the server lists two tools with this name',
    ]);
    const step = await toolLoop(mcp).answer(
      HISTORY,
      reply('msg_4', [
        ['toolu_1', 'a__lookup', {}],
        ['toolu_2', 'b__lookup', {}],
        ['toolu_3', dotted ?? '', {}],
      ]),
    );
    expect(step.results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(calls).toEqual(['a:lookup', 'b:lookup', 'a:get.order']);
  });
});

describe('JSON-RPC errors: refused before running, or an unknown outcome', () => {
  it('a server that answers invalid params refused the call (not run); one that fails inside (internal error) leaves it unknown', async () => {
    const client = await inMemory(
      rawServer(
        [
          { name: 'pay', inputSchema: OBJECT },
          { name: 'ship', inputSchema: OBJECT },
        ],
        (params) => {
          if (params['name'] === 'pay') throw new McpError(ErrorCode.InvalidParams, 'amount missing');
          throw new Error('the warehouse API timed out halfway');
        },
      ),
    );
    const mcp = await mcpTools([{ name: 'shop', client }]);
    const step = await toolLoop(mcp).answer(
      HISTORY,
      reply('msg_9', [
        ['toolu_1', 'shop__pay', {}],
        ['toolu_2', 'shop__ship', {}],
      ]),
    );
    expect(step.results.map((r) => (r.status === 'error' ? r.error.errorCode : r.status))).toEqual([
      'mcp_call_refused',
      'effect_outcome_unknown',
    ]);
    expect(step.results[0]?.status === 'error' && step.results[0].error.errorMessage).toContain('it did not run');
  });
});

describe('a tool that needs input before it runs', () => {
  it('input_required (MRTR): the hook answers, the same call is sent once more with the requestState', async () => {
    const effects: string[] = [];
    const sent: unknown[] = [];
    const client = await inMemory(
      rawServer([{ name: 'delete_repo', inputSchema: OBJECT }], (params) => {
        sent.push({ state: params['requestState'] ?? null, responses: params['inputResponses'] ?? null });
        if (params['requestState'] !== 'st-1') {
          return {
            resultType: 'input_required',
            content: [],
            inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Delete it?' } } },
            requestState: 'st-1',
          };
        }
        effects.push('deleted');
        return TEXT('deleted');
      }),
    );
    const asked: unknown[] = [];
    const mcp = await mcpTools([
      {
        name: 'gh',
        client,
        onInputRequired: (request) => {
          asked.push(request);
          return { inputResponses: { confirm: { action: 'accept' } } };
        },
      },
    ]);
    const step = await toolLoop(mcp).answer(HISTORY, reply('msg_5', [['toolu_1', 'gh__delete_repo', { name: 'x' }]]));
    expect(step.results[0]).toMatchObject({ status: 'ok', output: 'deleted' });
    expect(step.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(asked).toMatchObject([{ kind: 'input_required', tool: 'delete_repo', requestState: 'st-1' }]);
    expect(sent).toEqual([
      { state: null, responses: null },
      { state: 'st-1', responses: { confirm: { action: 'accept' } } },
    ]);
    expect(effects).toEqual(['deleted']);
  });

  it('URL elicitation required (2025-11-25): without a hook the call is answered mcp_input_required and not run', async () => {
    let calls = 0;
    const client = await inMemory(
      rawServer([{ name: 'sync', inputSchema: OBJECT }], () => {
        calls++;
        throw new UrlElicitationRequiredError([
          { mode: 'url', url: 'https://example.com/connect', elicitationId: 'e-1', message: 'Connect your account' },
        ]);
      }),
    );
    const mcp = await mcpTools([{ name: 'drive', client }]);
    const step = await toolLoop(mcp).answer(HISTORY, reply('msg_6', [['toolu_1', 'drive__sync', {}]]));
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'mcp_input_required' } });
    expect(calls).toBe(1);
    // With a hook that has the user visit the URL: sent once more; a second ask is not followed.
    const hooked = await mcpTools([{ name: 'drive', client, onInputRequired: () => ({}) }]);
    const again = await toolLoop(hooked).answer(HISTORY, reply('msg_7', [['toolu_2', 'drive__sync', {}]]));
    expect(again.results[0]).toMatchObject({
      status: 'error',
      error: {
        errorCode: 'mcp_input_required',
        errorMessage: 'drive/sync asked for input again after it was given once; it did not run',
      },
    });
    expect(calls).toBe(3);
  });
});
