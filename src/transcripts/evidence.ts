/**
 * `toEvidence`: one turn of a provider transcript as join-check evidence, so the join check
 * (`joinCheck`, `turngate harness-join-check`) and the typestate chain (`requestTools`,
 * `recordResults`, `recordUse`, `closeJoin`, `admitMutation`) run on what is actually sent.
 *
 * @module
 */
import { protocolStopReason, type StopReasonOf, type TranscriptFormat } from '../check/index.ts';
import type { JoinCheckInputWire } from '../evidence/index.ts';
import type { ReportedToolResult, RequestedToolCall, ToolUseInputRow } from '../typestate/index.ts';
import { invalid } from './core/input.ts';
import { isSynthesizedResultText } from './core/repair.ts';
import { type TranscriptInputError, unreadableInput } from './core/report.ts';
import { text, type TurnCall, type Turns } from './core/turns.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { LangChainMessageInstance } from './langchain/instances.ts';
import { unwrapTranscript } from './unwrap.ts';
import type { TranscriptMessage, TranscriptRequestBody } from './messages.ts';
import type { Result } from '../failures/index.ts';

/**
 * Options of `toEvidence`.
 *
 * @example
 * ```ts
 * import type { ToEvidenceOptions } from 'turngate/transcripts';
 * const options: ToEvidenceOptions<'openai-chat'> = {
 *   format: 'openai-chat',
 *   stopReason: 'tool_calls',
 *   callSpec: { callId: 'turn-7', modelRef: 'gpt-5', actionMode: 'code', executionPattern: 'single', normalizerId: 'nf.v1',
 *     mutationPolicyDigest: 'pol.mut', governancePolicyDigest: 'pol.gov', toolRenderProtocolDigest: 'pol.render',
 *     reminderQueuePolicyDigest: 'pol.queue', stateViewPolicyDigest: 'pol.view', decompositionPolicyDigest: 'pol.decomp' },
 * };
 * ```
 */
export interface ToEvidenceOptions<F extends TranscriptFormat> {
  readonly format: F;
  /** The turn's CallSpec (HARNESS-TYPESTATE §3.1): call id, model, action mode and policy digests. */
  readonly callSpec: JoinCheckInputWire['evidence']['callSpec'];
  /**
   * The index of the model message (content) whose calls make the turn; for Responses, the first
   * item of the model response. Default: the last one with client calls.
   */
  readonly turn?: number;
  /** The stop reason the provider gave for that message, mapped through `STOP_REASON_TABLE`; default `tool_use` when it has calls, else `end_turn`. */
  readonly stopReason?: StopReasonOf<F>;
  /** Whether the loop continues after the turn (default `false`); continuing needs the context evidence in `context`. */
  readonly continuationAllowed?: boolean;
  /** What the turn did with each result (default: every result `observed`, as it went back to the model). */
  readonly use?: (result: ReportedToolResult) => ToolUseInputRow;
  /** More evidence of the turn: render rows, reminder queues, state views, handoff, session and trajectory refs. */
  readonly context?: Omit<
    JoinCheckInputWire['evidence'],
    'callSpec' | 'toolRequests' | 'toolResults' | 'toolUse' | 'protocolState'
  >;
}

/**
 * One turn of a transcript as evidence: the join-check input of the turn (for `joinCheck` or
 * the CLI), and the same turn as the typestate transitions take it (`requests` for
 * `requestTools`, `results` for `recordResults`, `uses` for `recordUse`).
 */
export interface TurnEvidence {
  /** The index of the model message the turn is made of (-1 when the transcript has no client call). */
  readonly messageIndex: number;
  /** The `harness-join-check` input: `{ evidence: { callSpec, toolRequests, toolResults, toolUse, protocolState, ... } }`. */
  readonly input: JoinCheckInputWire;
  readonly requests: readonly RequestedToolCall[];
  readonly results: readonly ReportedToolResult[];
  readonly uses: readonly ToolUseInputRow[];
}

/**
 * What `toEvidence` returns: the {@link TurnEvidence} as `value`, or `failures` holding one
 * input error.
 *
 * @example
 * ```ts
 * import type { TranscriptEvidence } from 'turngate/transcripts';
 * function requestedIds(evidence: TranscriptEvidence): string[] {
 *   return evidence.ok ? evidence.value.requests.map((r) => r.toolCallId) : [];
 * }
 * ```
 */
export type TranscriptEvidence = Result<TurnEvidence, TranscriptInputError>;

/**
 * One turn of a transcript as join-check evidence: the client calls of one model message as
 * `toolRequests`, the result answering each (the first with its id after it) as `toolResults`
 * (`error` when the provider marks it failed: Anthropic `is_error`, AI SDK `error-*` and
 * `execution-denied` outputs, Gemini `response.error`, or a synthesized result), one `toolUse`
 * row per result, and `protocolState` with the provider's stop reason mapped through the stop
 * reason table. A call without a result stays without one, so the join check reports
 * `tool.result_missing` for it, as the provider would refuse the transcript.
 *
 * Result payloads are the result content as the format holds it (text, blocks, output value,
 * response object). Server and provider-executed calls are the provider's, not the turn's:
 * they are left out.
 *
 * @param messages - The messages (items, contents), or a request body holding them.
 * @param options - `format`, the turn's `callSpec`, and optionally `turn`, `stopReason`, `continuationAllowed`, `use`, `context`.
 * @returns The join-check input and the typestate rows of the turn, or the input error.
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * import { toEvidence } from 'turngate/transcripts';
 * const evidence = toEvidence(
 *   [
 *     { role: 'user', content: 'Weather in Oslo?' },
 *     { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } }] },
 *     { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Snow' }] },
 *   ],
 *   { format: 'anthropic', stopReason: 'tool_use', callSpec: { callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'code',
 *     executionPattern: 'single', normalizerId: 'nf.v1', mutationPolicyDigest: 'pol.mut', governancePolicyDigest: 'pol.gov',
 *     toolRenderProtocolDigest: 'pol.render', reminderQueuePolicyDigest: 'pol.queue', stateViewPolicyDigest: 'pol.view',
 *     decompositionPolicyDigest: 'pol.decomp' } },
 * );
 * if (evidence.ok) {
 *   const outcome = joinCheck(evidence.value.input);
 *   if (outcome.ok) outcome.value.result; //=> 'accepted'
 * }
 * ```
 */
export function toEvidence<const F extends TranscriptFormat, M extends TranscriptMessage<F>>(
  messages: readonly M[],
  options: ToEvidenceOptions<F>,
): TranscriptEvidence;
export function toEvidence<const F extends TranscriptFormat, B extends TranscriptRequestBody<F>>(
  body: B,
  options: ToEvidenceOptions<F>,
): TranscriptEvidence;
export function toEvidence(
  messages: readonly LangChainMessageInstance[],
  options: ToEvidenceOptions<'langchain'>,
): TranscriptEvidence;
export function toEvidence<const F extends TranscriptFormat>(
  messages: unknown,
  options: ToEvidenceOptions<F>,
): TranscriptEvidence {
  let turns: Turns;
  let count: number;
  try {
    const { messages: list } = unwrapTranscript(messages, options.format);
    count = list.length;
    turns = FORMAT_DRIVERS[options.format].turns(list);
  } catch (error) {
    return { ok: false, failures: [unreadableInput('messages', error)] };
  }
  let index = options.turn;
  if (index === undefined) index = turns.size === 0 ? -1 : Math.max(...turns.keys());
  else if (!Number.isInteger(index) || index < 0 || index >= count || !turns.has(index)) {
    try {
      invalid(
        'options.turn',
        `the index of a model message with client tool calls (${[...turns.keys()].join(', ') || 'none'})`,
      );
    } catch (error) {
      return { ok: false, failures: [error as TranscriptInputError] };
    }
  }
  const calls = turns.get(index) ?? [];
  const requests: RequestedToolCall[] = calls.map((c) => ({ toolCallId: c.id, toolName: c.name, input: c.input }));
  const results = reportedResults(calls);
  const uses = results.map(
    (result) => options.use?.(result) ?? { toolCallId: result.toolCallId, disposition: 'observed' as const },
  );
  const stopReason =
    options.stopReason === undefined
      ? calls.length > 0
        ? 'tool_use'
        : 'end_turn'
      : protocolStopReason(options.format, options.stopReason, { hasToolCalls: calls.length > 0 });
  const input: JoinCheckInputWire = {
    evidence: {
      ...options.context,
      callSpec: options.callSpec,
      toolRequests: requests.map((r) => ({ toolCallId: r.toolCallId, toolName: r.toolName })),
      toolResults: results.map((r) =>
        r.status === 'ok'
          ? // biome-ignore lint/plugin: a result payload is JSON data from the transcript; the join check validates it as a payload
            { toolCallId: r.toolCallId, status: 'ok', payload: r.output as never }
          : { toolCallId: r.toolCallId, status: 'error', ...r.error },
      ),
      toolUse: uses.map((u) => ({
        toolCallId: u.toolCallId,
        disposition: u.disposition,
        ...(u.reasonCode === undefined ? {} : { reasonCode: u.reasonCode }),
      })),
      protocolState: { stopReason, continuationAllowed: options.continuationAllowed ?? false },
    },
  };
  return { ok: true, value: { messageIndex: index, input, requests, results, uses } };
}

/** A transcript's results are answered (ok or error); `pending` is the typestate layer's own state for a mutation call. */
type AnsweredResult = Exclude<ReportedToolResult, { readonly status: 'pending' }>;

/** The results of a turn's calls as the join check reports them: a synthesized error result is `turngate.synthesized`. */
function reportedResults(calls: readonly TurnCall[]): AnsweredResult[] {
  const results: AnsweredResult[] = [];
  for (const call of calls) {
    if (call.result === undefined) continue;
    const synthesized = isSynthesizedResultText(call.result.error ?? text(call.result.payload));
    const error = call.result.error ?? (synthesized ? text(call.result.payload) : undefined);
    results.push(
      error === undefined
        ? { toolCallId: call.id, status: 'ok', output: call.result.payload }
        : {
            toolCallId: call.id,
            status: 'error',
            error: {
              errorCode: synthesized ? 'turngate.synthesized' : 'tool_error',
              retryable: false,
              errorMessage: error,
            },
          },
    );
  }
  return results;
}
