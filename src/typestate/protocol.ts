/**
 * The protocol state a turn closes with, typed per provider through the one stop-reason table
 * (`src/check/stop-reasons.ts`).
 *
 * @module
 */
import { asciiLowercase, trimWhiteSpace, isBlank } from '../canonical/index.ts';
import {
  protocolStopReason,
  TRANSCRIPT_FORMATS,
  type ProtocolStopReason,
  type StopReasonOf,
  type TranscriptFormat,
} from '../check/index.ts';
import type { Result } from '../failures/index.ts';

/**
 * A provider's stop reason, typed by its wire format: `{ format: 'openai-chat', stopReason:
 * 'tool_calls' }` type-checks, `stopReason: 'tool_call'` does not.
 *
 * @example
 * ```ts
 * import type { ProviderStopReason } from 'turngate/types';
 * const stop: ProviderStopReason = { format: 'aisdk', stopReason: 'tool-calls' };
 * ```
 */
export type ProviderStopReason = {
  [TFormat in TranscriptFormat]: {
    /** The wire format the stop reason comes from. */
    readonly format: TFormat;
    /** The provider's stop reason, as it sent it. */
    readonly stopReason: StopReasonOf<TFormat>;
    /** Whether the agent loop continues after this turn; default: the stop reason is `tool_use` or `pause_turn`. */
    readonly continuationAllowed?: boolean;
  };
}[TranscriptFormat];

/**
 * The protocol state of a turn: a stop reason the protocol policy names (`end_turn`,
 * `tool_use`, `pause_turn`, `max_tokens`, or an unhandled one such as `refusal`), or a
 * provider's stop reason with its format, mapped through `STOP_REASON_TABLE`. A stop reason the
 * policy does not handle closes nothing: the join check fails it with
 * `protocol.stop_reason_unhandled`.
 *
 * `continuationAllowed` defaults to whether the (mapped) stop reason is `tool_use` or
 * `pause_turn`: the model stopped to have its tool calls answered, so the loop continues.
 *
 * Source: HARNESS-TYPESTATE §3.2 (protocol state), §5; TOOL-CALLING-HARNESS-TYPESTATE §4.1
 * (`protocolStatePolicy`).
 *
 * @example
 * ```ts
 * import type { TurnProtocolState } from 'turngate/types';
 * const states: TurnProtocolState[] = [
 *   { stopReason: 'end_turn' },
 *   { format: 'anthropic', stopReason: 'tool_use' },
 *   { format: 'openai-chat', stopReason: 'tool_calls', continuationAllowed: true },
 * ];
 * ```
 */
export type TurnProtocolState =
  | {
      /** Absent: `stopReason` is the protocol's own. */
      readonly format?: undefined;
      /** The protocol stop reason. */
      readonly stopReason: ProtocolStopReason;
      /** Whether the agent loop continues after this turn; default: the stop reason is `tool_use` or `pause_turn`. */
      readonly continuationAllowed?: boolean;
    }
  | ProviderStopReason;

/** The protocol state as evidence: `{ stopReason, continuationAllowed }`. */
export interface ResolvedProtocolState {
  readonly stopReason: string;
  readonly continuationAllowed: boolean;
}

/**
 * Resolves a (snapshotted) protocol state input: maps a provider's stop reason through the one
 * table (`hasToolCalls` tells Gemini's and chat's `STOP` apart), defaults `continuationAllowed`,
 * and without any input takes the chat rule: tool calls in the turn mean `tool_use`, none
 * `end_turn`. A malformed input fails with one problem sentence. Internal.
 */
export function resolveProtocolState(input: unknown, hasToolCalls: boolean): Result<ResolvedProtocolState, string> {
  if (input === undefined) {
    const stopReason = protocolStopReason('chat', hasToolCalls ? 'tool_use' : 'end_turn');
    return { ok: true, value: { stopReason, continuationAllowed: continues(stopReason) } };
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, failures: ['protocolState: expected an object { stopReason, format?, continuationAllowed? }'] };
  }
  const { format, stopReason, continuationAllowed } = input as Record<string, unknown>;
  if (typeof stopReason !== 'string' || isBlank(stopReason)) {
    return { ok: false, failures: ['protocolState.stopReason: expected a non-blank string'] };
  }
  if (continuationAllowed !== undefined && typeof continuationAllowed !== 'boolean') {
    return { ok: false, failures: ['protocolState.continuationAllowed: expected true or false'] };
  }
  let mapped: string;
  if (format === undefined) {
    mapped = asciiLowercase(trimWhiteSpace(stopReason));
  } else if (typeof format === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
    mapped = protocolStopReason(format as TranscriptFormat, stopReason, { hasToolCalls });
  } else {
    return { ok: false, failures: [`protocolState.format: expected one of ${TRANSCRIPT_FORMATS.join(', ')}`] };
  }
  return { ok: true, value: { stopReason: mapped, continuationAllowed: continuationAllowed ?? continues(mapped) } };
}

function continues(stopReason: string): boolean {
  return stopReason === 'tool_use' || stopReason === 'pause_turn';
}
