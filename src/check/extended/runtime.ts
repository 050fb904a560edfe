/**
 * Extended checks of the runtime boundary: shell rows carry their boundary evidence and stay
 * inside it, and a compaction artifact is continuity-checked before the turn resumes. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §3 (runtime boundaries, compaction as a typed fallback),
 * §4.1 (`executionBoundaryPolicy`, `runtimeSandboxRef`, `compactionPolicyDigest`), §4.3, §8
 * slices 11-12.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import type { ExtendedContext } from './context.ts';
import { withinAny } from './refs.ts';

/**
 * `runtime.shell_boundary_violation`. A shell-executed result (of a tool in
 * `executionBoundaryPolicy.shellTools`, or any row carrying `shell` evidence) must name its
 * `workdir`, sandbox profile and command digest; run in the CallSpec's `runtimeSandboxRef`; run
 * in an absolute workdir without `.`/`..` segments, inside `allowedWorkdirs` when given; and
 * write no artifacts when the policy names an edit surface (`editTools`). Runs when the CallSpec
 * has an execution boundary policy or a sandbox ref.
 */
export function checkShellBoundary(ctx: ExtendedContext, out: FailureCollector): void {
  const spec = ctx.x.callSpec;
  const policy = spec.executionBoundaryPolicy;
  if (policy === undefined && spec.runtimeSandboxRef === undefined) return;
  const kind = 'runtime.shell_boundary_violation';
  const shellTools = new Set(policy?.shellTools ?? []);
  for (const result of ctx.results.values()) {
    const request = ctx.requests.get(result.toolCallId);
    const x = ctx.xResults.get(result.toolCallId);
    if (!(request !== undefined && shellTools.has(request.toolName)) && x?.shell === undefined) continue;
    const id = [result.toolCallId];
    const shell = x?.shell ?? {};
    const missing = (['workdir', 'sandboxProfile', 'commandDigest'] as const).filter((f) => shell[f] === undefined);
    if (missing.length > 0) {
      out.add(kind, `A shell-executed result lacks boundary evidence (${missing.join(', ')}).`, id);
    }
    if (shell.sandboxProfile !== undefined) {
      if (spec.runtimeSandboxRef === undefined) {
        out.add(kind, 'A shell command ran, but the CallSpec binds no runtimeSandboxRef.', id);
      } else if (shell.sandboxProfile !== spec.runtimeSandboxRef) {
        out.add(kind, `A shell command ran outside the sandbox \`${spec.runtimeSandboxRef}\`.`, id);
      }
    }
    const workdir = shell.workdir;
    if (workdir !== undefined) {
      const allowed = policy?.allowedWorkdirs;
      if (!workdir.startsWith('/') || !withinAny(workdir, allowed ?? ['/'])) {
        out.add(kind, 'A shell command ran in a workdir outside the allowed directories.', id);
      }
    }
    if ((policy?.editTools ?? []).length > 0 && (x?.artifactWrites ?? []).length > 0) {
      out.add(kind, 'A shell command wrote artifacts, but edits must go through the edit surface.', id);
    }
  }
}

/**
 * `runtime.compaction_state_invalid`: a compaction artifact without a compaction policy, bound to another policy digest, missing an
 * item kind the policy requires, or dropping work the turn left pending (a `retry_scheduled`
 * call must be carried as a `tool_call` item with its id as ref).
 */
export function checkCompaction(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'runtime.compaction_state_invalid';
  const computed = ctx.x.digests.compactionPolicyDigest;
  const compaction = ctx.x.compaction;
  if (compaction === undefined) return;
  const id = [compaction.compactionId];
  const policy = ctx.x.callSpec.compactionPolicy;
  if (policy === undefined) {
    out.add(kind, 'A compaction artifact is present, but the CallSpec has no compaction policy.', id);
    return;
  }
  if (compaction.policyDigest !== computed) {
    out.add(kind, "The compaction ran under another policy than the CallSpec's.", id);
  }
  const items = compaction.carriedItems ?? [];
  const kinds = new Set(items.map((item) => item.kind));
  const absentKinds = (policy.requiredItemKinds ?? []).filter((k) => !kinds.has(k));
  if (absentKinds.length > 0) {
    out.add(kind, `The compaction did not carry forward required items (${absentKinds.join(', ')}).`, id);
  }
  const carriedCalls = new Set(items.filter((item) => item.kind === 'tool_call').map((item) => item.ref));
  const dropped = [...ctx.uses.values()]
    .filter((use) => use.disposition === 'retry_scheduled' && !carriedCalls.has(use.toolCallId))
    .map((use) => use.toolCallId);
  if (dropped.length > 0) {
    out.add(kind, 'The compaction dropped tool calls scheduled for retry.', dropped);
  }
}
