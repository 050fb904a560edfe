/**
 * Type tests of the fluent builder: each misuse fails to compile with the message the docs
 * promise, next to the right call that compiles. Negative cases use `@ts-expect-error -- "<text>"`
 * (checked by tsd and by TypeScript 7); `scripts/type-messages.mjs --check` verifies that <text>
 * is in the compiler's message for that line.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import {
  callSpec,
  defineTools,
  matchToolResult,
  turn,
  type CallSpec,
  type JoinClosed,
  type Result,
  type ToolResult,
} from 'turngate';
import type { JoinIncomplete, TurnMisuse } from 'turngate/types';

class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  search_web: { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
  run_query: {
    input: v.object({ sql: v.string() }),
    output: v.object({ rows: v.number() }),
    allowedCallers: ['code_execution'],
  },
  update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
}) {}

declare const codeSpec: CallSpec<'code'>;
declare const jsonSpec: CallSpec<'json'>;
declare const textSpec: CallSpec<'text'>;
declare const someSpec: CallSpec;
declare const modelId: string;

// callSpec keeps the action mode as a literal (lowercased) type; the default profile fills the rest.
const made = callSpec({ callId: 'c', modelRef: 'm', actionMode: 'JSON' });
if (made.ok) expectType<CallSpec<'json'>>(made.value);

const requested = turn(codeSpec, Tools)
  .request('tc-1', 'read_file', { path: 'a' })
  .request('tc-2', 'search_web', { query: 'q' });

// 1. A result for an unrequested id.
requested.result('tc-1', { status: 'ok', output: { text: 'A' } });
// @ts-expect-error -- "tool.result_orphan: tc-9 was never requested"
requested.result('tc-9', { status: 'ok', output: { text: 'A' } });

// 2. A use of an id without a result.
const resulted = requested.result('tc-1', { status: 'ok', output: { text: 'A' } });
resulted.use('tc-1', 'consumed', { evidence: { summaryRef: 'summary://1' } });
// @ts-expect-error -- "tool.use_without_result: tc-2 has no result"
resulted.use('tc-2', 'observed');

// 3. Close with a missing result: the type names the class, the ids and what to call.
const halfUsed = resulted.use('tc-1', 'observed');
expectType<JoinIncomplete<'tool.result_missing', 'tc-2', 'call .result(id, outcome) for each id'>>(halfUsed.close);
// @ts-expect-error -- "JoinIncomplete<"tool.result_missing", "tc-2", "call .result(id, outcome) for each id">"
halfUsed.close();

// 4. Close with a missing use.
const unused = resulted
  .result('tc-2', { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } })
  .use('tc-1', 'observed');
expectType<JoinIncomplete<'tool.use_missing', 'tc-2'>>(unused.close);
// @ts-expect-error -- "JoinIncomplete<"tool.use_missing", "tc-2", "call .use(id, disposition) for each id">"
unused.close();

// The closed join type-checks; close takes an optional context and returns Result<JoinClosed>.
const closed = unused.use('tc-2', 'observed').close();
expectType<Result<JoinClosed<Tools>>>(closed);
expectType<Result<JoinClosed<Tools>>>(
  unused.use('tc-2', 'observed').close({ protocolState: { format: 'anthropic', stopReason: 'tool_use' } }),
);

// 5. A second request, result or use for one id.
turn(codeSpec, Tools).request('tc-1', 'read_file', { path: 'a' }).request('tc-2', 'read_file', { path: 'b' });
// @ts-expect-error -- "tool.schema_invalid: tc-1 already has a request (one per id)"
turn(codeSpec, Tools).request('tc-1', 'read_file', { path: 'a' }).request('tc-1', 'read_file', { path: 'b' });
// @ts-expect-error -- "tool.schema_invalid: tc-1 already has a result (one per id)"
resulted.result('tc-1', { status: 'ok', output: { text: 'again' } });
// @ts-expect-error -- "tool.schema_invalid: tc-1 already has a disposition (one per id)"
halfUsed.use('tc-1', 'observed');

// 6. A disposition without what it needs.
resulted.use('tc-1', 'discarded_with_reason', { reasonCode: 'stale' });
// @ts-expect-error -- "tool.schema_invalid: discarded_with_reason needs { reasonCode }" (past the limit: the disposition parameter is a union, printed in full before the sentence; a conditional parameter costs 43 instantiations per builder call)
resulted.use('tc-1', 'discarded_with_reason');
resulted.use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/7' } });
// @ts-expect-error -- "mutation.use_evidence_missing: consumed needs evidence"
resulted.use('tc-1', 'consumed');
// @ts-expect-error -- "mutation.use_evidence_missing: consumed needs evidence"
resulted.use('tc-1', 'consumed', { evidence: {} });

// 7. A tool with allowedCallers needs a callerId of that list.
turn(codeSpec, Tools).request('tc-1', 'run_query', { sql: 'select 1' }, { callerId: 'code_execution' });
// @ts-expect-error -- "tool.caller_not_allowed: run_query may be called only by code_execution; pass { callerId }"
turn(codeSpec, Tools).request('tc-1', 'run_query', { sql: 'select 1' });
// @ts-expect-error -- "tool.caller_not_allowed: run_query may be called only by code_execution, not model"
turn(codeSpec, Tools).request('tc-1', 'run_query', { sql: 'select 1' }, { callerId: 'model' });

// 8. A string (not literal) id: the builder says what to use instead.
// @ts-expect-error -- "for ids from model output call requestTools, then settle and useAll"
turn(codeSpec, Tools).request(modelId, 'read_file', { path: 'a' });
// @ts-expect-error -- "tool.result_orphan: ${string} was never requested"
requested.result(modelId, { status: 'ok', output: { text: 'A' } });

// 9. A second request in json mode; any request in text mode; a mode the types do not know
// claims neither.
const oneJson = turn(jsonSpec, Tools).request('tc-1', 'read_file', { path: 'a' });
expectType<
  TurnMisuse<'tool.parallel_policy_violation: json mode allows one tool call per action; tc-1 is already requested'>
>(oneJson.request);
// @ts-expect-error -- "tool.parallel_policy_violation: json mode allows one tool call per action; tc-1 is already requested"
oneJson.request('tc-2', 'read_file', { path: 'b' });
// @ts-expect-error -- "tool.schema_invalid: text mode takes tool calls only from adaptText(spec, tools, profile, text)"
turn(textSpec, Tools).request('tc-1', 'read_file', { path: 'a' });
turn(someSpec, Tools).request('tc-1', 'read_file', { path: 'a' }).request('tc-2', 'read_file', { path: 'b' });

// 10. A wrong payload type for a tool: input and output; an unknown tool.
// @ts-expect-error -- "'query' does not exist in type '{ path: string; }'"
turn(codeSpec, Tools).request('tc-1', 'read_file', { query: 'a' });
// @ts-expect-error -- "Object literal may only specify known properties, and 'hits' does not exist in type '{ text: string; }'"
requested.result('tc-1', { status: 'ok', output: { hits: 3 } });
// @ts-expect-error -- "Argument of type '"delete_file"' is not assignable to parameter of type"
turn(codeSpec, Tools).request('tc-1', 'delete_file', { path: 'a' });

// 11. A mutation tool call's result is pending: the gate answers it (an `ok` from code is refused at close).
const mutating = turn(codeSpec, Tools).request('tc-1', 'update_issue', { id: '7' });
mutating.result('tc-1', { status: 'pending' });

// 12. Exhaustive matches on typed results: ts-pattern and matchToolResult.
declare const result: ToolResult<Tools>;
const handled = match(result)
  .with({ toolName: 'read_file', status: 'ok' }, (r) => r.output.text)
  .with({ toolName: 'search_web', status: 'ok' }, (r) => String(r.output.hits))
  .with({ toolName: 'run_query', status: 'ok' }, (r) => String(r.output.rows))
  .with({ toolName: 'update_issue', status: 'ok' }, (r) => String(r.output.ok))
  .with({ status: 'error' }, (r) => r.error.errorCode)
  .exhaustive();
expectType<string>(handled);
match(result)
  .with({ toolName: 'read_file', status: 'ok' }, (r) => r.output.text)
  .with({ status: 'error' }, (r) => r.error.errorCode)
  // @ts-expect-error -- "NonExhaustiveError<"
  .exhaustive();
const described = matchToolResult(result, {
  read_file: (r) => (r.status === 'ok' ? r.output.text : r.error.errorCode),
  search_web: (r) => (r.status === 'ok' ? String(r.output.hits) : r.error.errorCode),
  run_query: (r) => (r.status === 'ok' ? String(r.output.rows) : r.error.errorCode),
  update_issue: (r) => (r.status === 'ok' ? String(r.output.ok) : r.error.errorCode),
});
expectType<string>(described);
// @ts-expect-error -- "Property 'update_issue' is missing" (past the limit: TypeScript 6 prints the handler map's type first; TypeScript 7 names the missing handler within the limit)
matchToolResult(result, { read_file: () => 'read', search_web: () => 'searched', run_query: () => 'ran' });
// A handler for a tool that is not in the registry: the failure class of the call settle refuses.
matchToolResult(result, {
  read_file: () => 'read',
  search_web: () => 'searched',
  run_query: () => 'ran',
  update_issue: () => 'updated',
  // @ts-expect-error -- "tool.unknown_or_disallowed: delete_file is not in the registry"
  delete_file: () => 'deleted',
});

// Results are a union discriminated on the tool name.
expectAssignable<ToolResult<Tools>>({
  toolCallId: 'x',
  toolName: 'read_file',
  status: 'ok',
  output: { text: 't' },
  resultDigest: 'sha256:',
});
expectNotAssignable<ToolResult<Tools>>({
  toolCallId: 'x',
  toolName: 'read_file',
  status: 'ok',
  output: { hits: 1 },
  resultDigest: 'sha256:',
});

// 13. A tool with methods: `.request` takes a canonical method or an alias; a literal that is
// neither, or no method, does not compile (a `string` method is left to the run time).
class Fetchers extends defineTools({
  web_fetcher: {
    input: v.object({ url: v.string() }),
    output: v.object({ body: v.string() }),
    methods: ['fetch_url', 'head_url'],
    aliases: { fetch: 'fetch_url' },
  },
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
}) {}
declare const modelMethod: string;
turn(codeSpec, Fetchers).request('tc-1', 'web_fetcher', { url: 'u' }, { method: 'fetch_url' });
turn(codeSpec, Fetchers).request('tc-1', 'web_fetcher', { url: 'u' }, { method: 'fetch' });
turn(codeSpec, Fetchers).request('tc-1', 'web_fetcher', { url: 'u' }, { method: modelMethod });
turn(codeSpec, Fetchers).request('tc-1', 'read_file', { path: 'a' });
turn(codeSpec, Fetchers).request('tc-1', 'read_file', { path: 'a' }, { method: 'anything' });
// @ts-expect-error -- "unknown_method: web_fetcher has no method get; use fetch_url, head_url"
turn(codeSpec, Fetchers).request('tc-1', 'web_fetcher', { url: 'u' }, { method: 'get' });
// @ts-expect-error -- "unknown_method: web_fetcher needs { method }: one of fetch_url, head_url"
turn(codeSpec, Fetchers).request('tc-1', 'web_fetcher', { url: 'u' });
// Tools may not alias a method they do not declare.
defineTools({
  web_fetcher: { input: v.any(), output: v.any(), methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } },
});
defineTools({
  // @ts-expect-error -- "an alias names one of the canonical methods"
  web_fetcher: { input: v.any(), output: v.any(), methods: ['fetch_url'], aliases: { fetch: 'fetch_uri' } },
});
