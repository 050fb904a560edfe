/**
 * `transcriptGuard`: an AI SDK language-model middleware that checks the prompt of every model
 * call against the `aisdk` transcript rules before the model sees it.
 *
 * @module
 */
import type { TranscriptFailure, TranscriptRepair } from '../../transcripts/index.ts';
import { type AISDKMessage, runCheck, runRepair } from '../../transcripts/internal.ts';
import { TranscriptRejectedError } from './errors.ts';

/** What `transcriptGuard` does with a prompt the check rejects. */
export type OnReject = 'throw' | 'repair';

/**
 * Options of `transcriptGuard`.
 *
 * @example
 * ```ts
 * import type { TranscriptGuardOptions } from 'turngate/adapters/aisdk';
 * const options: TranscriptGuardOptions = {
 *   onReject: 'repair',
 *   onRepair: (repairs) => console.warn(repairs.map((r) => `${r.action} ${r.ids.join(',')}`)),
 * };
 * ```
 */
export interface TranscriptGuardOptions {
  /**
   * `'throw'` (default): throw `TranscriptRejectedError` and do not call the model. `'repair'`:
   * call the model with the prompt `repairTranscript` makes of it (a synthesized error result for
   * each call nobody answered, orphans and repeats removed (an orphan's words kept as user text),
   * misplaced results moved, a tool input given as JSON text parsed, a result's name set from its
   * call). A prompt with a failure no repair fixes (`repairable: false`) still throws.
   */
  readonly onReject?: OnReject;
  /**
   * Under `'repair'`, called with every change made (`TranscriptRepair`: action, rule, ids, at,
   * detail, the removed value) and the failures they fix, before the model is called. What it
   * throws is thrown from the model call. Paths (`at`) are paths into the prompt.
   */
  readonly onRepair?: (repairs: readonly TranscriptRepair[], failures: readonly TranscriptFailure<'aisdk'>[]) => void;
}

/**
 * The parameters of a model call, as far as the guard reads them: the prompt
 * (`LanguageModelV4CallOptions['prompt']`). Every other field passes through.
 */
export interface GuardedCallOptions {
  readonly prompt: readonly AISDKMessage[];
}

/**
 * The middleware `transcriptGuard` returns: a `LanguageModelMiddleware` of the AI SDK (the
 * `middleware` of `wrapLanguageModel`, `wrapProvider` and `createProviderRegistry`), typed
 * without importing the SDK.
 *
 * @example
 * ```ts
 * import { transcriptGuard, type TranscriptGuardMiddleware } from 'turngate/adapters/aisdk';
 * const middleware: TranscriptGuardMiddleware = transcriptGuard();
 * middleware.specificationVersion; //=> 'v4'
 * ```
 */
export interface TranscriptGuardMiddleware {
  /** The middleware specification the SDK's `LanguageModelV4Middleware` names. */
  readonly specificationVersion: 'v4';
  /**
   * Checks `params.prompt` (for `doGenerate` and `doStream` alike): resolves to `params` itself
   * when the check accepts it, to `params` with the repaired prompt under `'repair'`, and
   * rejects with `TranscriptRejectedError` otherwise.
   */
  readonly transformParams: <P extends GuardedCallOptions>(options: {
    readonly type: 'generate' | 'stream';
    readonly params: P;
    /** The model called (`LanguageModelV4`): its `modelId` selects the model-specific rules (Gemini's names). */
    readonly model?: { readonly modelId?: unknown };
  }) => Promise<P>;
}

function readOptions(options: unknown): Required<Pick<TranscriptGuardOptions, 'onReject'>> & TranscriptGuardOptions {
  if (options === undefined) return { onReject: 'throw' };
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `transcriptGuard options: expected an object, got ${options === null ? 'null' : typeof options}`,
    );
  const { onReject = 'throw', onRepair } = options as TranscriptGuardOptions;
  if (onReject !== 'throw' && onReject !== 'repair')
    throw new TypeError(
      `options.onReject: expected 'throw' or 'repair', got ${JSON.stringify(onReject) ?? String(onReject)}`,
    );
  if (onRepair !== undefined && typeof onRepair !== 'function')
    throw new TypeError(`options.onRepair: expected a function, got ${typeof onRepair}`);
  return onRepair === undefined ? { onReject } : { onReject, onRepair };
}

/** Repairs a rejected prompt (checked as a prompt), or throws. */
function repaired(
  prompt: readonly unknown[],
  type: 'generate' | 'stream',
  model: string | undefined,
  failures: readonly TranscriptFailure<'aisdk'>[],
  onRepair: TranscriptGuardOptions['onRepair'],
): unknown[] {
  const outcome = runRepair(prompt, { format: 'aisdk', expect: 'sendable', stage: 'prompt', model });
  if (!outcome.ok) throw outcome.failures[0];
  const { value } = outcome;
  if (value.transcript === undefined)
    throw new TranscriptRejectedError(type, value.remaining as readonly TranscriptFailure<'aisdk'>[]);
  onRepair?.(value.repairs, failures);
  return [...value.messages];
}

/**
 * An AI SDK language-model middleware that checks the prompt of every model call
 * (`generateText`, `streamText`, `ToolLoopAgent`, every step of a tool loop) with
 * `checkTranscript(prompt, { format: 'aisdk' })` before the model is called: every client
 * tool-call answered by a tool-result before the next user or system message, no tool-result
 * without its call, before it, or twice, no repeated toolCallId, no client result for a
 * provider-executed call, tool inputs that are objects and outputs the providers read (the rules
 * `aisdk.*` of `TRANSCRIPT_RULES`, with their sources). The called model's `modelId` selects the
 * model-specific rules (a Gemini model: each result named as its call). An accepted prompt goes
 * to the model unchanged (the same `params` object).
 *
 * The prompt is the SDK's `LanguageModelV4Prompt` (instructions as leading system messages,
 * consecutive tool messages merged, approval requests removed), checked as a prompt: the
 * provider-executed approval responses the SDK keeps there answer requests it removed, so a
 * response without its request is expected there and kept as it is. `generateText` itself refuses a history with an unanswered client call
 * (`MissingToolResultsError`) before any middleware runs; the guard adds the other rules, and
 * catches what a middleware earlier in the list (history trimming, compaction) or a direct
 * `doGenerate` / `doStream` caller hands the model.
 *
 * Cost: one read of the prompt per call (docs/BENCHMARKS.md, "AI SDK middleware").
 *
 * @param options - `onReject` (`'throw'` by default, or `'repair'`) and `onRepair`.
 * @returns The middleware, for `wrapLanguageModel({ model, middleware })`.
 * @throws TypeError for options that are not `TranscriptGuardOptions` (naming the field).
 * @throws {@link TranscriptRejectedError} from the model call (before the model runs) for a
 *   rejected prompt under `'throw'`; `TranscriptInputError` for a prompt that is not AI SDK
 *   messages (under either option).
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { MockLanguageModelV4 } from 'ai/test';
 * import { TranscriptRejectedError, transcriptGuard } from 'turngate/adapters/aisdk';
 * const model = wrapLanguageModel({ model: new MockLanguageModelV4(), middleware: transcriptGuard() });
 * const error = await generateText({
 *   model,
 *   messages: [
 *     { role: 'user', content: 'Weather in Oslo?' },
 *     { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_9', toolName: 'getWeather', output: { type: 'text', value: 'Snow' } }] },
 *   ],
 * }).catch((e: unknown) => e);
 * error instanceof TranscriptRejectedError && error.failures.map((f) => f.rule); //=> ['aisdk.tool_result_orphan']
 * ```
 */
export function transcriptGuard(options?: TranscriptGuardOptions): TranscriptGuardMiddleware {
  const { onReject, onRepair } = readOptions(options);
  return {
    specificationVersion: 'v4',
    transformParams: async ({ type, params, model: called }) => {
      const prompt: unknown = params.prompt;
      if (!Array.isArray(prompt))
        throw new TypeError(
          `params.prompt: expected an array of messages (LanguageModelV4Prompt), got ${typeof prompt}`,
        );
      const id = called?.modelId;
      const model = typeof id === 'string' && id !== '' ? id : undefined;
      // The prompt goes on as it is (no one else holds it): no snapshot for a SendableTranscript.
      const report = runCheck(prompt, { format: 'aisdk', expect: 'sendable', stage: 'prompt', model, snapshot: false });
      if (report.result === 'accepted') return params;
      if (report.result === 'invalid') throw report.error;
      const failures = report.failures as readonly TranscriptFailure<'aisdk'>[];
      if (onReject === 'throw') throw new TranscriptRejectedError(type, failures);
      return { ...params, prompt: repaired(prompt, type, model, failures, onRepair) } as typeof params;
    },
  };
}
