/**
 * Type tests of the transitions, the gate and the loop helpers for ids from model output: each
 * misuse a type can catch fails to compile with a message naming the failure class and the ids,
 * or the state expected and what to call, next to the right call that compiles. Negative cases
 * use `@ts-expect-error -- "<text>"`; `scripts/type-messages.mjs --check` verifies <text> is in
 * the compiler's message.
 */
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import {
  admitMutation,
  callSpec,
  closeJoin,
  defineTools,
  performMutation,
  performMutationTool,
  recordResults,
  recordUse,
  requestTools,
  settle,
  settleMutations,
  useAll,
  type CallSpec,
  type JoinClosed,
  type MutationReady,
  type Result,
  type ToolHandlers,
  type ToolRequests,
  type ToolResults,
  type ToolUse,
} from 'turngate';
import type { RequestedToolCall, TurnProtocolState } from 'turngate/types';

class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  run_query: {
    input: v.object({ sql: v.string() }),
    output: v.object({ rows: v.number() }),
    allowedCallers: ['code_execution'],
  },
  update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
}) {}
class Lights extends defineTools({
  light: { input: v.object({ id: v.string() }), output: v.object({ state: v.picklist(['green', 'red']) }) },
  set_light: {
    input: v.object({ id: v.string() }),
    output: v.object({ state: v.picklist(['green', 'red']) }),
    mutation: true,
  },
}) {}
class Fetchers extends defineTools({
  web_fetcher: {
    input: v.object({ url: v.string() }),
    output: v.string(),
    methods: ['fetch_url', 'head_url'],
    aliases: { fetch: 'fetch_url' },
  },
}) {}

declare const codeSpec: CallSpec<'code'>;
declare const jsonSpec: CallSpec<'json'>;
declare const textSpec: CallSpec<'text'>;
declare const fromModel: RequestedToolCall[];
declare const requests: ToolRequests<Tools>;
declare const results: ToolResults<Tools>;
declare const use: ToolUse<Tools>;
declare const closed: JoinClosed<Tools>;
declare const ready: MutationReady<Tools>;

// 1. requestTools with literal rows: unknown tools, callers outside allowedCallers, json and text modes.
expectType<Result<ToolRequests<Tools>>>(
  requestTools(codeSpec, Tools, [{ toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } }]),
);
requestTools(codeSpec, Tools, fromModel);
requestTools(codeSpec, Tools, [
  { toolCallId: 'a', toolName: 'read_file', input: {} },
  // @ts-expect-error -- "tool.unknown_or_disallowed: b calls delete_file, which is not in the registry"
  { toolCallId: 'b', toolName: 'delete_file', input: {} },
]);
requestTools(codeSpec, Tools, [{ toolCallId: 'a', toolName: 'run_query', input: {}, callerId: 'code_execution' }]);
// @ts-expect-error -- "tool.caller_not_allowed: a calls run_query, which may be called only by code_execution; give callerId"
requestTools(codeSpec, Tools, [{ toolCallId: 'a', toolName: 'run_query', input: {} }]);
requestTools(jsonSpec, Tools, [{ toolCallId: 'a', toolName: 'read_file', input: {} }]);
requestTools(jsonSpec, Tools, [
  { toolCallId: 'a', toolName: 'read_file', input: {} },
  // @ts-expect-error -- "tool.parallel_policy_violation: json mode allows one tool call per action"
  { toolCallId: 'b', toolName: 'read_file', input: {} },
]);
requestTools(textSpec, Tools, []);
// @ts-expect-error -- "tool.schema_invalid: text mode takes no tool calls from code; call adaptText(spec, tools, profile, text)"
requestTools(textSpec, Tools, [{ toolCallId: 'a', toolName: 'read_file', input: {} }]);
// @ts-expect-error -- "tool.caller_not_allowed: a calls run_query, which may be called only by code_execution"
requestTools(codeSpec, Tools, [{ toolCallId: 'a', toolName: 'run_query', input: {}, callerId: 'model' }]);
// A tool with methods: the builder's rule (one home, `MethodRule`) for literal rows too.
requestTools(codeSpec, Fetchers, [{ toolCallId: 'a', toolName: 'web_fetcher', input: { url: 'u' }, method: 'fetch' }]);
requestTools(codeSpec, Fetchers, [
  { toolCallId: 'a', toolName: 'web_fetcher', input: { url: 'u' }, method: 'head_url' },
]);
// @ts-expect-error -- "unknown_method: web_fetcher has no method get; use fetch_url, head_url"
requestTools(codeSpec, Fetchers, [{ toolCallId: 'a', toolName: 'web_fetcher', input: { url: 'u' }, method: 'get' }]);
// @ts-expect-error -- "unknown_method: web_fetcher needs { method }: one of fetch_url, head_url"
requestTools(codeSpec, Fetchers, [{ toolCallId: 'a', toolName: 'web_fetcher', input: { url: 'u' } }]);

// 1b. callSpec: a literal action mode names code, json or text (any case, trimmed).
expectType<Result<CallSpec<'json'>>>(callSpec({ callId: 'c', modelRef: 'm', actionMode: ' JSON ' }));
declare const someMode: string;
expectType<Result<CallSpec>>(callSpec({ callId: 'c', modelRef: 'm', actionMode: someMode }));
// @ts-expect-error -- "tool.schema_invalid: actionMode must be code, json or text (any case), not cod"
callSpec({ callId: 'c', modelRef: 'm', actionMode: 'cod' });

// 2. Dispositions without what they need: recordUse rows and useAll decisions.
recordUse(results, [{ toolCallId: 'a', disposition: 'consumed', evidence: { summaryRef: 'summary://1' } }]);
// @ts-expect-error -- "mutation.use_evidence_missing: a is consumed without evidence"
recordUse(results, [{ toolCallId: 'a', disposition: 'consumed' }]);
recordUse(results, [{ toolCallId: 'a', disposition: 'discarded_with_reason', reasonCode: 'stale' }]);
// @ts-expect-error -- "tool.schema_invalid: a is discarded_with_reason without a reasonCode"
recordUse(results, [{ toolCallId: 'a', disposition: 'discarded_with_reason' }]);
expectType<Result<ToolUse<Tools>>>(
  useAll(results, (r) =>
    r.status === 'ok' ? { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } } : 'observed',
  ),
);
// @ts-expect-error -- "mutation.use_evidence_missing: a consumed decision needs { evidence: { summaryRef | handoffRef | mutationInputRef } }"
useAll(results, (r) => (r.status === 'ok' ? 'consumed' : 'observed'));
useAll(results, () => ({ disposition: 'discarded_with_reason', reasonCode: 'stale' }));
// @ts-expect-error -- "tool.schema_invalid: a discarded_with_reason decision needs { reasonCode }"
useAll(results, () => ({ disposition: 'discarded_with_reason' }));

// 3. settle takes a handler map typed per tool: a missing handler or a wrong output shape.
const handlers: ToolHandlers<Tools> = {
  read_file: async ({ path }) => ({ text: path }),
  run_query: () => ({ rows: 1 }),
};
expectType<Promise<Result<ToolResults<Tools>>>>(settle(requests, handlers));
// @ts-expect-error -- "Property 'run_query' is missing"
settle(requests, { read_file: async () => ({ text: '' }) });
// @ts-expect-error -- "Type 'number' is not assignable to type 'string'"
settle(requests, { ...handlers, read_file: () => ({ text: 3 }) });
// A literal output for a picklist keeps its literal type (no `as const`): the handler's return
// type comes from the tool's output type.
declare const lightRequests: ToolRequests<Lights>;
declare const lightsClosed: JoinClosed<Lights>;
declare const lightsReady: MutationReady<Lights>;
void settle(lightRequests, { light: () => ({ state: 'red' }) });
void settle(lightRequests, { light: async ({ id }) => ({ state: id === '' ? 'green' : 'red' }) });
// @ts-expect-error -- "Type '"blue"' is not assignable to type '"green" | "red"'"
void settle(lightRequests, { light: () => ({ state: 'blue' }) });

// 4. State arguments: a Result is checked first; each state says what to call to get it.
declare const closing: Result<JoinClosed<Tools>>;
if (closing.ok) admitMutation(closing.value);
// @ts-expect-error -- "JoinClosed expected, got a Result: check .ok first, then pass .value"
admitMutation(closing);
// @ts-expect-error -- "MutationReady expected, got a JoinClosed: call admitMutation(joinClosed, policy) first"
void performMutation(closed, { toolCallId: 'a', input: {} }, () => 'never');
// @ts-expect-error -- "ToolUse expected, got a ToolResults: call useAll(results, decide) or recordUse(results, uses) first"
closeJoin(results);
// @ts-expect-error -- "ToolRequests expected: call requestTools(spec, tools, calls) first"
recordResults({ requests: [] }, []);
expectType<Result<JoinClosed<Tools>>>(closeJoin(use));
expectType<Result<MutationReady<Tools>>>(admitMutation(closed));

// 5. performMutationTool runs only a mutation: true tool, with its typed input and output.
void performMutationTool(ready, { toolCallId: 'a', toolName: 'update_issue', input: { id: '7' } }, async ({ id }) => ({
  ok: id !== '',
}));
// @ts-expect-error -- "read_file is not a mutation tool (mutation: true): settle runs it with its handler"
void performMutationTool(ready, { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } }, async () => ({
  text: '',
}));
void performMutationTool(lightsReady, { toolCallId: 'a', toolName: 'set_light', input: { id: '1' } }, async () => ({
  state: 'green',
}));
void performMutationTool(lightsReady, { toolCallId: 'a', toolName: 'set_light', input: { id: '1' } }, () => ({
  // @ts-expect-error -- "Type '"blue"' is not assignable to type '"green" | "red"'"
  state: 'blue',
}));
void settleMutations(closed, { update_issue: async () => ({ ok: true }) });
void settleMutations(lightsClosed, { set_light: async () => ({ state: 'green' }) });
// @ts-expect-error -- "Type '"blue"' is not assignable to type '"green" | "red"'"
void settleMutations(lightsClosed, { set_light: () => ({ state: 'blue' }) });
// @ts-expect-error -- "Property 'update_issue' is missing"
void settleMutations(closed, {});

// 6. A copy of a state is not the state: spread, rest and literals lose the brand.
// @ts-expect-error -- "JoinClosed expected, got a copy of a JoinClosed (a spread, rest or literal has no brand)" (past the limit: TypeScript prints a spread argument's type before any message)
admitMutation({ ...closed });
// @ts-expect-error -- "Property '#brand' is missing"
const forged: MutationReady<Tools> = { joinClosed: closed, witness: ready.witness, intents: [] };
const { callSpec: _spec, ...rest } = closed;
expectNotAssignable<JoinClosed<Tools>>(rest);
expectNotAssignable<MutationReady>({ joinClosed: {}, witness: {}, intents: [] });
void forged;

// 7. Stop reasons typed per provider through the one table.
expectAssignable<TurnProtocolState>({ format: 'openai-chat', stopReason: 'tool_calls' });
expectAssignable<TurnProtocolState>({ format: 'aisdk', stopReason: 'tool-calls' });
expectAssignable<TurnProtocolState>({ stopReason: 'pause_turn' });
expectNotAssignable<TurnProtocolState>({ format: 'openai-chat', stopReason: 'tool_use' });
expectNotAssignable<TurnProtocolState>({ stopReason: 'done' });
// @ts-expect-error -- "Type '"tool_call"' is not assignable to type"
closeJoin(use, { protocolState: { format: 'anthropic', stopReason: 'tool_call' } });

// 8. any, never and unknown as state arguments.
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any` as a state argument
declare const anything: any;
declare const nothing: never;
declare const unknownValue: unknown;
admitMutation(anything);
admitMutation(nothing);
// @ts-expect-error -- "JoinClosed expected: call closeJoin(use, context) first"
admitMutation(unknownValue);
