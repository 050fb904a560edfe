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
import { readAISDK } from './aisdk/check.ts';
import { readAnthropic } from './anthropic/check.ts';
import { readChat } from './chat/check.ts';
import type { CallSite } from './core/calls.ts';
import { invalid, isJsonObject, type JsonObject } from './core/input.ts';
import { isSynthesizedResultText } from './core/repair.ts';
import { TranscriptInputError } from './core/report.ts';
import { unwrapTranscript } from './core/unwrap.ts';
import { readGemini } from './gemini/check.ts';
import type { TranscriptMessage, TranscriptRequestBody } from './messages.ts';
import { readOpenAIChat } from './openai-chat/check.ts';
import { ITEM, readResponses } from './openai-responses/check.ts';
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

/** A call with its input, and the result answering it (if any). */
interface TurnCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly result: { readonly payload: unknown; readonly error: string | undefined } | undefined;
}

/** The calls of every model message with client calls, by message index. */
type Turns = Map<number, TurnCall[]>;

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n')
      : JSON.stringify(value ?? null);

function parsed(argumentsText: unknown): unknown {
  if (typeof argumentsText !== 'string') return argumentsText;
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}

/** Groups calls by message with the first result standing after each (by key). */
function group(
  calls: readonly CallSite[],
  results: readonly {
    readonly key: string | undefined;
    readonly seq: number;
    readonly value: () => TurnCall['result'];
  }[],
  input: (call: CallSite) => unknown,
): Turns {
  const firstAfter = new Map<string, (typeof results)[number][]>();
  for (const result of results) {
    if (result.key === undefined) continue;
    const list = firstAfter.get(result.key) ?? [];
    list.push(result);
    firstAfter.set(result.key, list);
  }
  const turns: Turns = new Map();
  const seen = new Set<string>();
  for (const call of calls) {
    if (call.server || seen.has(call.key)) continue;
    seen.add(call.key);
    const result = firstAfter.get(call.key)?.find((r) => r.seq > call.seq);
    const list = turns.get(call.message) ?? [];
    list.push({ id: call.key, name: call.name, input: input(call), result: result?.value() });
    turns.set(call.message, list);
  }
  return turns;
}

const READERS: { readonly [F in TranscriptFormat]: (messages: readonly unknown[]) => Turns } = {
  anthropic(messages) {
    const read = readAnthropic(messages);
    const block = (m: number, s: number) => ((messages[m] as JsonObject)['content'] as JsonObject[])[s] as JsonObject;
    return group(
      read.calls,
      read.results.map((r) => ({
        key: r.key,
        seq: r.seq,
        value: () => {
          const b = block(r.message, r.slot);
          return { payload: b['content'] ?? null, error: b['is_error'] === true ? text(b['content']) : undefined };
        },
      })),
      (call) => block(call.message, call.slot)['input'],
    );
  },
  'openai-chat': (messages) => toolRuns(messages, readOpenAIChat(messages)),
  chat: (messages) => toolRuns(messages, readChat(messages)),
  'openai-responses'(items) {
    const read = readResponses(items);
    // A turn is one model response: the run of model and reasoning items, named by its first item.
    const start = new Int32Array(items.length);
    for (let i = 0; i < items.length; i++) {
      start[i] =
        i > 0 && read.kinds[i] !== ITEM.input && read.kinds[i - 1] !== ITEM.input ? (start[i - 1] as number) : i;
    }
    return group(
      read.calls.map((call) => ({ ...call, message: start[call.message] as number, slot: call.message })),
      read.outputs.map((o) => ({
        key: o.key,
        seq: o.seq,
        value: () => ({ payload: (items[o.item] as JsonObject)['output'] ?? null, error: undefined }),
      })),
      (call) => {
        const item = items[call.slot] as JsonObject;
        return item['type'] === 'function_call' ? parsed(item['arguments']) : (item['input'] ?? item['action'] ?? null);
      },
    );
  },
  aisdk(messages) {
    const read = readAISDK(messages);
    const part = (m: number, s: number) => ((messages[m] as JsonObject)['content'] as JsonObject[])[s] as JsonObject;
    return group(
      read.calls,
      read.results.map((r) => ({
        key: r.key,
        seq: r.seq,
        value: () => {
          const output = part(r.message, r.slot)['output'] as JsonObject;
          const kind = output['type'];
          const failed = kind === 'error-text' || kind === 'error-json' || kind === 'execution-denied';
          return {
            payload: output['value'] ?? output['reason'] ?? null,
            error: failed
              ? kind === 'execution-denied'
                ? `execution denied${output['reason'] === undefined ? '' : `: ${text(output['reason'])}`}`
                : text(output['value'])
              : undefined,
          };
        },
      })),
      (call) => part(call.message, call.slot)['input'] ?? null,
    );
  },
  gemini(contents) {
    const read = readGemini(contents);
    const part = (m: number, s: number) => ((contents[m] as JsonObject)['parts'] as JsonObject[])[s] as JsonObject;
    // Calls without ids pair by position and name in the content right after; they get ids `name#k`.
    const turns: Turns = new Map();
    const byMessage = new Map<number, typeof read.calls>();
    for (const call of read.calls) byMessage.set(call.message, [...(byMessage.get(call.message) ?? []), call]);
    for (const [message, calls] of byMessage) {
      const responses = read.responses.filter((r) => r.content === message + 1);
      const taken = new Set<(typeof responses)[number]>();
      const counts = new Map<string, number>();
      const list: TurnCall[] = [];
      for (const call of calls) {
        const response = responses.find(
          (r) => !taken.has(r) && (call.hasId ? r.id === call.key : r.id === undefined && r.name === call.name),
        );
        if (response !== undefined) taken.add(response);
        const k = (counts.get(call.name) ?? 0) + 1;
        counts.set(call.name, k);
        const payload =
          response === undefined
            ? undefined
            : ((part(response.content, response.slot)['functionResponse'] as JsonObject)['response'] ?? null);
        const error = isJsonObject(payload) && payload['error'] !== undefined ? text(payload['error']) : undefined;
        list.push({
          id: call.hasId ? call.key : `${call.name}#${k}`,
          name: call.name,
          input: (part(call.message, call.slot)['functionCall'] as JsonObject)['args'] ?? null,
          result: response === undefined ? undefined : { payload, error },
        });
      }
      turns.set(message, list);
    }
    return turns;
  },
};

function toolRuns(messages: readonly unknown[], read: ReturnType<typeof readOpenAIChat>): Turns {
  return group(
    read.calls,
    read.toolMessages.map((t) => ({
      key: t.key,
      seq: t.seq,
      value: () => ({ payload: (messages[t.message] as JsonObject)['content'] ?? null, error: undefined }),
    })),
    (call) => {
      const spec = ((messages[call.message] as JsonObject)['tool_calls'] as JsonObject[])[call.slot] as JsonObject;
      const fn = spec['function'];
      if (isJsonObject(fn)) return parsed(fn['arguments']);
      const custom = spec['custom'];
      return isJsonObject(custom) ? custom['input'] : (spec['arguments'] ?? null);
    },
  );
}

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
 * import { joinCheck } from 'turngate';
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
export function toEvidence<const F extends TranscriptFormat>(
  messages: unknown,
  options: ToEvidenceOptions<F>,
): TranscriptEvidence {
  let turns: Turns;
  let count: number;
  try {
    const { messages: list } = unwrapTranscript(messages, options.format);
    count = list.length;
    turns = READERS[options.format](list);
  } catch (error) {
    if (error instanceof TranscriptInputError) return { ok: false, failures: [error] };
    return {
      ok: false,
      failures: [
        new TranscriptInputError('messages', `readable JSON data (${String((error as Error)?.message ?? error)})`),
      ],
    };
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
  // A transcript's results are answered (ok or error); `pending` is the typestate layer's own state for a mutation call.
  const results: Exclude<ReportedToolResult, { readonly status: 'pending' }>[] = [];
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
