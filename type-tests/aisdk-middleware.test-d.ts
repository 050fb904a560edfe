/**
 * Type tests: `transcriptGuard()` is a middleware `wrapLanguageModel` takes (the AI SDK's own
 * `LanguageModelMiddleware`), typed without importing the SDK; `onReject` takes its two values
 * and nothing else.
 */
import { type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import {
  type OnReject,
  type TranscriptGuardMiddleware,
  type TranscriptGuardOptions,
  type TranscriptRejectedError,
  transcriptGuard,
} from 'turngate/adapters/aisdk';
import type { TranscriptFailure, TranscriptRepair } from 'turngate/transcripts';
import type { RuleOf } from 'turngate/types';

// The middleware wrapLanguageModel takes, alone or in a list.
type Middleware = Parameters<typeof wrapLanguageModel>[0]['middleware'];
/** The SDK's `LanguageModelV4CallOptions`: what a wrapped model's `doGenerate` takes. */
type CallOptions = Parameters<ReturnType<typeof wrapLanguageModel>['doGenerate']>[0];
expectAssignable<Middleware>(transcriptGuard());
expectAssignable<Middleware>([transcriptGuard({ onReject: 'repair' }), transcriptGuard({ onReject: 'throw' })]);
expectAssignable<LanguageModelMiddleware>(transcriptGuard());
wrapLanguageModel({ model: new MockLanguageModelV4(), middleware: transcriptGuard() });

// transformParams hands back the SDK's own call options type.
declare const params: CallOptions;
expectType<Promise<CallOptions>>(transcriptGuard().transformParams({ type: 'stream', params }));
// @ts-expect-error -- "Type 'string' is not assignable to type 'readonly AISDKMessage[]'"
transcriptGuard().transformParams({ type: 'generate', params: { prompt: 'Hello' } });
// The model the SDK passes (its modelId selects the model-specific rules); a model that is no object is refused.
expectType<Promise<CallOptions>>(
  transcriptGuard().transformParams({
    type: 'generate',
    params,
    model: new MockLanguageModelV4({ modelId: 'gemini-2.5-flash' }),
  }),
);
// @ts-expect-error -- "Type 'string' has no properties in common with type"
transcriptGuard().transformParams({ type: 'generate', params, model: 'gemini-2.5-flash' });

// onReject: 'throw' or 'repair', not any other string, nor a string or unknown value.
expectType<OnReject>('throw' as 'throw' | 'repair');
expectNotAssignable<OnReject>('ignore' as string);
// @ts-expect-error -- "Type '"ignore"' is not assignable to type 'OnReject | undefined'"
transcriptGuard({ onReject: 'ignore' });
declare const someString: string;
// @ts-expect-error -- "Type 'string' is not assignable to type 'OnReject | undefined'"
transcriptGuard({ onReject: someString });
declare const someUnknown: unknown;
// @ts-expect-error -- "Type 'unknown' is not assignable to type 'OnReject | undefined'"
transcriptGuard({ onReject: someUnknown });
// `any` and `never` are assignable to anything: the run-time check names the field (TypeError).
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any`
declare const someAny: any;
expectType<TranscriptGuardMiddleware>(transcriptGuard({ onReject: someAny }));
declare const someNever: never;
expectType<TranscriptGuardMiddleware>(transcriptGuard({ onReject: someNever }));
// @ts-expect-error -- "Type '"repair"' has no properties in common with type 'TranscriptGuardOptions'"
transcriptGuard('repair');
// @ts-expect-error -- "'onRejected' does not exist in type 'TranscriptGuardOptions'. Did you mean to write 'onReject'?"
transcriptGuard({ onRejected: 'repair' });

// onRepair gets the repairs and the failures they fix.
const options: TranscriptGuardOptions = {
  onReject: 'repair',
  onRepair: (repairs, failures) => {
    expectType<readonly TranscriptRepair[]>(repairs);
    expectType<readonly TranscriptFailure<'aisdk'>[]>(failures);
  },
};
void options;
// @ts-expect-error -- "Type 'string' is not assignable to type '(repairs: readonly TranscriptRepair[]"
transcriptGuard({ onRepair: 'log' });

// A repair may rewrite a part's shape; the shape rules are aisdk rules.
expectAssignable<TranscriptRepair['action']>('rewrote_field');
expectNotAssignable<TranscriptRepair['action']>('rewritten');
expectAssignable<RuleOf<'aisdk'>>('aisdk.tool_call_input_json_string');
expectAssignable<RuleOf<'aisdk'>>('aisdk.approved_call_without_result');
expectNotAssignable<RuleOf<'aisdk'>>('aisdk.tool_input_string');

// The error's failures are aisdk failures.
declare const error: TranscriptRejectedError;
expectType<readonly TranscriptFailure<'aisdk'>[]>(error.failures);
expectAssignable<RuleOf<'aisdk'> | undefined>(error.failures[0]?.rule);
expectType<'generate' | 'stream'>(error.callType);
expectAssignable<Error>(error);
