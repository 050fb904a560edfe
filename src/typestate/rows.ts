/**
 * The evidence rows the transitions hand to the join check, and the failure helpers they share.
 * Internal.
 *
 * @module
 */
import { joinCheck } from '../check/check.ts';
import type { JoinCheckReport } from '../check/types.ts';
import type { EvidenceInput, JoinCheckInputWire } from '../evidence/index.ts';
import type { Failure, FailureClass, Result } from '../failures/index.ts';
import type { ToolDefinitions } from './tools.ts';
import type { AnyToolRequest } from './request-tools.ts';
import type { ToolResults } from './record-results.ts';
import type { ToolUse } from './record-use.ts';

export function fail(failureClass: FailureClass, detail: string, ids?: readonly string[]): Failure {
  return ids === undefined || ids.length === 0
    ? { class: failureClass, detail }
    : { class: failureClass, detail, ids: [...ids].sort() };
}

export function failed<T>(failures: Failure[]): Result<T> {
  return { ok: false, failures };
}

/** Runs the join check over assembled evidence; evidence that is not a turn is `tool.schema_invalid`. */
export function check(
  input: JoinCheckInputWire,
): { ok: true; report: JoinCheckReport } | { ok: false; failure: Failure } {
  const outcome = joinCheck(input);
  return outcome.ok ? outcome : { ok: false, failure: fail('tool.schema_invalid', outcome.error.message) };
}

export const STAGE_PROTOCOL = { stopReason: 'tool_use', continuationAllowed: false } as const;

export function requestRows<TTools extends ToolDefinitions>(requests: {
  readonly requests: readonly AnyToolRequest<TTools>[];
}): EvidenceInput['toolRequests'] {
  return requests.requests.map((r) =>
    r.callerId === undefined
      ? { toolCallId: r.toolCallId, toolName: r.toolName }
      : { toolCallId: r.toolCallId, toolName: r.toolName, callerId: r.callerId },
  );
}

export function resultRows<TTools extends ToolDefinitions>(
  results: ToolResults<TTools>,
): JoinCheckInputWire['evidence']['toolResults'] {
  return results.results.map((r) =>
    r.status === 'ok'
      ? // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
        { toolCallId: r.toolCallId, status: 'ok', payload: r.output as never }
      : {
          toolCallId: r.toolCallId,
          status: 'error',
          errorCode: r.error.errorCode,
          retryable: r.error.retryable,
          errorMessage: r.error.errorMessage,
        },
  );
}

export function useRows<TTools extends ToolDefinitions>(
  use: ToolUse<TTools>,
): JoinCheckInputWire['evidence']['toolUse'] {
  return use.uses.map((u) => {
    const row: Record<string, string> = { toolCallId: u.toolCallId, disposition: u.disposition };
    if (u.resultDigest !== undefined) row['resultDigest'] = u.resultDigest;
    if (u.reasonCode !== undefined) row['reasonCode'] = u.reasonCode;
    // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
    return row as never;
  });
}
