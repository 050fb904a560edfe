/**
 * `JoinClosed`: the turn closed by the one join check (`closeJoin`).
 *
 * @module
 */
import type { JoinCheckReport } from '../check/types.ts';
import type { JoinCheckInputWire } from '../evidence/index.ts';
import type { Result } from '../failures/index.ts';
import type { NormalizedEvidence } from '../normalize/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { ToolUse } from './record-use.ts';
import type { ToolResult } from './results.ts';
import { check, failed, requestRows, resultRows, useRows } from './rows.ts';
import type { ToolDefinitions } from './tools.ts';

/**
 * A closed turn: every HARNESS-TYPESTATE §5 condition held when the join check ran. Holds the
 * normalized evidence, its digest bundle, the check report and the typed results.
 *
 * @example
 * ```ts
 * import { admitMutation, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * closed.normalized.digests.joinSetDigest; // 'sha256:…'
 * admitMutation(closed, { mutationPolicyDigest: 'pol.mut' });
 * ```
 */
export type JoinClosed<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'JoinClosed',
  {
    readonly use: ToolUse<TTools>;
    readonly report: JoinCheckReport;
    readonly normalized: NormalizedEvidence;
    readonly results: readonly ToolResult<TTools>[];
  }
>;

/**
 * What `closeJoin` needs beyond the tool rows: the protocol state and the context evidence
 * (render rows, reminder queues, state views, handoff, refs), plus optional constraint blocks.
 *
 * @example
 * ```ts
 * import type { CloseContext } from 'turngate';
 * const context: CloseContext = {
 *   protocolState: { stopReason: 'tool_use', continuationAllowed: true },
 *   toolRender: [{ toolCallId: 'tc-1', operatorPayloadDigest: 'sha256:op', reminderRenderDigest: 'sha256:rem', injectionPoint: 'tool_response', policyDigest: 'pol.render' }],
 *   reminderQueue: [{ queueId: 'q', reducedDigest: 'sha256:q', policyDigest: 'pol.queue' }],
 *   stateViews: [{ viewId: 'v', viewDigest: 'sha256:v', policyDigest: 'pol.view' }],
 *   sessionRefs: ['session://1'],
 * };
 * ```
 */
export type CloseContext = Omit<
  JoinCheckInputWire['evidence'],
  'callSpec' | 'toolRequests' | 'toolResults' | 'toolUse'
> &
  Omit<JoinCheckInputWire, 'evidence'>;

/** @internal Throws unless `value` was minted as `state`. */
/**
 * Mints `JoinClosed` when, and only when, the join check accepts the whole turn: every request
 * answered once, no orphan, every result used, no use without a result, a handled stop reason,
 * the context evidence present and policy-valid when the loop continues, and every constraint
 * block satisfied.
 *
 * Failure classes: every class the join check emits (see `joinCheck`), with their ids.
 *
 * Source: HARNESS-TYPESTATE §5.
 *
 * @param use - `ToolUse` from {@link recordUse}.
 * @param context - `protocolState` and the context evidence (`toolRender`, `reminderQueue`,
 *   `stateViews`, `handoff`, `sessionRefs`, `trajectoryRefs`) plus optional constraint blocks.
 * @returns `JoinClosed`, or the report's failures.
 * @throws {@link TypestateError} when `use` was not minted by {@link recordUse}.
 *
 * @example
 * ```ts
 * import { closeJoin, type ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * const closed = closeJoin(use, { protocolState: { stopReason: 'end_turn' }, sessionRefs: ['session://1'], trajectoryRefs: ['trajectory://1/1'] });
 * if (!closed.ok) closed.failures.map((f) => `${f.class} ${f.ids?.join(',') ?? ''}`);
 * ```
 */
export function closeJoin<TTools extends ToolDefinitions>(
  use: ToolUse<TTools>,
  context: CloseContext,
): Result<JoinClosed<TTools>> {
  expectMinted(use, 'ToolUse');
  const {
    governanceProfile,
    protocolConstraints,
    handoffConstraints,
    truncationConstraints,
    decompositionConstraints,
    ...evidence
  } = context;
  const input: JoinCheckInputWire = {
    evidence: {
      ...evidence,
      callSpec: use.results.requests.callSpec.spec,
      toolRequests: requestRows(use.results.requests),
      toolResults: resultRows(use.results),
      toolUse: useRows(use),
    },
  };
  const blocks = {
    governanceProfile,
    protocolConstraints,
    handoffConstraints,
    truncationConstraints,
    decompositionConstraints,
  };
  for (const [key, value] of Object.entries(blocks))
    if (value !== undefined) (input as Record<string, unknown>)[key] = value;
  const checked = check(input);
  if (!checked.ok) return failed([checked.failure]);
  const { report } = checked;
  if (report.result !== 'accepted') return failed([...report.failures]);
  deepFreeze(report);
  return {
    ok: true,
    value: mint('JoinClosed', { use, report, normalized: report.normalized, results: use.results.results }),
  };
}
