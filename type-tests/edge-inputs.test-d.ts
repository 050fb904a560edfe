/**
 * The public generics given `any`, `never`, `unknown` and `string` where a literal or a precise
 * type is expected: each either narrows to a defined answer or is refused, never silently
 * accepted as something it is not. (The type-level queries have their own in queries.test-d.ts.)
 */
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import { type CallSpec, callSpec, type FailureClass, type ToolResult } from 'turngate';
import type { StopReasonOf } from 'turngate/join-check';
import type { ActionMode } from 'turngate/types';
import type { ToolUseDisposition } from 'turngate/normalize';
import { Outcome } from 'turngate/outcome';
import { checkTranscript, type TranscriptFormat } from 'turngate/transcripts';

// A failure class is one of the listed names: not any string.
expectAssignable<FailureClass>('tool.result_missing');
expectNotAssignable<FailureClass>('tool.something_else' as string);
// @ts-expect-error -- "is not assignable to type"
const notAClass: FailureClass = 'tool.something_else';
void notAClass;

// Dispositions: the list, not any string; never stays never.
expectNotAssignable<ToolUseDisposition>('kept' as string);
expectType<never>({} as Extract<ToolUseDisposition, never>);

// A CallSpec whose action mode is only known as string is not a text-mode (or code-mode) spec.
// @ts-expect-error -- "Type 'string' does not satisfy the constraint 'ActionMode'"
export type NotASpec = CallSpec<string>;
declare const wideSpec: CallSpec<ActionMode>;
expectNotAssignable<CallSpec<'text'>>(wideSpec);
// callSpec keeps a literal mode and widens nothing it was not given.
const made = callSpec({
  callId: 'turn-1',
  modelRef: 'model/1',
  actionMode: 'json',
  executionPattern: 'single',
  normalizerId: 'nf.v1',
  mutationPolicyDigest: 'pol.mut',
  governancePolicyDigest: 'pol.gov',
  toolRenderProtocolDigest: 'pol.render',
  reminderQueuePolicyDigest: 'pol.queue',
  stateViewPolicyDigest: 'pol.view',
  decompositionPolicyDigest: 'pol.decomp',
});
if (made.ok) expectType<CallSpec<'json'>>(made.value);

// Stop reasons per format: a format literal narrows them; string widens to the union of all.
expectAssignable<StopReasonOf<'anthropic'>>('pause_turn');
expectNotAssignable<StopReasonOf<'anthropic'>>('tool_calls');
expectAssignable<StopReasonOf<TranscriptFormat>>('tool_calls');
expectType<never>({} as StopReasonOf<never>);

// The transcript check needs a known format: a string one is refused at compile time.
declare const someFormat: string;
// @ts-expect-error -- "Type 'string' is not assignable to type '""
checkTranscript([], { format: someFormat });
// Messages of unknown shape go through checkTranscriptJson, not checkTranscript.
declare const parsed: unknown;
// @ts-expect-error -- "transcript.invalid: a value of type unknown is no typed transcript of format anthropic: call checkTranscriptJson"
checkTranscript(parsed, { format: 'anthropic' });

// ToolResult of a registry typed any stays usable (any), of never has no member.
expectType<never>({} as ToolResult<never>);

// Outcome values: ok of unknown is an Outcome of unknown, readable only after narrowing.
const unknownOk = Outcome.ok({} as unknown);
if (unknownOk.status === 'ok') expectType<unknown>(unknownOk.value);
