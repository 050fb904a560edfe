/**
 * Type tests of turngate/chat: messages are typed per role, outcomes are a union on `outcome`,
 * and a non-exhaustive match does not compile. Negative cases use `@ts-expect-error`.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { ChatHarness, ChatMessage, ChatTurnOutcome, ErrorBucket, SessionStore } from 'turngate/chat';
import { InMemorySessionStore } from 'turngate/chat';

declare const harness: ChatHarness;

// Messages: the four roles with their per-role fields.
expectAssignable<ChatMessage>({ role: 'tool', tool_call_id: 'call_1', content: 'Sunny' });
expectAssignable<ChatMessage>({
  role: 'assistant',
  content: [],
  tool_calls: [{ id: 'c', name: 'get_weather', arguments: { city: 'Oslo' } }],
});
expectAssignable<ChatMessage>({
  role: 'user',
  content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
});
// @ts-expect-error -- a tool message needs tool_call_id
void harness.send('s', { role: 'tool', content: 'Sunny' });
// @ts-expect-error -- tool_calls belong to assistant messages only
void harness.send('s', { role: 'user', content: 'hi', tool_calls: [] });
// @ts-expect-error -- image blocks are user-only
expectAssignable<ChatMessage>({ role: 'assistant', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] });
// @ts-expect-error -- no such role
void harness.send('s', { role: 'developer', content: 'hi' });
expectNotAssignable<ChatMessage>({ role: 'system', content: [{ type: 'text', text: 'system prompts are strings' }] });

// Outcomes: a union discriminated on `outcome`.
declare const outcome: ChatTurnOutcome;
const summary = match(outcome)
  .with({ outcome: 'completed' }, (o) => o.replies.length)
  .with({ outcome: 'suspended' }, (o) => o.pendingMessages.length)
  .with({ outcome: 'errored' }, (o) => (o.errorBucket === 'user_correctable' ? 1 : 0))
  .exhaustive();
expectType<number>(summary);
match(outcome)
  .with({ outcome: 'completed' }, () => 1)
  .with({ outcome: 'errored' }, () => 0)
  // @ts-expect-error -- the suspended outcome is not handled (NonExhaustiveError)
  .exhaustive();
if (outcome.outcome === 'errored') expectType<ErrorBucket>(outcome.errorBucket);
if (outcome.outcome === 'suspended') expectType<string>(outcome.signalDescriptor.signal_id);
// @ts-expect-error -- replies exist only on completed outcomes
void outcome.replies;

// Stores implement the SessionStore interface.
expectAssignable<SessionStore>(new InMemorySessionStore());
// @ts-expect-error -- a store must save and delete, not only load
const partial: SessionStore = { load: async () => undefined };
void partial;
