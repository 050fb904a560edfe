/** A closed turn under the extended profile, and a checker that returns its report, for the extended checks' tests. */
import type { Failure } from '../src/index.ts';
import { joinCheck, type JoinCheckReport } from '../src/join-check.ts';
import { callSpec } from './arbitraries.ts';

export const PROFILE = 'turngate.harness.extended.v1';

type Row = Record<string, unknown>;

/**
 * A closed code-mode turn: one request, result (ok), `observed` use and render row per id, with
 * the context evidence premath needs, the given extended CallSpec fields, and `extra` evidence.
 */
export function turn(ids: readonly string[], spec: Row = {}, extra: Row = {}): Row {
  return {
    callSpec: { ...callSpec, ...spec },
    toolRequests: ids.map((id) => ({ toolCallId: id, toolName: `tool.${id}` })),
    toolResults: ids.map((id) => ({ toolCallId: id, status: 'ok', resultDigest: `sha256:r-${id}` })),
    toolUse: ids.map((id) => ({ toolCallId: id, disposition: 'observed' })),
    protocolState: { stopReason: 'tool_use', continuationAllowed: true },
    toolRender: ids.map((id) => ({
      toolCallId: id,
      operatorPayloadDigest: `sha256:op-${id}`,
      reminderRenderDigest: `sha256:rem-${id}`,
      injectionPoint: 'tool_response',
      policyDigest: callSpec.toolRenderProtocolDigest,
    })),
    reminderQueue: [{ queueId: 'q', reducedDigest: 'sha256:q', policyDigest: callSpec.reminderQueuePolicyDigest }],
    stateViews: [{ viewId: 'v', viewDigest: 'sha256:v', policyDigest: callSpec.stateViewPolicyDigest }],
    ...extra,
  };
}

/** Returns `rows` with the row of `toolCallId` merged with `fields` (a field set to `undefined` is removed). */
export function patch(rows: unknown, toolCallId: string, fields: Row): Row[] {
  return (rows as Row[]).map((row) => {
    if (row['toolCallId'] !== toolCallId) return row;
    const out: Row = { ...row, ...fields };
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete out[key];
    return out;
  });
}

/** Runs the join check under the extended profile; an input error fails the test. */
export function check(evidence: Row, blocks: Row = {}): JoinCheckReport {
  const outcome = joinCheck({ profile: PROFILE, evidence, ...blocks });
  if (!outcome.ok) throw new Error(`unexpected input error: ${outcome.failures[0]?.message}`);
  return outcome.value;
}

/** The failure of one class in a report, or `undefined`. */
export function failure(report: JoinCheckReport, failureClass: Failure['class']): Failure | undefined {
  return report.failures.find((f) => f.class === failureClass);
}
