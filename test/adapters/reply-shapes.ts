/**
 * SDK-shaped replies for the hostile-reply tests: for each adapter, the opening history and a
 * reply carrying the given calls (an input object, or `argsText` written as the wire carries
 * it), with a chosen stop reason. The replies are built as the providers send them, including
 * shapes the SDK types forbid, so they are typed `unknown` and handed to each loop as its reply.
 */
import * as v from 'valibot';
import { defineTools, type EffectLedger, type ToolDefinitions } from 'turngate';
import * as aisdk from 'turngate/adapters/aisdk';
import * as anthropic from 'turngate/adapters/anthropic';
import * as gemini from 'turngate/adapters/gemini';
import * as openaiChat from 'turngate/adapters/openai-chat';
import * as responses from 'turngate/adapters/openai-responses';
import type { TranscriptFormat } from 'turngate/transcripts';
import { anthropicReply } from '../fixtures/anthropic-reply.mjs';

/** One read tool that answers, one that throws, one mutating tool. */
export class Tools extends defineTools({
  get_weather: { description: 'weather', input: v.object({ city: v.string() }), output: v.string() },
  fail_read: { description: 'a read that throws', input: v.object({ q: v.string() }), output: v.string() },
  send_email: {
    description: 'sends an email',
    input: v.object({ to: v.string(), body: v.string() }),
    output: v.object({ messageId: v.string() }),
    mutation: true,
  },
}) {}

/** A call in a reply: the input as an object, or `argsText` as the wire carries it. */
export interface Call {
  readonly id: string | null;
  readonly name: string;
  readonly input?: unknown;
  readonly argsText?: string;
}

export interface ReplyOptions {
  /** The stop reason as the provider sends it (`null`: none). */
  readonly stop?: string | null;
  readonly id?: string;
}

export type AdapterName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'aisdk' | 'gemini';
export const ADAPTERS: readonly AdapterName[] = ['anthropic', 'openai-chat', 'openai-responses', 'aisdk', 'gemini'];

/** The stop reason each provider sends with a reply of tool calls. */
export const TOOL_STOP: Readonly<Record<AdapterName, string>> = {
  anthropic: 'tool_use',
  'openai-chat': 'tool_calls',
  'openai-responses': 'completed',
  aisdk: 'tool-calls',
  gemini: 'STOP',
};

const wireArgs = (call: Call): string => call.argsText ?? JSON.stringify(call.input);
const objectArgs = (call: Call): unknown => (call.argsText !== undefined ? call.argsText : call.input);

/** A Responses reply's `status` (and `incomplete_details`) for a stop reason of the table. */
function responsesStatus(stop: string | null): Record<string, unknown> {
  if (stop === null) return {};
  if (stop === 'function_call') return { status: 'completed' };
  if (['max_output_tokens', 'max_messages', 'content_filter'].includes(stop)) {
    return { status: 'incomplete', incomplete_details: { reason: stop } };
  }
  return { status: stop };
}

/** The provider's reply carrying `calls`. */
export function replyOf(adapter: AdapterName, calls: readonly Call[], options: ReplyOptions = {}): unknown {
  const stop = options.stop === undefined ? TOOL_STOP[adapter] : options.stop;
  switch (adapter) {
    case 'anthropic':
      return anthropicReply(
        options.id ?? 'msg_1',
        calls.map((c) => [c.id, c.name, objectArgs(c)]),
        { stop },
      );
    case 'openai-chat':
      return {
        id: options.id ?? 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-5',
        choices: [
          {
            index: 0,
            finish_reason: stop,
            logprobs: null,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: wireArgs(c) },
              })),
            },
          },
        ],
      };
    case 'openai-responses':
      return {
        id: options.id ?? 'resp_1',
        object: 'response',
        created_at: 1,
        model: 'gpt-5',
        ...responsesStatus(stop),
        output_text: '',
        output: calls.map((c, i) => ({
          type: 'function_call',
          id: `fc_${options.id ?? 'resp_1'}_${i}`,
          call_id: c.id,
          name: c.name,
          arguments: wireArgs(c),
          status: 'completed',
        })),
      };
    case 'aisdk':
      return {
        finishReason: stop,
        responseMessages: [
          {
            role: 'assistant',
            content: calls.map((c) => ({
              type: 'tool-call',
              toolCallId: c.id,
              toolName: c.name,
              input: objectArgs(c),
            })),
          },
        ],
        response: { id: options.id ?? 'aisdk-1', modelId: 'gpt-5' },
      };
    case 'gemini':
      return {
        responseId: options.id ?? 'gem-1',
        modelVersion: 'gemini-2.5-flash',
        candidates: [
          {
            index: 0,
            ...(stop === null ? {} : { finishReason: stop }),
            content: {
              role: 'model',
              parts: calls.map((c) => ({
                functionCall: { ...(c.id === null ? {} : { id: c.id }), name: c.name, args: objectArgs(c) },
              })),
            },
          },
        ],
      };
  }
}

/** The opening history of each format: one user message. */
export function historyOf(adapter: AdapterName): unknown[] {
  return adapter === 'gemini' ? [{ role: 'user', parts: [{ text: 'go' }] }] : [{ role: 'user', content: 'go' }];
}

/** A reply with a text answer and no call. */
export function textReply(adapter: AdapterName): unknown {
  switch (adapter) {
    case 'anthropic':
      return { ...(replyOf(adapter, [], { stop: 'end_turn' }) as object), content: [{ type: 'text', text: 'done' }] };
    case 'openai-chat': {
      const reply = replyOf(adapter, [], { stop: 'stop' }) as { choices: { message: object }[] };
      return {
        ...reply,
        choices: [{ ...reply.choices[0], message: { role: 'assistant', content: 'done', refusal: null } }],
      };
    }
    case 'openai-responses':
      return {
        ...(replyOf(adapter, [], { stop: 'completed' }) as object),
        output: [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'done', annotations: [] }],
          },
        ],
      };
    case 'aisdk':
      return {
        finishReason: 'stop',
        responseMessages: [{ role: 'assistant', content: [{ type: 'text', text: 'done' }] }],
      };
    case 'gemini':
      return {
        responseId: 'gem-text',
        candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ text: 'done' }] } }],
      };
  }
}

/** The format each adapter's loop speaks. */
export const FORMAT: Readonly<Record<AdapterName, Exclude<TranscriptFormat, 'chat'>>> = {
  anthropic: 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  aisdk: 'aisdk',
  gemini: 'gemini',
};

/** A loop as the tests drive it: the reply and history untyped. */
export interface AnyLoop {
  answer(history: readonly unknown[], reply: unknown, options?: { signal?: AbortSignal }): Promise<AnyStep>;
  resume(
    state: unknown,
    decisions: readonly { toolCallId: string; verdict: 'approve' | 'deny'; reason: string; decidedBy: string }[],
  ): Promise<AnyStep>;
  recorded(history: readonly unknown[]): Promise<unknown>;
}

export interface AnyStep {
  readonly done: boolean;
  readonly messages: unknown[];
  readonly resumed: boolean;
  readonly results: readonly {
    toolCallId: string;
    toolName: string;
    status: string;
    error?: { errorCode: string; errorMessage: string; retryable: boolean };
  }[];
  readonly mutations: readonly { outcome: string }[];
  readonly failures: readonly { class: string }[];
  readonly approvals: readonly { toolCallId: string; toolName: string; state: string; requestDigest: string }[];
  readonly state: unknown;
}

/** What a loop's handlers did: every email sent, in order. */
export interface Counter {
  readonly sent: { to: string; body: string }[];
  readonly reads: string[];
}

export interface LoopSetup {
  readonly ledger?: EffectLedger;
  readonly sessionId?: string;
  readonly readFailures?: 'block_mutations' | 'refused_calls_only';
  readonly mutationStopReasons?: readonly (string | null)[];
  readonly store?: boolean;
  readonly idempotencyKey?: (intent: { readonly toolCallId: string }) => string;
  readonly approvals?: unknown;
  readonly approvalExpiresInMs?: number;
  /** Runs inside send_email before it returns (a slow or aborting effect). */
  readonly during?: (signal: AbortSignal) => Promise<void>;
}

/** The loop of `adapter` over {@link Tools}, counting effects. */
export function loopOf(adapter: AdapterName, setup: LoopSetup = {}): { loop: AnyLoop; counter: Counter } {
  const counter: Counter = { sent: [], reads: [] };
  const handlers = {
    get_weather: async ({ city }: { city: string }) => {
      counter.reads.push(city);
      return `snow in ${city}`;
    },
    fail_read: async (_input: { q: string }): Promise<string> => {
      throw new Error('the weather service is down');
    },
    send_email: async (
      { to, body }: { to: string; body: string },
      _witness: unknown,
      step: { signal: AbortSignal },
    ) => {
      if (setup.during !== undefined) await setup.during(step.signal);
      counter.sent.push({ to, body });
      return { messageId: `id-${to}-${counter.sent.length}` };
    },
  };
  const settings = {
    tools: Tools,
    handlers,
    ...(setup.ledger === undefined ? {} : { ledger: setup.ledger }),
    ...(setup.sessionId === undefined ? {} : { sessionId: setup.sessionId }),
    ...(setup.readFailures === undefined ? {} : { readFailures: setup.readFailures }),
    ...(setup.mutationStopReasons === undefined ? {} : { mutationStopReasons: setup.mutationStopReasons }),
    ...(setup.idempotencyKey === undefined ? {} : { idempotencyKey: setup.idempotencyKey }),
    ...(setup.store === undefined ? {} : { store: setup.store }),
    ...(setup.approvals === undefined ? {} : { approvals: setup.approvals }),
    ...(setup.approvalExpiresInMs === undefined ? {} : { approvalExpiresInMs: setup.approvalExpiresInMs }),
  };
  // biome-ignore lint/plugin: one options object for every loop, a ledger without a session among them (the run-time refusal is a case)
  const options = settings as never as responses.ResponsesToolLoopOptions<Tools>;
  const make: Record<AdapterName, () => AnyLoop> = {
    anthropic: () => anthropic.toolLoop(options) as AnyLoop,
    'openai-chat': () => openaiChat.toolLoop(options) as AnyLoop,
    'openai-responses': () => responses.toolLoop(options) as AnyLoop,
    aisdk: () => aisdk.toolLoop(options) as AnyLoop,
    gemini: () => gemini.toolLoop(options) as AnyLoop,
  };
  return { loop: make[adapter](), counter };
}

export type { ToolDefinitions };
