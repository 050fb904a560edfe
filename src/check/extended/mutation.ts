/**
 * The extended profile's `MutationReady` decision for a `mutationIntent`. Internal.
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.4, §4.6.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import { checkMutationGate } from '../mutation-gate.ts';
import type { ExtendedContext } from './context.ts';

/**
 * With a `mutationIntent`, the mutation gate over this turn: the active mutation policy, the
 * capability claims, use evidence of every `consumed` row (bound to its `ok` result's digest,
 * naming a `summaryRef`, `handoffRef` or `mutationInputRef`) and the witness linkage (session
 * and trajectory refs). `JoinClosed`, the context, and the gates of a policy change or a transfer
 * are the other checks' part of the same report.
 */
export function checkMutationIntent(ctx: ExtendedContext, out: FailureCollector): void {
  const intent = ctx.x.mutationIntent;
  if (intent === undefined) return;
  checkMutationGate(
    {
      turnMutationPolicyDigest: ctx.n.callSpec.mutationPolicyDigest,
      activeMutationPolicyDigest: intent.activeMutationPolicyDigest,
      requiredCapabilities: intent.requiredCapabilities ?? [],
      capabilityClaims: intent.capabilityClaims ?? [],
      consumed: [...ctx.uses.values()]
        .filter((use) => use.disposition === 'consumed')
        .map((use) => {
          const result = ctx.results.get(use.toolCallId);
          const into = ctx.xUses.get(use.toolCallId);
          return {
            toolCallId: use.toolCallId,
            resultDigest: use.resultDigest,
            heldResultDigest: result?.status === 'ok' ? result.resultDigest : undefined,
            intoRefs: [into?.summaryRef, into?.handoffRef, into?.mutationInputRef],
          };
        }),
      sessionRefs: ctx.n.sessionRefs ?? [],
      trajectoryRefs: ctx.n.trajectoryRefs ?? [],
    },
    out,
  );
}
