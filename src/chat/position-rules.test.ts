/**
 * "A history a provider would reject is never saved": each position rule of the transcripts
 * layer's `chat` format, broken by what a graph produces, gives `errored` through `send()` and
 * leaves the stored session exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_RULES } from '../transcripts/chat/rules.ts';
import { type ChatTurnErrored, createChatHarness, InMemorySessionStore, sequentialGraph } from './index.ts';
import type { ChatMessage } from '../transcripts/index.ts';

const call = (id: string) => ({ id, name: 'lookup', arguments: {} });
const asks = (id: string): ChatMessage => ({ role: 'assistant', tool_calls: [call(id)] });
const asksTwo = (a: string, b: string): ChatMessage => ({ role: 'assistant', tool_calls: [call(a), call(b)] });
const asksMany = (ids: readonly string[]): ChatMessage => ({
  role: 'assistant',
  tool_calls: [call(ids[0] as string), ...ids.slice(1).map(call)],
});
const ids129 = Array.from({ length: 129 }, (_, k) => `c1_${k}`);
const answer = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const user: ChatMessage = { role: 'user', content: 'and then?' };
const done: ChatMessage = { role: 'assistant', content: 'done' };

/** What the graph adds after the inbound user message, per rule it breaks. */
const CASES = [
  ['chat.tool_call_unanswered', 'tool.result_missing', [asksTwo('c1', 'c2'), answer('c1'), done]],
  ['chat.tool_result_orphan', 'tool.result_orphan', [answer('c9'), done]],
  [
    'chat.tool_result_not_adjacent',
    'protocol.parallel_transport_order_invalid',
    [asks('c1'), user, answer('c1'), done],
  ],
  [
    'chat.tool_result_before_call',
    'protocol.parallel_transport_order_invalid',
    [answer('c1'), asks('c1'), answer('c1'), done],
  ],
  ['chat.duplicate_tool_result', 'tool.schema_invalid', [asks('c1'), answer('c1'), answer('c1'), done]],
  ['chat.duplicate_tool_call_id', 'tool.schema_invalid', [asks('c1'), answer('c1'), asks('c1'), answer('c1'), done]],
  [
    'chat.tool_call_id_too_long',
    'tool.schema_invalid',
    [asks(`c1${'x'.repeat(40)}`), answer(`c1${'x'.repeat(40)}`), done],
  ],
  ['chat.too_many_tool_calls', 'tool.schema_invalid', [asksMany(ids129), ...ids129.map(answer), done]],
] as const;

describe('send() never saves a history the chat check rejects', () => {
  it('covers every rule of the chat format', () => {
    expect(new Set(CASES.map(([rule]) => rule))).toEqual(new Set(Object.keys(CHAT_RULES)));
  });

  it.each(CASES)(
    '%s: errored, the cause names the rule, the store is unchanged',
    async (rule, failureClass, produced) => {
      let bad = false;
      const graph = sequentialGraph({
        entry: 'model',
        nodes: { model: () => ({ messages: bad ? [...produced] : [{ role: 'assistant', content: 'hello' }] }) },
        edges: [],
      });
      const store = new InMemorySessionStore();
      const harness = createChatHarness({ graph, store });
      expect((await harness.send('s', { role: 'user', content: 'hi' })).outcome).toBe('completed');
      const before = JSON.stringify(await store.load('s'));
      bad = true;
      const outcome = (await harness.send('s', { role: 'user', content: 'go' })) as ChatTurnErrored;
      expect(outcome.outcome).toBe('errored');
      const failures = (outcome.cause as { failures: readonly { rule: string; class: string }[] }).failures;
      expect(failures.find((f) => f.rule === rule)?.class).toBe(failureClass);
      expect(outcome.errorCategory).toBe(failures[0]?.class);
      expect(JSON.stringify(await store.load('s'))).toBe(before);
      expect(JSON.stringify(outcome)).not.toMatch(/c1|c9/);
    },
  );
});
