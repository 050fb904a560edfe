/**
 * The extended profile's checks, run after premath's on the same failure collector. Each check
 * is a named function in this folder, over the normalized evidence, and runs only when the
 * CallSpec configures what it checks. Internal; reached through `joinCheck`.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.2-4.6, §7, §8 (slices 4-18).
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import type { ExtendedContext } from './context.ts';
import { checkPolicyDigests } from './digests.ts';
import {
  checkEvalGate,
  checkGuardrailStages,
  checkProvenanceBinding,
  checkRedTeamGate,
  checkRiskTier,
  checkSelfEvolution,
  checkTraceMode,
} from './governance.ts';
import { checkMutationIntent } from './mutation.ts';
import { checkExecutionPattern } from './pattern.ts';
import { checkCompaction, checkShellBoundary } from './runtime.ts';
import { checkRoleScope, checkTransfers } from './scope.ts';
import { checkCallers, checkDiscovery, checkExamples, checkToolPolicy } from './tools.ts';
import { checkBranches, checkProtocolStatePolicy, checkTransportOrder, checkTruncation } from './transport.ts';
import { checkUseReferences } from './use.ts';

export { extendedContext, type ExtendedContext } from './context.ts';

/** Runs every extended check over one turn. */
export function checkExtended(ctx: ExtendedContext, out: FailureCollector): void {
  checkPolicyDigests(ctx, out);
  checkToolPolicy(ctx, out);
  checkDiscovery(ctx, out);
  checkExamples(ctx, out);
  checkCallers(ctx, out);
  checkBranches(ctx, out);
  checkTransportOrder(ctx, out);
  checkTruncation(ctx, out);
  checkProtocolStatePolicy(ctx, out);
  checkExecutionPattern(ctx, out);
  checkUseReferences(ctx, out);
  checkShellBoundary(ctx, out);
  checkCompaction(ctx, out);
  checkGuardrailStages(ctx, out);
  checkProvenanceBinding(ctx, out);
  checkEvalGate(ctx, out);
  checkRedTeamGate(ctx, out);
  checkSelfEvolution(ctx, out);
  checkTraceMode(ctx, out);
  checkRiskTier(ctx, out);
  checkRoleScope(ctx, out);
  checkTransfers(ctx, out);
  checkMutationIntent(ctx, out);
}
