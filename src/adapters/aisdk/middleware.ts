/**
 * `transcriptGuard`: an AI SDK language-model middleware that checks the prompt of every model
 * call against the `aisdk` transcript rules before the model sees it.
 *
 * @module
 */
import type { SendableTranscript, TranscriptFailure, TranscriptRepair } from '../../transcripts/index.ts';
import { type AISDKMessage, checkExtendable, extendChecked, runRepair } from '../../transcripts/internal.ts';
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

/** How many accepted prompts a guard keeps to extend (a guard a few loops share at once). */
const RECENT_PROMPTS = 4;

/** How deep the prefix comparison reads (a message, its parts, their fields, an output's value...). */
const MAX_COMPARED_DEPTH = 64;

/** An accepted prompt: its checked transcript (the check's frozen copy) and the model it was checked for. */
interface CheckedPrompt {
  readonly transcript: SendableTranscript<'aisdk'>;
  readonly model: string | undefined;
}

/** Whether `value` is a plain object (an object literal's prototype, or none). */
function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether `a` (a prompt's value) holds the data of `b` (the check's frozen copy of an earlier
 * prompt's): the same primitives, arrays and plain objects (a field set to `undefined` is one left
 * out, as the SDK writes them); any other object only itself. The frozen copy cannot change, so
 * equal data is data the check has read.
 */
function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth === 0) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i], depth - 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const x = a as Readonly<Record<string, unknown>>;
  const y = b as Readonly<Record<string, unknown>>;
  // `for...in` allocates no key list; a key both inherit (a polluted prototype) compares equal.
  let fields = 0;
  for (const key in x) {
    const value = x[key];
    if (value === undefined) continue;
    fields++;
    if (!sameData(value, y[key], depth - 1)) return false;
  }
  for (const key in y) if (y[key] !== undefined) fields--;
  return fields === 0;
}

/**
 * The check of a prompt: the extension of an earlier accepted prompt of this guard when the new
 * one starts with its messages (the same data, compared with the frozen copy the check read: the
 * SDK builds each step's prompt anew from the same messages, so the objects differ but the data
 * is the same), else the whole prompt. The comparison reads the prefix once without the rules
 * or a copy; the rules read the new messages only where the format allows it (`extendTranscript`).
 */
function checkPrompt(recent: CheckedPrompt[], prompt: readonly unknown[], model: string | undefined) {
  for (let r = 0; r < recent.length; r++) {
    const head = recent[r] as CheckedPrompt;
    if (head.model !== model) continue;
    const messages = head.transcript.messages;
    if (messages.length === 0 || messages.length > prompt.length) continue;
    let same = true;
    for (let i = 0; i < messages.length && same; i++) same = sameData(prompt[i], messages[i], MAX_COMPARED_DEPTH);
    if (!same) continue;
    const report = extendChecked(head.transcript, prompt.slice(messages.length), { model, stage: 'prompt' });
    if (report.result === 'accepted') {
      recent.splice(r, 1);
      recent.unshift({ transcript: report.transcript, model });
    }
    return report;
  }
  const report = checkExtendable(prompt, 'aisdk', { model, stage: 'prompt' });
  if (report.result === 'accepted') {
    recent.unshift({ transcript: report.transcript, model });
    if (recent.length > RECENT_PROMPTS) recent.pop();
  }
  return report;
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
 * Cost: a step of a tool loop whose prompt starts with the guard's last accepted prompt (the same
 * data: the SDK builds each step's prompt anew) is checked as that prompt's extension
 * (`extendTranscript`): the prefix is compared with the check's frozen copy of it, without the
 * rules, which read only the new messages; any other prompt is checked whole (and copied, for
 * the next step). A guard keeps its last 4 accepted prompts, so a few loops can share it
 * (docs/BENCHMARKS.md, "AI SDK middleware").
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
  const recent: CheckedPrompt[] = [];
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
      const report = checkPrompt(recent, prompt, model);
      if (report.result === 'accepted') return params;
      if (report.result === 'invalid') throw report.error;
      const failures = report.failures as readonly TranscriptFailure<'aisdk'>[];
      if (onReject === 'throw') throw new TranscriptRejectedError(type, failures);
      return { ...params, prompt: repaired(prompt, type, model, failures, onRepair) } as typeof params;
    },
  };
}
