/**
 * Extended checks of the execution pattern: a known pattern, the stop policy's iteration bound
 * and human checkpoints, and the measurable trigger an agentic pattern needs. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §3 (workflow first, agentic when measured), §4.1
 * (`executionPattern`, `stopPolicy`, `evalProfileRef`, `decompositionPolicyDigest`), §8 slices 7-8.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import { EXECUTION_PATTERNS } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';

/** The patterns in which the model directs its own loop: allowed only with a bound and a measured reason. */
const AGENTIC_PATTERNS: readonly string[] = ['orchestrator_workers', 'evaluator_optimizer'];

/**
 * `coordination.decomposition_policy_violation`: an execution pattern outside the six of §4.1;
 * a loop past `stopPolicy.maxIterations` (this turn is later than the bound, or is the last
 * iteration and may continue) or with no `loopState` to judge the bound by; a continuing loop
 * without the human checkpoint `stopPolicy.checkpointRequired` asks for; an agentic pattern
 * (`orchestrator_workers`, `evaluator_optimizer`) without an iteration bound or without the
 * `evalProfileRef` that measured its benefit.
 */
export function checkExecutionPattern(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'coordination.decomposition_policy_violation';
  const pattern = ctx.n.callSpec.executionPattern;
  const spec = ctx.x.callSpec;
  if (!(EXECUTION_PATTERNS as readonly string[]).includes(pattern)) {
    out.add(kind, `Execution pattern \`${pattern}\` is not one of ${EXECUTION_PATTERNS.join(', ')}.`);
  }
  const stop = spec.stopPolicy;
  const loop = ctx.x.loopState;
  const continuing = ctx.n.protocolState.continuationAllowed;
  if (stop?.maxIterations !== undefined) {
    if (loop === undefined) {
      out.add(kind, 'The stop policy bounds the loop but the turn has no loopState to judge it by.');
    } else if (loop.iteration > stop.maxIterations || (loop.iteration === stop.maxIterations && continuing)) {
      out.add(
        kind,
        `Iteration ${loop.iteration} ${continuing ? 'may continue' : 'runs'} past the stop policy's ${stop.maxIterations} iterations.`,
      );
    }
  }
  if (stop?.checkpointRequired === true && continuing && (loop?.checkpointRefs ?? []).length === 0) {
    out.add(kind, 'The stop policy requires a human checkpoint before the loop continues, and there is none.');
  }
  if (AGENTIC_PATTERNS.includes(pattern)) {
    if (stop?.maxIterations === undefined) {
      out.add(kind, `The agentic pattern \`${pattern}\` runs without a stop policy bounding its iterations.`);
    }
    if (spec.evalProfileRef === undefined) {
      out.add(kind, `The agentic pattern \`${pattern}\` has no evalProfileRef measuring why it beats a workflow.`);
    }
  }
}
