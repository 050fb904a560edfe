/**
 * Type tests of the typestate and the fluent builder: each misuse fails to compile with the
 * message the docs promise, next to the right call that compiles. Negative cases use
 * `@ts-expect-error` (checked by tsd and by TypeScript 7); the promised message is pinned with
 * `expectType` on the non-callable type, whose name carries the failure class and ids.
 */
import * as v from 'valibot';
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import {
  admitMutation,
  callSpec,
  defineTools,
  matchToolResult,
  performMutation,
  turn,
  type CallSpec,
  type JoinClosed,
  type JoinIncomplete,
  type MutationReady,
  type Result,
  type ToolResult,
  type TurnMisuse,
} from 'turngate';

const tools = defineTools({
  'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  'web.search': { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
  'issues.update': { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
});
type Tools = typeof tools.definitions;

declare const codeSpec: CallSpec<'code'>;
declare const jsonSpec: CallSpec<'json'>;
declare const textSpec: CallSpec<'text'>;
const context = { protocolState: { stopReason: 'end_turn' } };

// callSpec keeps the action mode as a literal (lowercased) type.
const made = callSpec({
  callId: 'c',
  modelRef: 'm',
  actionMode: 'JSON',
  executionPattern: 'single',
  normalizerId: 'n',
  mutationPolicyDigest: 'p',
  governancePolicyDigest: 'g',
  toolRenderProtocolDigest: 'r',
  reminderQueuePolicyDigest: 'q',
  stateViewPolicyDigest: 's',
  decompositionPolicyDigest: 'd',
});
if (made.ok) expectType<CallSpec<'json'>>(made.value);

const requested = turn(codeSpec, tools)
  .request('tc-1', 'fs.read', { path: 'a' })
  .request('tc-2', 'web.search', { query: 'q' });

// 1. A result for an unrequested id.
requested.result('tc-1', { status: 'ok', output: { text: 'A' } });
// @ts-expect-error -- tool.result_orphan: tc-9 was never requested
requested.result('tc-9', { status: 'ok', output: { text: 'A' } });
expectNotAssignable<Parameters<typeof requested.result<'tc-9'>>[0]>('tc-9');
expectType<'tool.result_orphan: tc-9 was never requested'>({} as Parameters<typeof requested.result<'tc-9'>>[0]);

// 2. A use of an id without a result.
const resulted = requested.result('tc-1', { status: 'ok', output: { text: 'A' } });
resulted.use('tc-1', 'consumed', { evidence: { summaryRef: 'summary://1' } });
// @ts-expect-error -- tool.use_without_result: tc-2 has no result
resulted.use('tc-2', 'observed');
expectType<'tool.use_without_result: tc-2 has no result'>({} as Parameters<typeof resulted.use<'tc-2'>>[0]);

// 3. Close with a missing result.
const halfUsed = resulted.use('tc-1', 'observed');
expectType<JoinIncomplete<'tool.result_missing', 'tc-2'>>(halfUsed.close);
// @ts-expect-error -- JoinIncomplete<'tool.result_missing', 'tc-2'> has no call signatures
halfUsed.close(context);

// 4. Close with a missing use.
const unused = resulted
  .result('tc-2', { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } })
  .use('tc-1', 'observed');
expectType<JoinIncomplete<'tool.use_missing', 'tc-2'>>(unused.close);
// @ts-expect-error -- JoinIncomplete<'tool.use_missing', 'tc-2'> has no call signatures
unused.close(context);

// The closed join type-checks, and close returns Result<JoinClosed>.
const closed = unused.use('tc-2', 'observed').close(context);
expectType<Result<JoinClosed<Tools>>>(closed);

// 5-7. MutationReady only from admitMutation; no literal; performMutation needs one.
if (closed.ok) {
  const admitted = admitMutation(closed.value, { mutationPolicyDigest: 'p' });
  expectType<Result<MutationReady<Tools>>>(admitted);
  if (admitted.ok) void performMutation(admitted.value, (witness) => witness.joinSetDigest);
  // @ts-expect-error -- a JoinClosed is not a MutationReady
  void performMutation(closed.value, () => 'never');
}
// @ts-expect-error -- an object literal cannot carry the module-private brand
const forged: MutationReady = { joinClosed: {} as JoinClosed, witness: {} as MutationReady['witness'] };
expectNotAssignable<MutationReady>({ joinClosed: {}, witness: {} });
// @ts-expect-error -- performMutation takes only a MutationReady
void performMutation({}, () => 'never');
// @ts-expect-error -- admitMutation takes only a JoinClosed
admitMutation({ normalized: {} }, { mutationPolicyDigest: 'p' });

// 8. A second request in json mode.
const oneJson = turn(jsonSpec, tools).request('tc-1', 'fs.read', { path: 'a' });
expectType<TurnMisuse<'json mode: one tool invocation per action (tool.parallel_policy_violation)'>>(oneJson.request);
// @ts-expect-error -- json mode: one tool invocation per action (tool.parallel_policy_violation)
oneJson.request('tc-2', 'fs.read', { path: 'b' });

// 9. A request on a raw text turn.
expectType<
  TurnMisuse<'text mode: tool requests come only from adaptText(profile, text), never from raw text (tool.schema_invalid)'>
>(turn(textSpec, tools).request);
// @ts-expect-error -- text mode: tool requests come only from adaptText(profile, text)
turn(textSpec, tools).request('tc-1', 'fs.read', { path: 'a' });

// 10. A wrong payload type for a tool: input and output.
// @ts-expect-error -- fs.read takes { path: string }
turn(codeSpec, tools).request('tc-1', 'fs.read', { query: 'a' });
// @ts-expect-error -- fs.read returns { text: string }
requested.result('tc-1', { status: 'ok', output: { hits: 3 } });
// @ts-expect-error -- no such tool
turn(codeSpec, tools).request('tc-1', 'fs.delete', { path: 'a' });

// 11. A non-exhaustive match on tool results.
declare const result: ToolResult<Tools>;
const handled = match(result)
  .with({ toolName: 'fs.read', status: 'ok' }, (r) => r.output.text)
  .with({ toolName: 'web.search', status: 'ok' }, (r) => String(r.output.hits))
  .with({ toolName: 'issues.update', status: 'ok' }, (r) => String(r.output.ok))
  .with({ status: 'error' }, (r) => r.error.errorCode)
  .exhaustive();
expectType<string>(handled);
match(result)
  .with({ toolName: 'fs.read', status: 'ok' }, (r) => r.output.text)
  .with({ status: 'error' }, (r) => r.error.errorCode)
  // @ts-expect-error -- web.search and issues.update are not handled (NonExhaustiveError)
  .exhaustive();

// Results are a union discriminated on the tool name.
expectAssignable<ToolResult<Tools>>({
  toolCallId: 'x',
  toolName: 'fs.read',
  status: 'ok',
  output: { text: 't' },
  resultDigest: 'sha256:',
});
expectNotAssignable<ToolResult<Tools>>({
  toolCallId: 'x',
  toolName: 'fs.read',
  status: 'ok',
  output: { hits: 1 },
  resultDigest: 'sha256:',
});
void forged;

// 12. matchToolResult: one handler per tool; a missing tool is a tsc error naming it.
const described = matchToolResult(result, {
  'fs.read': (r) => (r.status === 'ok' ? r.output.text : r.error.errorCode),
  'web.search': (r) => (r.status === 'ok' ? String(r.output.hits) : r.error.errorCode),
  'issues.update': (r) => (r.status === 'ok' ? String(r.output.ok) : r.error.errorCode),
});
expectType<string>(described);
// @ts-expect-error -- Property 'issues.update' is missing
matchToolResult(result, {
  'fs.read': () => 'read',
  'web.search': () => 'searched',
});
matchToolResult(result, {
  // @ts-expect-error -- output of fs.read has no hits
  'fs.read': (r) => (r.status === 'ok' ? String(r.output.hits) : ''),
  'web.search': () => '',
  'issues.update': () => '',
});
