/**
 * Type tests of the one `Result<T, F>` shape: every ok-union of the public API is an instance of
 * it, narrows on `ok`, and no longer has the keys it had before (`report`, `error`, `issues`,
 * `diagnostic`, `message`). Negative cases use `@ts-expect-error`, so tsd and TypeScript 7 check
 * the same file.
 */
import * as v from 'valibot';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import { validateWith, type Failure, type Result } from 'turngate';
import { joinCheck, joinCheckText, type JoinCheckResult, type JoinCheckReport } from 'turngate/join-check';
import type { SchemaCheck, SchemaIssue } from 'turngate/types';
import {
  decodeExtendedInput,
  decodeJoinCheckInput,
  type DecodeResult,
  type EvidenceInputError,
  type ExtendedDecodeResult,
  type ExtendedJoinCheckInput,
  type JoinCheckInput,
} from 'turngate/evidence';
import { validateChatMessage, type ChatMessage, type ChatMessageCheck } from 'turngate/transcripts';
import {
  repairTranscript,
  toChatMessages,
  toEvidence,
  type Conversion,
  type RepairedTranscript,
  type TranscriptInputError,
  type TurnEvidence,
} from 'turngate/transcripts';

// The default failure type is `Failure`.
declare const plain: Result<number>;
expectType<Result<number, Failure>>(plain);
if (plain.ok) {
  expectType<number>(plain.value);
  // an ok result has no failures
  // @ts-expect-error -- "Property 'failures' does not exist"
  plain.failures;
} else {
  expectType<readonly Failure[]>(plain.failures);
  // a failed result has no value
  // @ts-expect-error -- "Property 'value' does not exist"
  plain.value;
}
// neither key is there before `ok` is checked
// @ts-expect-error -- "Property 'value' does not exist"
plain.value;
// neither key is there before `ok` is checked
// @ts-expect-error -- "Property 'failures' does not exist"
plain.failures;

// Any failure type: the shape is the same, the failures are read-only.
declare const custom: Result<string, { readonly code: number }>;
if (!custom.ok) {
  expectType<readonly { readonly code: number }[]>(custom.failures);
  // failures are read-only
  // @ts-expect-error -- "Property 'push' does not exist"
  custom.failures.push({ code: 1 });
}
expectAssignable<Result<string, number>>({ ok: true, value: 'a' });
expectAssignable<Result<string, number>>({ ok: false, failures: [1] });
expectNotAssignable<Result<string, number>>({ ok: false, failures: ['1'] });
expectNotAssignable<Result<string, number>>({ ok: true, failures: [1] });
expectNotAssignable<Result<string, number>>({ ok: false, value: 'a' });

// Edge inputs: `never` leaves only the failed side usable, `unknown`, `any` and `string` pass through.
declare const none: Result<never>;
if (none.ok) expectType<never>(none.value);
else expectType<readonly Failure[]>(none.failures);
expectAssignable<Result<never>>({ ok: false, failures: [{ class: 'tool.result_missing', detail: 'd' }] });
expectNotAssignable<Result<never>>({ ok: true, value: 1 });
declare const anything: Result<unknown, unknown>;
if (anything.ok) expectType<unknown>(anything.value);
else expectType<readonly unknown[]>(anything.failures);
// biome-ignore lint/suspicious/noExplicitAny: the `any` input of the generic is what is tested
declare const loose: Result<any>;
// biome-ignore lint/suspicious/noExplicitAny: the `any` input of the generic is what is tested
if (loose.ok) expectType<any>(loose.value);
declare const text: Result<string, string>;
if (!text.ok) expectType<readonly string[]>(text.failures);
expectNotAssignable<Result<string, string>>({ ok: true, value: 1 });
// A failure class that is not one is refused in the default failure type.
expectNotAssignable<Result<string>>({ ok: false, failures: [{ class: 'tool.made_up', detail: 'd' }] });

// The public ok-unions are instances of it.
expectType<Result<JoinCheckReport, EvidenceInputError>>(joinCheck({}) satisfies JoinCheckResult);
expectType<Result<JoinCheckReport, EvidenceInputError>>(joinCheckText('{}'));
expectType<Result<JoinCheckInput, EvidenceInputError>>(decodeJoinCheckInput({}) satisfies DecodeResult);
expectType<Result<ExtendedJoinCheckInput | undefined, EvidenceInputError>>(
  decodeExtendedInput({}) satisfies ExtendedDecodeResult,
);
expectType<Result<unknown, SchemaIssue>>(validateWith(v.string(), 'a') satisfies SchemaCheck);
expectType<Result<ChatMessage, string>>(validateChatMessage({}) satisfies ChatMessageCheck);

// The old keys are gone, on both sides of `ok`.
const outcome = joinCheck({ evidence: {} });
if (outcome.ok) {
  expectType<JoinCheckReport>(outcome.value);
  // `report` is now `value`
  // @ts-expect-error -- "Property 'report' does not exist"
  outcome.report;
} else {
  expectType<readonly EvidenceInputError[]>(outcome.failures);
  // `error` is now `failures` (one element)
  // @ts-expect-error -- "Property 'error' does not exist"
  outcome.error;
}
const decoded = decodeJoinCheckInput({});
if (!decoded.ok) {
  expectType<string | undefined>(decoded.failures[0]?.field);
  // `error` is now `failures`
  // @ts-expect-error -- "Property 'error' does not exist"
  decoded.error;
}
const extended = decodeExtendedInput({});
if (!extended.ok) {
  // `error` is now `failures`
  // @ts-expect-error -- "Property 'error' does not exist"
  extended.error;
}
const schema = validateWith(v.string(), 1);
if (!schema.ok) {
  expectType<readonly SchemaIssue[]>(schema.failures);
  // `issues` is now `failures`
  // @ts-expect-error -- "Property 'issues' does not exist"
  schema.issues;
}
const message = validateChatMessage({ role: 'user', content: 'hi' });
if (message.ok) {
  expectType<ChatMessage>(message.value);
  // `message` is now `value`
  // @ts-expect-error -- "Property 'message' does not exist"
  message.message;
} else {
  expectType<readonly string[]>(message.failures);
  // `diagnostic` is now `failures` (one element)
  // @ts-expect-error -- "Property 'diagnostic' does not exist"
  message.diagnostic;
}

// The transcripts layer's outcomes: the ok fields live under `value`.
declare const callSpec: Parameters<typeof toEvidence>[1]['callSpec'];
const evidence = toEvidence([], { format: 'chat', callSpec });
expectType<Result<TurnEvidence, TranscriptInputError>>(evidence);
if (evidence.ok) {
  expectType<TurnEvidence>(evidence.value);
  // `requests` is now `value.requests`
  // @ts-expect-error -- "Property 'requests' does not exist"
  evidence.requests;
} else {
  // `error` is now `failures`
  // @ts-expect-error -- "Property 'error' does not exist"
  evidence.error;
}
const converted = toChatMessages([], { format: 'anthropic' });
expectType<Result<Conversion<ChatMessage>, TranscriptInputError>>(converted);
if (converted.ok) {
  // `messages` is now `value.messages`
  // @ts-expect-error -- "Property 'messages' does not exist"
  converted.messages;
}
const repaired = repairTranscript([], { format: 'chat' });
if (repaired.ok) {
  expectAssignable<RepairedTranscript<'chat'>>(repaired.value);
  // `repairs` is now `value.repairs`
  // @ts-expect-error -- "Property 'repairs' does not exist"
  repaired.repairs;
}
