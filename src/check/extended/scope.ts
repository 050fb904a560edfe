/**
 * Extended checks across orchestrator/specialist boundaries: the role's context scope, and
 * transfers (fan-out and fan-in) against the handoff contract. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §3 (typed handoff contracts, role-scoped context),
 * §4.1 (`orchestrationRole`, `contextScopeDigest`, `handoffContractDigest`), §4.3 (artifact
 * writes bound to role ownership), §4.5, §4.6, §8 slices 12, 17-18.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import type { NormalizedExtendedCallSpec, NormalizedTransfer } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';
import { withinAny } from './refs.ts';

/**
 * `context.scope_violation`: under a `contextScope`, a scope for another role than
 * `orchestrationRole`; a context input (a state view's source ref or a `contextReads` ref)
 * outside `readRefs`; an artifact written outside `writeRefs`. Refs are within a scope entry when equal to it or below it at a `/` boundary.
 */
export function checkRoleScope(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'context.scope_violation';
  const spec = ctx.x.callSpec;
  const scope = spec.contextScope;
  if (scope === undefined) return;
  if (scope.role !== undefined && scope.role !== spec.orchestrationRole) {
    out.add(
      kind,
      `The context scope is for the ${scope.role} role, but the turn runs as ${spec.orchestrationRole ?? 'no role'}.`,
    );
  }
  const reads = new Set([
    ...(ctx.n.stateViews ?? []).flatMap((view) => view.sourceRefs ?? []),
    ...(ctx.x.contextReads ?? []),
  ]);
  const outside = [...reads].filter((ref) => !withinAny(ref, scope.readRefs ?? []));
  if (outside.length > 0) out.add(kind, 'The role read context outside its scope.', outside);
  const writes = [...ctx.xResults.values()].flatMap((row) => (row.artifactWrites ?? []).map((w) => w.path));
  const outsideWrites = writes.filter((path) => !withinAny(path, scope.writeRefs ?? []));
  if (outsideWrites.length > 0) out.add(kind, 'The role wrote artifacts outside its scope.', outsideWrites);
}

/**
 * The handoff contract at each transfer boundary. Outgoing transfers (`transfers[]` with
 * `fan_out`, and premath's `handoff` packet, id `handoff`): `handoff.target_not_allowed` (a
 * target outside `allowedTargets`, a role outside `allowedRoles`, transfers without a contract),
 * `handoff.required_artifact_missing`
 * (an artifact of `requiredArtifactRefs` not sent: the transfer is blocked),
 * `handoff.return_path_missing`. Returning transfers (`fan_in`): `handoff.target_not_allowed`
 * (back from another agent than the one sent to), `handoff.required_artifact_missing` (an
 * artifact of `returnArtifactRefs` not brought back). The fan-out/fan-in join:
 * `tool.join_incomplete` for a fan-in answering no fan-out, and for a fan-out left unanswered
 * when the turn does not continue.
 */
export function checkTransfers(ctx: ExtendedContext, out: FailureCollector): void {
  const spec = ctx.x.callSpec;
  const transfers = ctx.x.transfers ?? [];
  const fanOut = transfers.filter((t) => t.direction === 'fan_out');
  const packet = ctx.n.handoff;
  const outgoing: NormalizedTransfer[] =
    packet === undefined
      ? fanOut
      : [
          {
            transferId: 'handoff',
            direction: 'fan_out',
            target: packet.target,
            ...(packet.requiredArtifactRefs === undefined ? {} : { artifactRefs: packet.requiredArtifactRefs }),
            ...(packet.returnPathRef === undefined ? {} : { returnPathRef: packet.returnPathRef }),
          },
          ...fanOut,
        ];
  if (spec.handoffContract === undefined) {
    if (transfers.length > 0) {
      out.add(
        'handoff.target_not_allowed',
        'Transfers cross agent boundaries, but the CallSpec binds no handoff contract.',
        transfers.map((t) => t.transferId),
      );
    }
  } else {
    checkOutgoing(outgoing, spec.handoffContract, spec.orchestrationRole, out);
  }
  const answered = checkReturns(transfers, fanOut, spec.handoffContract, out);
  const open = fanOut.filter((t) => !answered.has(t.transferId)).map((t) => t.transferId);
  if (open.length > 0 && !ctx.n.protocolState.continuationAllowed) {
    out.add('tool.join_incomplete', 'The turn ends with outgoing transfers no fan-in answered.', open);
  }
}

type HandoffContract = NonNullable<NormalizedExtendedCallSpec['handoffContract']>;

/** Each outgoing transfer against the contract: its target, the sending role, the artifacts sent, the return path. */
function checkOutgoing(
  outgoing: readonly NormalizedTransfer[],
  contract: HandoffContract,
  role: NormalizedExtendedCallSpec['orchestrationRole'],
  out: FailureCollector,
): void {
  for (const t of outgoing) {
    const id = [t.transferId];
    if (contract.allowedTargets !== undefined && !contract.allowedTargets.includes(t.target)) {
      out.add(
        'handoff.target_not_allowed',
        `Transfer target \`${t.target}\` is not allowed by the handoff contract.`,
        id,
      );
    }
    if (contract.allowedRoles !== undefined && (role === undefined || !contract.allowedRoles.includes(role))) {
      out.add(
        'handoff.target_not_allowed',
        `The ${role ?? 'unnamed'} role may not transfer under the handoff contract.`,
        id,
      );
    }
    const sent = new Set(t.artifactRefs ?? []);
    if ((contract.requiredArtifactRefs ?? []).some((ref) => !sent.has(ref))) {
      out.add('handoff.required_artifact_missing', 'A transfer lacks artifacts the handoff contract requires.', id);
    }
    if (contract.requireReturnPath && t.returnPathRef === undefined) {
      out.add(
        'handoff.return_path_missing',
        'A transfer names no return path, which the handoff contract requires.',
        id,
      );
    }
  }
}

/**
 * Each returning transfer (`fan_in`) against the fan-out it answers: it answers one, comes back
 * from the agent it was sent to, and brings back the contract's `returnArtifactRefs`. Returns the
 * ids of the fan-outs answered.
 */
function checkReturns(
  transfers: readonly NormalizedTransfer[],
  fanOut: readonly NormalizedTransfer[],
  contract: HandoffContract | undefined,
  out: FailureCollector,
): Set<string> {
  const byId = new Map(fanOut.map((t) => [t.transferId, t]));
  const answered = new Set<string>();
  for (const t of transfers.filter((row) => row.direction === 'fan_in')) {
    const id = [t.transferId];
    const origin = t.answersTransferId === undefined ? undefined : byId.get(t.answersTransferId);
    if (origin === undefined) {
      out.add('tool.join_incomplete', 'A returning transfer answers no outgoing transfer of the turn.', id);
      continue;
    }
    answered.add(origin.transferId);
    if (origin.target !== t.target) {
      out.add('handoff.target_not_allowed', 'A transfer came back from another agent than it was sent to.', id);
    }
    const brought = new Set(t.artifactRefs ?? []);
    if ((contract?.returnArtifactRefs ?? []).some((ref) => !brought.has(ref))) {
      out.add(
        'handoff.required_artifact_missing',
        'A returning transfer lacks artifacts the handoff contract requires back.',
        id,
      );
    }
  }
  return answered;
}
