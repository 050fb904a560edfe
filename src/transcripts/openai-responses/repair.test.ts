import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTranscriptJson, ORPHANED_RESULT_MARK, repairTranscriptJson, SYNTHESIZED_RESULT_MARK } from '../index.ts';

const format = 'openai-responses' as const;
const user = { role: 'user', content: 'Where is order 4471?' };
const call = (callId: string, extra: Record<string, unknown> = {}) => ({
  type: 'function_call',
  call_id: callId,
  name: 'get_order_status',
  arguments: '{"order_id":"4471"}',
  ...extra,
});
const output = (callId: string, out: unknown = 'shipped') => ({
  type: 'function_call_output',
  call_id: callId,
  output: out,
});

/** Repairs, and checks what every repair must give: accepted, idempotent, the input's objects kept before the first change. */
function repaired(input: unknown) {
  const result = repairTranscriptJson(input, { format });
  if (!result.ok) throw result.failures[0];
  const { messages, repairs, remaining } = result.value;
  const items = Array.isArray(input) ? input : (input as { input: unknown[] }).input;
  const body = Array.isArray(input) ? undefined : (input as Record<string, unknown>);
  const again = repairTranscriptJson(body === undefined ? [...messages] : { ...body, input: [...messages] }, {
    format,
  });
  expect(again.ok && again.value.changed).toBe(false);
  let first = 0;
  while (first < items.length && messages[first] === items[first]) first++;
  for (let i = 0; i < first; i++) expect(messages[i]).toBe(items[i]);
  return { messages: messages as Record<string, unknown>[], repairs, remaining, first };
}

const rulesOf = (input: unknown) => checkTranscriptJson(input, { format }).failures.map((f) => f.rule);

describe('openai-responses call_id length', () => {
  const long = `call_${'x'.repeat(60)}`;
  it('renames an over-long call_id on the call and its output alike, to at most 64 characters', () => {
    const items = [user, call(long), output(long), { role: 'user', content: 'Thanks' }];
    expect(rulesOf(items)).toEqual(['openai-responses.call_id_too_long', 'openai-responses.call_id_too_long']);
    const { messages, repairs, first } = repaired(items);
    const renamed = messages[1]?.['call_id'] as string;
    expect(renamed.length).toBeLessThanOrEqual(64);
    expect(messages[2]?.['call_id']).toBe(renamed);
    expect(repairs.map((r) => [r.action, r.ids])).toEqual([['renamed_call', [long, renamed]]]);
    expect(first).toBe(1);
    expect(messages[3]).toBe(items[3]);
    // Deterministic: the same input gets the same id.
    expect(repaired(items).messages[1]?.['call_id']).toBe(renamed);
  });

  it('gives two long ids with one start two different ids', () => {
    const a = `${'y'.repeat(70)}a`;
    const b = `${'y'.repeat(70)}b`;
    const { messages } = repaired([user, call(a), call(b), output(a), output(b)]);
    expect(messages[1]?.['call_id']).not.toBe(messages[2]?.['call_id']);
    expect([messages[3]?.['call_id'], messages[4]?.['call_id']]).toEqual([
      messages[1]?.['call_id'],
      messages[2]?.['call_id'],
    ]);
  });

  it('leaves an output whose call the server holds: renaming one side would unpair it', () => {
    const body = { previous_response_id: 'resp_1', input: [output(long)] };
    const result = repairTranscriptJson(body, { format });
    expect(result.ok && result.value.remaining.map((f) => f.rule)).toEqual(['openai-responses.call_id_too_long']);
  });
});

describe('openai-responses output types', () => {
  const custom = { type: 'custom_tool_call', call_id: 'call_c', name: 'run_sql', input: 'SELECT 1' };
  it('gives a function output answering a custom call the custom output type', () => {
    const items = [user, custom, { type: 'function_call_output', id: 'fco_1', call_id: 'call_c', output: '1' }];
    expect(rulesOf(items)).toEqual(['openai-responses.output_type_mismatch']);
    const { messages, repairs } = repaired(items);
    expect(messages[2]).toEqual({ type: 'custom_tool_call_output', call_id: 'call_c', output: '1' });
    expect(repairs[0]?.action).toBe('rewrote_field');
  });

  it('replaces an output that cannot take its call type by its text, and answers the call', () => {
    const shell = { type: 'shell_call', call_id: 'call_s', action: { commands: ['ls'] } };
    const items = [user, shell, output('call_s', 'README.md')];
    const { messages } = repaired(items);
    expect(messages.map((m) => m['type'] ?? m['role'])).toEqual(['user', 'shell_call', 'shell_call_output', 'user']);
    expect(JSON.stringify(messages[2]?.['output'])).toContain(SYNTHESIZED_RESULT_MARK);
    expect(messages[3]?.['content']).toBe(
      `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: README.md`,
    );
  });

  it('drops a mismatched output when the call has its own output too', () => {
    const items = [
      user,
      custom,
      output('call_c', 'one'),
      { type: 'custom_tool_call_output', call_id: 'call_c', output: '1' },
    ];
    const { messages } = repaired(items);
    expect(messages).toEqual([user, custom, items[3]]);
  });
});

describe('openai-responses orphan outputs keep their text', () => {
  it('as a user message in their place, marked', () => {
    const items = [
      user,
      output('call_gone', [{ type: 'input_text', text: 'Ana said yes' }]),
      call('call_1'),
      output('call_1'),
    ];
    const { messages, repairs } = repaired(items);
    expect(messages[1]).toEqual({
      role: 'user',
      content: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Ana said yes`,
    });
    expect(messages[2]).toBe(items[2]);
    expect(repairs[0]).toMatchObject({ action: 'removed', removed: items[1] });
  });

  it('and an output without text goes', () => {
    const { messages } = repaired([user, output('call_gone', '  ')]);
    expect(messages).toEqual([user]);
  });
});

describe('openai-responses store: false', () => {
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
  const items = [user, reasoning, call('call_1', { id: 'fc_1' }), output('call_1')];
  it('rejects a reasoning item by id without encrypted_content, and repair drops it', () => {
    const body = { model: 'gpt-5', store: false, input: items };
    expect(rulesOf(body)).toEqual(['openai-responses.reasoning_not_persisted']);
    const { messages } = repaired(body);
    expect(messages).toEqual([user, items[2], items[3]]);
  });

  it('accepts it with its encrypted_content, under store: true, or when a stored response is continued', () => {
    expect(
      rulesOf({ store: false, input: [user, { ...reasoning, encrypted_content: 'gAAA' }, ...items.slice(2)] }),
    ).toEqual([]);
    expect(rulesOf({ store: true, input: items })).toEqual([]);
    expect(rulesOf({ store: false, previous_response_id: 'resp_1', input: items })).toEqual([]);
  });
});

describe('openai-responses server state', () => {
  it('accepts an output answering a call the stored response or conversation holds', () => {
    const input = [output('call_stored')];
    expect(rulesOf({ previous_response_id: 'resp_1', input })).toEqual([]);
    expect(rulesOf({ conversation: 'conv_1', input })).toEqual([]);
    expect(rulesOf({ conversation: { id: 'conv_1' }, input })).toEqual([]);
    expect(rulesOf(input)).toEqual(['openai-responses.function_call_output_orphan']);
  });
});

describe('openai-responses field shapes', () => {
  it('serializes object arguments, stringifies an object output, leaves out an invalid id', () => {
    const items = [
      user,
      call('call_1', { id: 'item_1', arguments: { order_id: '4471' } }),
      output('call_1', { status: 'shipped' }),
    ];
    expect(rulesOf(items).sort()).toEqual([
      'openai-responses.function_call_arguments_not_string',
      'openai-responses.item_id_invalid',
      'openai-responses.output_not_content',
    ]);
    const { messages, repairs } = repaired(items);
    expect(messages).toEqual([user, call('call_1'), output('call_1', '{"status":"shipped"}')]);
    expect(repairs.every((r) => r.action === 'rewrote_field')).toBe(true);
  });

  it('parses the string arguments of a tool_search_call, removes a reasoning item with a foreign id', () => {
    const items = [
      user,
      { type: 'tool_search_call', arguments: '{"query":"orders"}', execution: 'server' },
      { type: 'reasoning', id: 'msg_1', summary: [] },
      call('call_1'),
      output('call_1'),
    ];
    const { messages } = repaired(items);
    expect(messages).toEqual([user, { ...items[1], arguments: { query: 'orders' } }, items[3], items[4]]);
  });

  it('reports an empty call name and leaves it: no repair can know the name', () => {
    const result = repairTranscriptJson([user, call('call_1', { name: '' }), output('call_1')], { format });
    expect(result.ok && result.value.remaining.map((f) => [f.rule, f.at])).toEqual([
      ['openai-responses.function_call_name_empty', 'input[1].name'],
    ]);
  });
});

describe('openai-responses MCP approvals', () => {
  it('removes an approval response naming no approval request in the input', () => {
    const approval = { type: 'mcp_approval_response', approval_request_id: 'call_1', approve: true };
    const items = [user, call('call_1'), output('call_1'), approval];
    expect(rulesOf(items)).toEqual(['openai-responses.mcp_approval_response_orphan']);
    expect(repaired(items).messages).toEqual(items.slice(0, 3));
    expect(rulesOf({ previous_response_id: 'resp_1', input: items })).toEqual([]);
  });
});

describe('openai-responses repair over generated items', () => {
  const ids = ['call_a', 'call_b', 'c'.repeat(70), `${'c'.repeat(70)}x`];
  const defined = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const item = fc.oneof(
    fc.constant({ role: 'user', content: 'hi' }),
    fc.record({
      type: fc.constant('message'),
      role: fc.constant('assistant'),
      content: fc.constant('ok'),
      id: fc.constantFrom(undefined, 'msg_1', 'rs_9', '', 5),
    }),
    fc.record({
      type: fc.constant('reasoning'),
      id: fc.constantFrom('rs_1', 'rs_2', 'item_x', '', 7),
      summary: fc.constant([]),
      encrypted_content: fc.constantFrom(undefined, 'gAAA'),
    }),
    fc.record({
      type: fc.constantFrom('function_call', 'custom_tool_call'),
      call_id: fc.constantFrom(...ids),
      name: fc.constant('f'),
      arguments: fc.constantFrom('{}', { a: 1 }, undefined),
      id: fc.constantFrom(undefined, 'fc_1', 'fc_2', 'ctc_1', 'item_1'),
    }),
    fc.record({
      type: fc.constantFrom('shell_call', 'computer_call', 'local_shell_call', 'apply_patch_call'),
      call_id: fc.constantFrom(...ids),
    }),
    fc.record({
      type: fc.constantFrom(
        'function_call_output',
        'custom_tool_call_output',
        'shell_call_output',
        'computer_call_output',
      ),
      call_id: fc.constantFrom(...ids, undefined, 3),
      output: fc.constantFrom('res', { x: 1 }, [{ type: 'input_text', text: 't' }], [1], undefined, [{ stdout: 'o' }]),
      id: fc.constantFrom(undefined, 'fco_1', ''),
    }),
    fc.record({ type: fc.constant('local_shell_call_output'), id: fc.constantFrom(...ids), output: fc.constant('x') }),
    fc.record({
      type: fc.constant('mcp_approval_request'),
      id: fc.constantFrom('mcpr_1', 'mcpr_2'),
      server_label: fc.constant('s'),
      name: fc.constant('n'),
      arguments: fc.constant('{}'),
    }),
    fc.record({
      type: fc.constant('mcp_approval_response'),
      approval_request_id: fc.constantFrom('mcpr_1', 'call_a', undefined),
      approve: fc.boolean(),
    }),
    fc.record({
      type: fc.constant('tool_search_call'),
      arguments: fc.constantFrom('{"q":1}', { q: 1 }),
      execution: fc.constant('server'),
    }),
  );
  const body = fc.record({ store: fc.constantFrom(undefined, false, true) });

  it('reads every such item as a transcript, and repairs it to accepted, idempotently', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        body,
        fc.constantFrom('sendable', 'received'),
        (list, b, expectation) => {
          const input = { ...defined(b), input: list.map(defined) };
          expect(checkTranscriptJson(input, { format, expect: expectation }).result).not.toBe('invalid');
          const result = repairTranscriptJson(input, { format, expect: expectation });
          if (!result.ok) throw result.failures[0];
          expect(result.value.remaining).toEqual([]);
          const again = repairTranscriptJson(
            { ...input, input: [...result.value.messages] },
            { format, expect: expectation },
          );
          expect(again.ok && again.value.changed).toBe(false);
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  });
});

describe('openai-responses reasoning before a replayed call', () => {
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA' };
  const items = [user, call('call_1', { id: 'fc_1' }), output('call_1')];
  it('runs for a reasoning model or an input holding reasoning items, not for other models or under store: false', () => {
    const rule = 'openai-responses.function_call_without_reasoning';
    expect(rulesOf({ model: 'gpt-5-mini', input: items })).toEqual([rule]);
    expect(rulesOf({ model: 'openai/o4-mini', input: items })).toEqual([rule]);
    expect(rulesOf({ model: 'gpt-4.1', input: items })).toEqual([]);
    expect(rulesOf({ model: 'gpt-5-chat-latest', input: items })).toEqual([]);
    expect(rulesOf(items)).toEqual([]);
    expect(rulesOf([user, reasoning, call('call_0'), output('call_0'), ...items.slice(1)])).toEqual([rule]);
    expect(rulesOf({ model: 'gpt-5', store: false, input: items })).toEqual([]);
    expect(rulesOf({ model: 'gpt-5', input: [user, reasoning, ...items.slice(1)] })).toEqual([]);
  });

  it('repair leaves out the call item id, and the call still pairs with its output by call_id', () => {
    const body = { model: 'o3', input: items };
    const { messages, repairs } = repaired(body);
    expect(messages).toEqual([user, call('call_1'), items[2]]);
    expect(repairs.map((r) => r.rule)).toEqual(['openai-responses.function_call_without_reasoning']);
  });
});
