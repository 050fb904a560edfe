import { describe, expect, it } from 'vitest';
import {
  checkTranscriptJson,
  ORPHANED_RESULT_MARK,
  repairTranscriptJson,
  SYNTHESIZED_RESULT_MARK,
  type TranscriptRepair,
} from '../index.ts';
import { runCheck, runRepair } from '../internal.ts';

type Message = Record<string, unknown>;

const system = { role: 'system', content: 'You are a file assistant working in /srv/app.' };
const ask = { role: 'user', content: 'What version is the app?' };
const call = (input: unknown = { path: 'package.json' }, id = 'call_1', name = 'readFile') => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: name,
  input,
});
const result = (
  output: unknown = { type: 'text', value: '{"version":"2.4.1"}' },
  id = 'call_1',
  name = 'readFile',
) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: name,
  output,
});
const answer = { role: 'assistant', content: 'The app is at version 2.4.1.' };

function repaired(messages: readonly Message[], options: { model?: string; expect?: 'sendable' | 'received' } = {}) {
  const outcome = repairTranscriptJson([...messages], { format: 'aisdk', ...options });
  if (!outcome.ok) throw outcome.failures[0];
  return outcome.value;
}

const rulesOf = (repairs: readonly TranscriptRepair[]) => repairs.map((r) => `${r.action} ${r.rule}`);

describe('aisdk repair: shapes', () => {
  it('parses a tool-call input stored as JSON text, and renames the AI SDK 4 args field', () => {
    const value = repaired([
      system,
      ask,
      { role: 'assistant', content: [call('{"path":"package.json"}')] },
      { role: 'tool', content: [result()] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call_2', toolName: 'readFile', args: '{"path":"tsconfig.json"}' }],
      },
      { role: 'tool', content: [result(undefined, 'call_2')] },
    ]);
    expect(value.remaining).toEqual([]);
    expect((value.messages[2] as Message)['content']).toEqual([call({ path: 'package.json' })]);
    expect((value.messages[4] as Message)['content']).toEqual([
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'readFile', input: { path: 'tsconfig.json' } },
    ]);
    expect(rulesOf(value.repairs)).toEqual([
      'rewrote_field aisdk.tool_call_input_json_string',
      'rewrote_field aisdk.tool_call_legacy_args',
      'rewrote_field aisdk.tool_call_input_json_string',
    ]);
    expect(value.repairs[0]?.removed).toEqual(call('{"path":"package.json"}'));
  });

  it('writes an AI SDK 4 result as output by its type, an error as an error output', () => {
    const legacy = (value: unknown, isError?: boolean) => ({
      type: 'tool-result',
      toolCallId: 'call_1',
      toolName: 'readFile',
      result: value,
      ...(isError === undefined ? {} : { isError }),
    });
    const outputOf = (part: unknown) => {
      const value = repaired([
        system,
        ask,
        { role: 'assistant', content: [call()] },
        { role: 'tool', content: [part] },
      ]);
      expect(value.remaining).toEqual([]);
      return ((value.messages[3] as Message)['content'] as Message[])[0];
    };
    expect(outputOf(legacy('Snow'))).toEqual(result({ type: 'text', value: 'Snow' }));
    expect(outputOf(legacy({ version: '2.4.1' }))).toEqual(result({ type: 'json', value: { version: '2.4.1' } }));
    expect(outputOf(legacy('ENOENT', true))).toEqual(result({ type: 'error-text', value: 'ENOENT' }));
    expect(outputOf(legacy({ code: 'ENOENT' }, true))).toEqual(
      result({ type: 'error-json', value: { code: 'ENOENT' } }),
    );
  });

  it('wraps an output that is no ToolResultOutput, and marks one that carries nothing as synthesized', () => {
    const outputOf = (output: unknown) => {
      const value = repaired([
        system,
        ask,
        { role: 'assistant', content: [call()] },
        { role: 'tool', content: [{ ...result(), output }] },
      ]);
      expect(value.remaining).toEqual([]);
      return (((value.messages[3] as Message)['content'] as Message[])[0] as Message)['output'];
    };
    expect(outputOf('Snow')).toEqual({ type: 'text', value: 'Snow' });
    expect(outputOf([{ version: '2.4.1' }])).toEqual({ type: 'json', value: [{ version: '2.4.1' }] });
    expect(outputOf({ version: '2.4.1' })).toEqual({ type: 'json', value: { version: '2.4.1' } });
    expect(outputOf({ type: 'text', value: { version: '2.4.1' } })).toEqual({
      type: 'json',
      value: { version: '2.4.1' },
    });
    expect(outputOf({ type: 'text', text: 'Snow' })).toEqual({ type: 'json', value: { type: 'text', text: 'Snow' } });
    const empty = outputOf(undefined) as Message;
    expect(empty['type']).toBe('error-text');
    expect(String(empty['value']).startsWith(SYNTHESIZED_RESULT_MARK)).toBe(true);
  });

  it("sets a tool-result's toolName from its call: always when it has none, for Gemini when it differs", () => {
    const messages = [
      system,
      ask,
      { role: 'assistant', content: [call(), call(undefined, 'call_2')] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', output: { type: 'text', value: 'a' } },
          result({ type: 'text', value: 'b' }, 'call_2', ''),
        ],
      },
    ];
    const other = repaired(messages, { model: 'gpt-5' });
    expect(rulesOf(other.repairs)).toEqual(['rewrote_field aisdk.tool_result_name_missing']);
    const gemini = repaired(messages, { model: 'gemini-2.5-flash' });
    expect(rulesOf(gemini.repairs)).toEqual([
      'rewrote_field aisdk.tool_result_name_missing',
      'rewrote_field aisdk.tool_result_name_mismatch',
    ]);
    expect((gemini.messages[3] as Message)['content']).toEqual([
      result({ type: 'text', value: 'a' }),
      result({ type: 'text', value: 'b' }, 'call_2'),
    ]);
    expect(checkTranscriptJson([...gemini.messages], { format: 'aisdk', model: 'gemini-2.5-flash' }).result).toBe(
      'accepted',
    );
  });

  it('leaves what it cannot rewrite safely in remaining: an input that is no JSON object, a part its role does not hold', () => {
    const value = repaired([
      system,
      ask,
      { role: 'assistant', content: [call('{"path": "package.js')] },
      { role: 'tool', content: [result(), { type: 'text', text: 'Read from main.' }] },
    ]);
    expect(value.transcript).toBeUndefined();
    expect(value.remaining.map((f) => f.rule)).toEqual([
      'aisdk.tool_call_input_not_object',
      'aisdk.content_not_allowed_for_role',
    ]);
  });
});

describe('aisdk repair: placement', () => {
  it('removes a client result for a provider-executed call, and keeps an execution-denied one', () => {
    const server = {
      type: 'tool-call',
      toolCallId: 'srvtoolu_1',
      toolName: 'web_search',
      input: { query: 'node lts' },
      providerExecuted: true,
    };
    const own = {
      type: 'tool-result',
      toolCallId: 'srvtoolu_1',
      toolName: 'web_search',
      output: { type: 'json', value: [] },
    };
    const client = result({ type: 'error-text', value: 'Invalid input' }, 'srvtoolu_1', 'web_search');
    const value = repaired([
      ask,
      { role: 'assistant', content: [server, own] },
      { role: 'tool', content: [client] },
      ask,
    ]);
    expect(value.messages).toEqual([ask, { role: 'assistant', content: [server, own] }, ask]);
    expect(value.repairs.map((r) => [r.action, r.rule, r.removed])).toEqual([
      ['removed', 'aisdk.provider_executed_call_answered_by_client', client],
    ]);
    const denied = result({ type: 'execution-denied', reason: 'Not now.' }, 'srvtoolu_1', 'web_search');
    const history = [ask, { role: 'assistant', content: [server] }, { role: 'tool', content: [denied] }, ask];
    expect(checkTranscriptJson(history, { format: 'aisdk' }).result).toBe('accepted');
  });

  it('moves a client result out of the assistant message into a tool message after it', () => {
    const value = repaired([system, ask, { role: 'assistant', content: [call(), result()] }, answer]);
    expect(value.remaining).toEqual([]);
    expect(value.messages.slice(2, 4)).toEqual([
      { role: 'assistant', content: [call()] },
      { role: 'tool', content: [result()] },
    ]);
    expect(rulesOf(value.repairs)).toEqual([
      'moved_result aisdk.tool_result_in_assistant_message',
      'inserted_message aisdk.tool_call_unanswered',
    ]);
  });

  it('writes the result the SDK wrote for an earlier approval: unknown outcome when approved, execution-denied when denied', () => {
    const approval = (approved: boolean) => [
      system,
      { role: 'user', content: 'Delete tmp/cache.db.' },
      {
        role: 'assistant',
        content: [
          call({ path: 'tmp/cache.db' }, 'call_9', 'deleteFile'),
          { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_9' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-approval-response',
            approvalId: 'appr_1',
            approved,
            ...(approved ? {} : { reason: 'Still in use.' }),
          },
        ],
      },
      { role: 'user', content: 'Now clear the logs.' },
    ];
    const granted = repaired(approval(true));
    expect(rulesOf(granted.repairs)).toEqual(['synthesized_result aisdk.approved_call_without_result']);
    const written = ((granted.messages[3] as Message)['content'] as Message[])[1] as Message;
    expect(written['toolCallId']).toBe('call_9');
    expect(String((written['output'] as Message)['value']).startsWith(SYNTHESIZED_RESULT_MARK)).toBe(true);
    const refused = repaired(approval(false));
    expect(((refused.messages[3] as Message)['content'] as Message[])[1]).toEqual(
      result({ type: 'execution-denied', reason: 'Still in use.' }, 'call_9', 'deleteFile'),
    );
    expect(refused.remaining).toEqual([]);
  });
});

describe('aisdk repair: an orphaned result keeps its words', () => {
  const orphan = result({ type: 'text', value: 'Yes, deploy to staging.' }, 'call_gone', 'askUser');
  const history = [
    system,
    { role: 'user', content: 'Deploy the app.' },
    { role: 'assistant', content: [call(), { type: 'text', text: 'Checking.' }] },
    { role: 'tool', content: [result(), orphan] },
    answer,
    { role: 'user', content: 'Thanks.' },
  ];

  it('as user text at the end of its turn, recorded', () => {
    const value = repaired(history);
    expect(value.remaining).toEqual([]);
    expect(value.messages).toHaveLength(7);
    expect(value.messages[3]).toEqual({ role: 'tool', content: [result()] });
    expect(value.messages[5]).toEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Yes, deploy to staging.`,
        },
      ],
    });
    expect(value.repairs.map((r) => [r.action, r.rule, r.at, r.removed])).toEqual([
      ['removed', 'aisdk.tool_result_orphan', 'messages[3].content[1]', orphan],
      ['inserted_message', 'aisdk.tool_result_orphan', 'messages[4]', undefined],
    ]);
  });

  it('after the message that opens its turn, when its turn ends the history (open calls, a final approval)', () => {
    const open = { role: 'assistant', content: [call({ path: 'README.md' }, 'call_2')] };
    const value = repaired([...history.slice(0, 4), open], { expect: 'received' });
    expect(value.messages.map((m) => (m as Message)['role'])).toEqual([
      'system',
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(checkTranscriptJson([...value.messages], { format: 'aisdk', expect: 'received' }).openToolCalls).toEqual([
      { id: 'call_2', name: 'readFile', at: 'messages[5].content[0]', messageIndex: 5 },
    ]);
    // The approval response stays the final message, so the SDK still runs the approved call.
    const approval = [
      system,
      { role: 'tool', content: [orphan] },
      {
        role: 'assistant',
        content: [
          call({ id: 'A-1' }, 'call_9', 'refund'),
          { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_9' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'appr_1', approved: true }] },
    ];
    const approved = repaired(approval);
    expect(approved.messages.map((m) => (m as Message)['role'])).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(rulesOf(approved.repairs)).toEqual([
      'removed aisdk.tool_result_orphan',
      'inserted_message aisdk.tool_result_orphan',
    ]);
    // With no message opening the turn, before the first message.
    const first = repaired(approval.slice(1));
    expect(first.messages.map((m) => (m as Message)['role'])).toEqual(['user', 'assistant', 'tool']);
    expect(first.remaining).toEqual([]);
  });

  it('as parts in the prompt the SDK hands its model', () => {
    const prompt = history.map((m) =>
      m.role === 'user' || m.role === 'assistant'
        ? { ...m, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }
        : m,
    );
    const outcome = runRepair(prompt, { format: 'aisdk', expect: 'sendable', stage: 'prompt' });
    if (!outcome.ok) throw outcome.failures[0];
    expect((outcome.value.messages[5] as Message)['content']).toEqual([
      { type: 'text', text: expect.stringContaining('Yes, deploy to staging.') },
    ]);
  });
});

describe('aisdk repair: byte-stable', () => {
  it('keeps every message before the first change the same object', () => {
    const cases: Message[][] = [
      [
        system,
        ask,
        answer,
        ask,
        { role: 'assistant', content: [call('{"a":1}')] },
        { role: 'tool', content: [result()] },
      ],
      [system, ask, answer, ask, { role: 'assistant', content: [call()] }, { role: 'tool', content: [result('Snow')] }],
      [system, ask, answer, ask, { role: 'assistant', content: [call(), result()] }],
      [system, ask, answer, { role: 'tool', content: [result(undefined, 'call_gone')] }, ask],
    ];
    for (const messages of cases) {
      const value = repaired(messages);
      expect(value.changed).toBe(true);
      for (let i = 0; i < 3; i++) expect(value.messages[i]).toBe(messages[i]);
      // Repairing the repaired messages changes nothing more.
      expect(repaired([...value.messages] as Message[]).changed).toBe(false);
    }
  });
});

describe('aisdk approvals in the prompt the SDK hands its model', () => {
  const approved = [
    system,
    ask,
    {
      role: 'assistant',
      content: [call(), { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_1' }],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'appr_1', approved: true }] },
  ];
  const rules = (stage: 'history' | 'prompt') =>
    runCheck(approved, { format: 'aisdk', expect: 'sendable', stage }).failures.map((f) => `${f.rule} ${f.ids.join()}`);
  it('a final approval settles the call in a history (the SDK runs it next), not in the prompt (it was never run)', () => {
    expect(rules('history')).toEqual([]);
    expect(rules('prompt')).toEqual(['aisdk.approved_call_without_result call_1']);
  });
});
