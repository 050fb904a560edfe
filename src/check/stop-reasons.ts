/**
 * Provider stop reasons, per wire format, mapped to the stop reason the protocol policy judges
 * (`protocolState.stopReason` of the evidence). The one table: the transcripts layer reads a
 * provider's stop reason through it, the typestate layer types `stopReason` with it, and the
 * join check decides which protocol stop reasons are handled (`HANDLED_STOP_REASONS`).
 *
 * @module
 */
import { HANDLED_STOP_REASONS } from './types.ts';

/**
 * The wire formats turngate reads: Anthropic Messages, OpenAI Chat Completions, OpenAI
 * Responses, AI SDK `ModelMessage[]`, Gemini `generateContent`, Amazon Bedrock Converse,
 * turngate's own `ChatMessage`, and LangChain.js message histories (`BaseMessage`s serialized:
 * `toJSON()`, `StoredMessage`, message-like).
 *
 * @example
 * ```ts
 * import { TRANSCRIPT_FORMATS } from 'turngate/transcripts';
 * TRANSCRIPT_FORMATS.includes('anthropic'); //=> true
 * ```
 */
export const TRANSCRIPT_FORMATS = [
  'anthropic',
  'openai-chat',
  'openai-responses',
  'aisdk',
  'gemini',
  'bedrock-converse',
  'chat',
  'langchain',
  'mistral',
] as const;

/** One of {@link TRANSCRIPT_FORMATS}. */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/**
 * The stop reasons the protocol policy knows: the four it handles (HARNESS-TYPESTATE §3.2 with
 * TOOL-CALLING-HARNESS-TYPESTATE §4.1 `protocolStatePolicy`) and the unhandled ones a provider
 * can report, which the join check rejects with `protocol.stop_reason_unhandled`.
 *
 * @example
 * ```ts
 * import { PROTOCOL_STOP_REASONS } from 'turngate/join-check';
 * PROTOCOL_STOP_REASONS.length; //=> 9
 * ```
 */
export const PROTOCOL_STOP_REASONS = [
  ...HANDLED_STOP_REASONS,
  'stop_sequence',
  'refusal',
  'error',
  'other',
  'unknown',
] as const;

/** One of {@link PROTOCOL_STOP_REASONS}. */
export type ProtocolStopReason = (typeof PROTOCOL_STOP_REASONS)[number];

/**
 * Each format's stop reasons and the protocol stop reason each means. Sources:
 * - `anthropic`: Messages API `stop_reason` ("Handling stop reasons");
 *   `model_context_window_exceeded` truncates output like `max_tokens`.
 * - `openai-chat`: Chat Completions `choices[].finish_reason`; `content_filter` is a refusal.
 * - `openai-responses`: the Responses API has no single stop reason: `completed` (no
 *   `function_call` output item), `function_call` (the output holds one), and
 *   `incomplete_details.reason` (`max_output_tokens`, `max_messages`: cut at a limit;
 *   `content_filter`; `steered`: stopped at a safe boundary and continued by the server with
 *   queued input, as a paused turn), `failed`, `cancelled`.
 * - `aisdk`: the AI SDK's `FinishReason`.
 * - `gemini`: `Candidate.finishReason`; `STOP` is `end_turn` unless the candidate holds
 *   `functionCall` parts (see {@link protocolStopReason}).
 * - `bedrock-converse`: Converse `stopReason` (API reference, `ConverseOutput` / `MessageStopEvent`):
 *   `guardrail_intervened` and `content_filtered` are refusals, `model_context_window_exceeded`
 *   truncates output like `max_tokens`, `malformed_model_output` and `malformed_tool_use` are errors.
 * - `chat`: turngate's `ChatMessage` carries no stop reason; a turn that ends on assistant tool
 *   calls is `tool_use`, otherwise `end_turn`.
 * - `langchain`: LangChain.js has no stop reason of its own: an `AIMessage`'s
 *   `response_metadata.finish_reason` (OpenAI) or `stop_reason` (Anthropic) is the provider's,
 *   to be read with that provider's format. As for `chat`, a turn that ends on an AIMessage with
 *   tool calls is `tool_use`, otherwise `end_turn`.
 * - `mistral`: Mistral chat completions `choices[].finish_reason` (API reference, "Chat
 *   Completion" response: `stop`, `length`, `model_length`, `error`, `tool_calls`);
 *   `model_length` (the model's context window reached) truncates like `length`.
 */
export const STOP_REASON_TABLE = {
  anthropic: {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
    pause_turn: 'pause_turn',
    max_tokens: 'max_tokens',
    model_context_window_exceeded: 'max_tokens',
    stop_sequence: 'stop_sequence',
    refusal: 'refusal',
  },
  'openai-chat': {
    stop: 'end_turn',
    tool_calls: 'tool_use',
    function_call: 'tool_use',
    length: 'max_tokens',
    content_filter: 'refusal',
  },
  'openai-responses': {
    completed: 'end_turn',
    function_call: 'tool_use',
    max_output_tokens: 'max_tokens',
    max_messages: 'max_tokens',
    steered: 'pause_turn',
    content_filter: 'refusal',
    failed: 'error',
    cancelled: 'error',
  },
  aisdk: {
    stop: 'end_turn',
    'tool-calls': 'tool_use',
    length: 'max_tokens',
    'content-filter': 'refusal',
    error: 'error',
    interrupted: 'error',
    other: 'other',
    unknown: 'unknown',
  },
  gemini: {
    STOP: 'end_turn',
    MAX_TOKENS: 'max_tokens',
    SAFETY: 'refusal',
    RECITATION: 'refusal',
    BLOCKLIST: 'refusal',
    PROHIBITED_CONTENT: 'refusal',
    SPII: 'refusal',
    IMAGE_SAFETY: 'refusal',
    IMAGE_PROHIBITED_CONTENT: 'refusal',
    IMAGE_RECITATION: 'refusal',
    MALFORMED_FUNCTION_CALL: 'error',
    UNEXPECTED_TOOL_CALL: 'error',
    TOO_MANY_TOOL_CALLS: 'error',
    MALFORMED_RESPONSE: 'error',
    LANGUAGE: 'other',
    OTHER: 'other',
    IMAGE_OTHER: 'other',
    NO_IMAGE: 'other',
    CONTINUATION: 'other',
    FINISH_REASON_UNSPECIFIED: 'unknown',
  },
  'bedrock-converse': {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
    max_tokens: 'max_tokens',
    model_context_window_exceeded: 'max_tokens',
    stop_sequence: 'stop_sequence',
    guardrail_intervened: 'refusal',
    content_filtered: 'refusal',
    malformed_model_output: 'error',
    malformed_tool_use: 'error',
  },
  chat: {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
  },
  langchain: {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
  },
  mistral: {
    stop: 'end_turn',
    tool_calls: 'tool_use',
    length: 'max_tokens',
    model_length: 'max_tokens',
    error: 'error',
  },
} as const satisfies { readonly [F in TranscriptFormat]: Readonly<Record<string, ProtocolStopReason>> };

/**
 * The stop reasons a format reports, as a literal union (e.g. `StopReasonOf<'openai-chat'>` is
 * `'stop' | 'tool_calls' | 'function_call' | 'length' | 'content_filter'`). For a union of
 * formats (a format known only as `TranscriptFormat`), the union of their stop reasons; `never`
 * for `never`.
 */
export type StopReasonOf<F extends TranscriptFormat> = F extends TranscriptFormat
  ? keyof (typeof STOP_REASON_TABLE)[F] & string
  : never;

/** The protocol stop reason that format `F`'s stop reason `R` maps to. */
export type ProtocolStopReasonOf<
  F extends TranscriptFormat,
  R extends StopReasonOf<F>,
> = (typeof STOP_REASON_TABLE)[F][R] extends infer P extends ProtocolStopReason ? P : never;

/**
 * Maps a provider's stop reason to the protocol stop reason. A reason the table does not know
 * (a provider added one) maps to `unknown`, which the join check rejects as unhandled: fail
 * closed. For Gemini, `STOP` with `functionCall` parts in the candidate is `tool_use`
 * (`hasToolCalls: true`); so is `end_turn` of `chat` and `langchain` for a last message with tool calls.
 *
 * @param format - The wire format.
 * @param reason - The provider's stop reason, as it sent it.
 * @param options - `hasToolCalls`: whether the model's last output holds tool calls.
 * @returns One of {@link PROTOCOL_STOP_REASONS}.
 * @example
 * ```ts
 * import { protocolStopReason } from 'turngate/join-check';
 * protocolStopReason('openai-chat', 'tool_calls'); //=> 'tool_use'
 * protocolStopReason('gemini', 'STOP', { hasToolCalls: true }); //=> 'tool_use'
 * protocolStopReason('anthropic', 'compaction'); //=> 'unknown'
 * ```
 */
export function protocolStopReason(
  format: TranscriptFormat,
  reason: string,
  options: { readonly hasToolCalls?: boolean } = {},
): ProtocolStopReason {
  const table: Readonly<Record<string, ProtocolStopReason>> = STOP_REASON_TABLE[format];
  const mapped = Object.hasOwn(table, reason) ? table[reason] : undefined;
  if (mapped === undefined) return 'unknown';
  if (
    mapped === 'end_turn' &&
    options.hasToolCalls === true &&
    (format === 'gemini' || format === 'chat' || format === 'langchain')
  ) {
    return 'tool_use';
  }
  return mapped;
}

/**
 * Why a reply's stop reason lets no mutation run: `cut_off` (the output was truncated:
 * `max_tokens`, `length`, `MAX_TOKENS`, `max_output_tokens`, a stop sequence), `filtered` (a
 * refusal or content filter), `failed` (the provider reports an error or a cancelled response),
 * `final` (the reply says it is final, `end_turn` / `stop`, yet holds tool calls), `unknown` (a
 * reason the table does not know, or none sent).
 */
export type UnsafeStopKind = 'cut_off' | 'filtered' | 'failed' | 'final' | 'unknown';

/**
 * Whether the mutating calls of a reply that holds tool calls may run under its stop reason:
 * only when the reason maps to `tool_use` (through {@link protocolStopReason}, so Gemini's
 * `STOP` with calls is `tool_use`). A truncated call can be complete JSON that is not what the
 * model meant; a filtered, failed or contradicting reply is not a request to act.
 *
 * Source: Anthropic "Handling stop reasons" (`max_tokens`, `model_context_window_exceeded`,
 * `refusal`); OpenAI Chat `finish_reason`; OpenAI Responses `status` and
 * `incomplete_details.reason`; AI SDK `finishReason`; Gemini `FinishReason`.
 *
 * @param format - The wire format of the reply.
 * @param reason - The provider's stop reason as it sent it (`undefined`: none sent).
 * @returns `{ runs: true }`, or `{ runs: false, kind, protocol }` with why.
 * @example
 * ```ts
 * import { mutationStopVerdict } from 'turngate/join-check';
 * mutationStopVerdict('openai-chat', 'tool_calls').runs; //=> true
 * mutationStopVerdict('anthropic', 'max_tokens'); //=> { runs: false, kind: 'cut_off', protocol: 'max_tokens' }
 * ```
 */
export function mutationStopVerdict(
  format: TranscriptFormat,
  reason: string | undefined,
):
  | { readonly runs: true }
  | { readonly runs: false; readonly kind: UnsafeStopKind; readonly protocol: ProtocolStopReason } {
  const protocol = reason === undefined ? 'unknown' : protocolStopReason(format, reason, { hasToolCalls: true });
  switch (protocol) {
    case 'tool_use':
      return { runs: true };
    case 'max_tokens':
    case 'stop_sequence':
      return { runs: false, kind: 'cut_off', protocol };
    case 'refusal':
      return { runs: false, kind: 'filtered', protocol };
    case 'error':
      return { runs: false, kind: 'failed', protocol };
    case 'end_turn':
    case 'pause_turn':
      return { runs: false, kind: 'final', protocol };
    default:
      return { runs: false, kind: 'unknown', protocol };
  }
}
