/**
 * Type tests of turngate/chat: messages are typed per role, outcomes are a union on `outcome`,
 * and a non-exhaustive match does not compile. Negative cases use `@ts-expect-error`.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type {
  ChatGraph,
  ChatHarness,
  ChatTurnOutcome,
  ErrorBucket,
  ListenerErrorHandler,
  SessionStore,
} from 'turngate/chat';
import type { AssistantMessage, ChatMessage } from 'turngate/transcripts';
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
// A tool message needs tool_call_id.
// @ts-expect-error -- "Property 'tool_call_id' is missing"
void harness.send('s', { role: 'tool', content: 'Sunny' });
// `tool_calls` belong to assistant messages only.
// @ts-expect-error -- "'tool_calls' does not exist in type 'UserMessage'"
void harness.send('s', { role: 'user', content: 'hi', tool_calls: [] });
// Image blocks are user-only (AssistantMessage is the one ChatMessage of role assistant; against the
// whole union TypeScript 7 reports the image's source instead of its block type).
expectAssignable<AssistantMessage>({
  role: 'assistant',
  // @ts-expect-error -- "Type '"image"' is not assignable to type"
  content: [{ type: 'image', source: { type: 'url', url: 'u' } }],
});
expectNotAssignable<ChatMessage>({
  role: 'assistant',
  content: [{ type: 'image', source: { type: 'url', url: 'u' } }],
});
// No such role.
// @ts-expect-error -- "Type '"developer"' is not assignable to type"
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
  // The suspended outcome is not handled.
  // @ts-expect-error -- "NonExhaustiveError<ChatTurnSuspended>"
  .exhaustive();
if (outcome.outcome === 'errored') expectType<ErrorBucket>(outcome.errorBucket);
if (outcome.outcome === 'suspended') expectType<string>(outcome.signalDescriptor.signal_id);
// Replies exist only on completed outcomes.
// @ts-expect-error -- "Property 'replies' does not exist on type 'ChatTurnOutcome'"
void outcome.replies;

// Stores implement the SessionStore interface.
expectAssignable<SessionStore>(new InMemorySessionStore());
// A store must save and delete, not only load.
// @ts-expect-error -- "is missing the following properties from type 'SessionStore'"
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
// `toolz` is not a node of this graph.
// @ts-expect-error -- "Type '"toolz"' is not assignable to type"
sequentialGraph({ entry: 'model', nodes: { model: node, tools: node }, edges: [{ from: 'model', to: 'toolz' }] });
// An edge leaves a node of this graph.
// @ts-expect-error -- "Type '"start"' is not assignable to type '"model"'"
sequentialGraph({ entry: 'model', nodes: { model: node }, edges: [{ from: 'start', to: 'model' }] });
// The entry is a node of this graph.
// @ts-expect-error -- "Type '"start"' is not assignable to type '"model"'"
sequentialGraph({ entry: 'start', nodes: { model: node }, edges: [] });
// A router returns a node of this graph or END.
// @ts-expect-error -- "is not assignable to type 'Router<"model">'"
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
// Node names are strings.
// @ts-expect-error -- "does not satisfy the constraint 'string'"
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
// A classification names its category.
// @ts-expect-error -- "Property 'category' is missing"
expectAssignable<ErrorClassification>({ detail: 'no category' });
expectNotAssignable<ErrorClassifier>((error: unknown) => String(error));

// Stores: suspensions are part of the contract.
expectType<Promise<SuspensionRecord | undefined>>(new InMemorySessionStore().findSuspension('approval-1'));
expectType<Promise<readonly SuspensionRecord[]>>(harness.listSuspended({ limit: 10 }));
declare const record: SessionRecord;
if (record.suspension !== undefined) expectType<string>(record.suspension.descriptor.signal_id);
// A store without findSuspension and listSuspended cannot hold suspensions.
// @ts-expect-error -- "is missing the following properties from type 'SessionStore'"
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
// The key is a string.
// @ts-expect-error -- "Type 'number' is not assignable to type 'string'"
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: 7 });
// `unknown` is not a key.
// @ts-expect-error -- "Type 'unknown' is not assignable to type 'string | undefined'"
void harness.send('s', { role: 'user', content: 'hi' }, { idempotencyKey: unknownKey });
// No such option.
// @ts-expect-error -- "'key' does not exist in type 'SendOptions'"
void harness.send('s', { role: 'user', content: 'hi' }, { key: 'msg-7f3a' });
declare const sent: ChatTurnOutcome;
if (sent.outcome === 'completed' || sent.outcome === 'suspended') expectType<true | undefined>(sent.replayed);
// An errored outcome is never a replay.
// @ts-expect-error -- "Property 'replayed' does not exist on type 'ChatTurnOutcome'"
void sent.replayed;

// A listener's failure goes to onListenerError: (error, sessionId) => void.
expectAssignable<ListenerErrorHandler>((error: unknown, sessionId: string) => void [error, sessionId]);
expectNotAssignable<ListenerErrorHandler>((error: unknown, sessionId: number) => void [error, sessionId]);
declare const someGraph: ChatGraph;
// The handler takes the error and the session id, not an outcome.
// @ts-expect-error -- "is not assignable to type 'ListenerErrorHandler'"
createChatHarness({ graph: someGraph, onListenerError: (outcome: ChatTurnOutcome) => void outcome });

// Harness options: a misspelled option and a store class in place of a store are refused; their twins compile.
createChatHarness({ graph: someGraph, cacheSize: 100, store: new InMemorySessionStore() });
// A misspelled option.
// @ts-expect-error -- "'cacheSise' does not exist in type 'ChatHarnessOptions'"
createChatHarness({ graph: someGraph, cacheSise: 100 });
// The store class, not a store.
// @ts-expect-error -- "is missing the following properties from type 'SessionStore'"
createChatHarness({ graph: someGraph, store: InMemorySessionStore });
