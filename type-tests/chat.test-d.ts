/**
 * Type tests of turngate/chat: messages are typed per role, outcomes are a union on `outcome`,
 * and a non-exhaustive match does not compile. Negative cases use `@ts-expect-error`.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type {
  ChatGraph,
  ChatHarness,
  ChatMessage,
  ChatTurnOutcome,
  ErrorBucket,
  ListenerErrorHandler,
  SessionStore,
} from 'turngate/chat';
import { createChatHarness, InMemorySessionStore } from 'turngate/chat';

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

// Graphs: node names are typed. The right definition compiles; a misspelled name does not.
import { END, sequentialGraph, type ChatNode, type GraphEdge, type Router } from 'turngate/chat';
declare const node: ChatNode;
expectType<ChatGraphType>(
  sequentialGraph({
    entry: 'model',
    nodes: { model: node, tools: node },
    edges: [
      { from: 'model', to: (state) => (state.messages.length > 3 ? END : 'tools') },
      { from: 'tools', to: 'model' },
    ],
  }),
);
type ChatGraphType = import('turngate/chat').ChatGraph;
// @ts-expect-error -- `toolz` is not a node of this graph
sequentialGraph({ entry: 'model', nodes: { model: node, tools: node }, edges: [{ from: 'model', to: 'toolz' }] });
// @ts-expect-error -- an edge leaves a node of this graph
sequentialGraph({ entry: 'model', nodes: { model: node }, edges: [{ from: 'start', to: 'model' }] });
// @ts-expect-error -- the entry is a node of this graph
sequentialGraph({ entry: 'start', nodes: { model: node }, edges: [] });
// @ts-expect-error -- a router returns a node of this graph or END
sequentialGraph({ entry: 'model', nodes: { model: node }, edges: [{ from: 'model', to: () => 'elsewhere' as const }] });
// Untyped names (nodes built at run time) are plain strings.
declare const dynamicNodes: Record<string, ChatNode>;
sequentialGraph({ entry: 'anything', nodes: dynamicNodes, edges: [{ from: 'a', to: 'b' }] });

// Router and GraphEdge over any, never, unknown and string.
expectAssignable<Router<'a' | 'b'>>(() => 'a' as const);
expectAssignable<Router<'a' | 'b'>>(async () => END);
expectNotAssignable<Router<'a' | 'b'>>(() => 'c' as const);
expectAssignable<Router<string>>(() => 'whatever');
expectAssignable<Router<never>>(() => END);
expectNotAssignable<Router<never>>(() => 'a' as const);
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an `any` argument on purpose
expectAssignable<Router<any>>(() => 'x');
// @ts-expect-error -- node names are strings
expectAssignable<Router<unknown>>(() => END);
expectAssignable<GraphEdge<'a'>>({ from: 'a', to: END });
expectNotAssignable<GraphEdge<'a'>>({ from: 'b', to: 'a' });

// Errored outcomes: the category is always there; the cause is for the application, of any type.
import type {
  ChatTurnErrored,
  ErrorClassification,
  ErrorClassifier,
  SessionRecord,
  SuspensionRecord,
} from 'turngate/chat';
declare const errored: ChatTurnErrored;
expectType<string>(errored.errorCategory);
expectType<unknown>(errored.cause);
expectAssignable<ErrorClassifier>((error: unknown) =>
  error instanceof RangeError ? { category: 'provider_timeout' } : undefined,
);
// @ts-expect-error -- a classification names its category
expectAssignable<ErrorClassification>({ detail: 'no category' });
expectNotAssignable<ErrorClassifier>((error: unknown) => String(error));

// Stores: suspensions are part of the contract.
expectType<Promise<SuspensionRecord | undefined>>(new InMemorySessionStore().findSuspension('approval-1'));
expectType<Promise<readonly SuspensionRecord[]>>(harness.listSuspended({ limit: 10 }));
declare const record: SessionRecord;
if (record.suspension !== undefined) expectType<string>(record.suspension.descriptor.signal_id);
// @ts-expect-error -- a store without findSuspension and listSuspended cannot hold suspensions
const withoutSuspensions: SessionStore = { load: async () => undefined, save: async () => 1, delete: async () => {} };
void withoutSuspensions;

// Idempotent sends: the key is a string; a replayed outcome says so.
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any` as a key
declare const anyKey: any;
declare const unknownKey: unknown;
declare const neverKey: never;
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: 'msg-7f3a' });
void harness.send('s', { role: 'user', content: 'hi' }, {});
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: anyKey });
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: neverKey });
// @ts-expect-error -- the key is a string
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: 7 });
// @ts-expect-error -- unknown is not a key
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: unknownKey });
// @ts-expect-error -- no such option
void harness.send('s', { role: 'user', content: 'hi' }, { key: 'msg-7f3a' });
declare const sent: ChatTurnOutcome;
if (sent.outcome === 'completed' || sent.outcome === 'suspended') expectType<true | undefined>(sent.replayed);
// @ts-expect-error -- an errored outcome is never a replay
void sent.replayed;

// A listener's failure goes to onListenerError: (error, sessionId) => void.
expectAssignable<ListenerErrorHandler>((error: unknown, sessionId: string) => void [error, sessionId]);
expectNotAssignable<ListenerErrorHandler>((error: unknown, sessionId: number) => void [error, sessionId]);
declare const someGraph: ChatGraph;
// @ts-expect-error -- the handler takes the error and the session id, not an outcome
createChatHarness({ graph: someGraph, onListenerError: (outcome: ChatTurnOutcome) => void outcome });
