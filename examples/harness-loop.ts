/**
 * A long-running harness loop over a small file-backed task list, with the Tusk harness:
 *
 * - the task list is a feature ledger (`.premath/harness_feature_ledger.json`) of three tasks,
 *   each writing one file of the workspace;
 * - `boot` runs the startup verification (the task list passes its check);
 * - each step claims the next task (the ledger's rule: the in-progress task first, else the
 *   smallest pending one), verifies before, runs a scripted model turn that reads the file and
 *   proposes its new text, closes the turn, and writes the file only through `MutationReady`
 *   (`ctx.mutate`), then verifies the file after; one trajectory row per step;
 * - `stop` leaves a stopped handoff session for the next fresh-context run.
 *
 * Run with `--crash-in-step 2`, the process kills itself (SIGKILL) in the middle of the second
 * task. The next run finds the session still active, attaches, and resumes that task from the
 * files: the session, the ledger and the trajectory.
 *
 *   npm run example:harness-loop    # bundles this file, crashes one run, resumes it
 *
 * The test suite runs it the same way (test/examples.test.ts).
 */
import * as v from 'valibot';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { admitMutation, callSpec, closeJoin, defineTools, requestTools, settle, useAll } from 'turngate';
import { digestText } from 'turngate/canonical';
import {
  checkFeatureLedger,
  parseRetryPolicy,
  readFeatureLedger,
  runHarness,
  writeFeature,
  type HarnessStepContext,
  type WorkItem,
} from 'turngate/tusk';

/** The three tasks: which file each one writes, and with what. */
const TASKS: Record<string, { readonly path: string; readonly text: string }> = {
  changelog: { path: 'CHANGELOG.md', text: '# Changelog\n\n## 0.2.0\n- Harness loop example.\n' },
  readme: { path: 'README.md', text: '# demo\n\nSee CHANGELOG.md.\n' },
  version: { path: 'VERSION', text: '0.2.0\n' },
};

const MUTATION_POLICY = 'pol.workspace-write.v1';
const tools = defineTools({
  'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
});

/** A scripted model turn: read the file, consume the result into the write; closed and admitted. */
async function proposeWrite(
  workdir: string,
  item: WorkItem<{ path: string; text: string }>,
  ctx: HarnessStepContext<unknown>,
) {
  const spec = callSpec({
    callId: `demo/${ctx.stepId}`,
    modelRef: 'scripted/model',
    actionMode: 'json',
    executionPattern: 'single',
    normalizerId: 'nf.v1',
    mutationPolicyDigest: MUTATION_POLICY,
    governancePolicyDigest: 'pol.gov.v1',
    toolRenderProtocolDigest: 'pol.render.v1',
    reminderQueuePolicyDigest: 'pol.queue.v1',
    stateViewPolicyDigest: 'pol.view.v1',
    decompositionPolicyDigest: 'pol.decomp.v1',
  });
  if (!spec.ok) throw new Error(spec.failures[0]?.detail);
  const requests = requestTools(spec.value, tools, [
    { toolCallId: 'read-1', toolName: 'fs.read', input: { path: item.target.path } },
  ]);
  if (!requests.ok) throw new Error(requests.failures[0]?.detail);
  const file = join(workdir, item.target.path);
  const results = await settle(requests.value, {
    'fs.read': () => ({ text: existsSync(file) ? readFileSync(file, 'utf8') : '' }),
  });
  if (!results.ok) throw new Error(results.failures[0]?.detail);
  const use = useAll(results.value, () => ({
    disposition: 'consumed',
    // The write this read is consumed into: the only mutation the admitted turn may run.
    evidence: { mutationInputRef: `mutation://fs/${item.target.path}`, mutationInput: { path: item.target.path } },
  }));
  if (!use.ok) throw new Error(use.failures[0]?.detail);
  const closed = closeJoin(use.value, {
    protocolState: { stopReason: 'end_turn', continuationAllowed: false },
    toolRender: [
      {
        toolCallId: 'read-1',
        operatorPayloadDigest: 'op:read-1',
        reminderRenderDigest: 'rem:read-1',
        injectionPoint: 'tool_response',
        policyDigest: 'pol.render.v1',
      },
    ],
    reminderQueue: [{ queueId: 'reminders', reducedDigest: 'sha256:none', policyDigest: 'pol.queue.v1' }],
    stateViews: [{ viewId: 'workspace', viewDigest: 'sha256:workspace', policyDigest: 'pol.view.v1' }],
    ...ctx.turnRefs,
  });
  if (!closed.ok) throw new Error(closed.failures.map((f) => f.class).join(', '));
  const ready = admitMutation(closed.value, { mutationPolicyDigest: MUTATION_POLICY });
  if (!ready.ok) throw new Error(ready.failures.map((f) => f.class).join(', '));
  return ready.value;
}

/** Seeds the workspace's task list on the first run. */
async function seed(ledgerPath: string): Promise<void> {
  if ((await readFeatureLedger(ledgerPath)) !== undefined) return;
  for (const featureId of Object.keys(TASKS))
    await writeFeature(ledgerPath, { featureId, status: 'pending', summary: `write ${TASKS[featureId]?.path}` });
}

/**
 * Runs the loop in `workdir` and returns what it logged (no timestamps, so runs compare).
 *
 * @param workdir - The workspace (created when missing).
 * @param options - The retry policy file, and the step in which to kill the process (a real crash).
 */
export async function runHarnessLoopExample(
  workdir: string,
  options: { readonly policyPath?: string; readonly crashInStep?: number; readonly log?: (line: string) => void } = {},
): Promise<string[]> {
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    options.log?.(line);
  };
  const premath = join(workdir, '.premath');
  mkdirSync(premath, { recursive: true });
  const ledgerPath = join(premath, 'harness_feature_ledger.json');
  await seed(ledgerPath);
  const policyPath = options.policyPath ?? fileURLToPath(new URL('./harness/retry-policy.json', import.meta.url));
  let steps = 0;

  const result = await runHarness<{ path: string; text: string }>({
    sessionPath: join(premath, 'harness_session.json'),
    trajectoryPath: join(premath, 'harness_trajectory.jsonl'),
    featureLedgerPath: ledgerPath,
    workspace: workdir,
    workerId: 'worker-1',
    policy: parseRetryPolicy(readFileSync(policyPath)),
    boot: async (ctx) => {
      const b = ctx.bootstrap;
      const where =
        b === undefined
          ? 'no session yet'
          : b.mode === 'attach'
            ? `${b.resumeIssueId} was in flight when the last run stopped`
            : `last run: ${b.summary}`;
      log(
        `boot: ${ctx.mode} (${where}); ${b?.featureClosureComplete ? 'every task is done' : `next task: ${b?.nextFeatureId ?? 'from the task list'}`}`,
      );
      const ledger = await readFeatureLedger(ledgerPath);
      const check = ledger === undefined ? undefined : checkFeatureLedger(ledger);
      return check?.result === 'accepted'
        ? { ok: true, witnessRefs: [`ledger://${ledger?.updatedAt}`] }
        : {
            ok: false,
            failureClasses: check?.failureClasses ?? ['check_failed'],
            detail: 'the task list does not pass its check',
          };
    },
    step: {
      claim: async (ctx) => {
        const ledger = await readFeatureLedger(ledgerPath);
        const next = ledger === undefined ? null : checkFeatureLedger(ledger).nextFeatureId;
        const task = next === null ? undefined : TASKS[next];
        if (next === null || task === undefined || ctx.finished.has(next)) return undefined;
        await writeFeature(ledgerPath, { featureId: next, status: 'in_progress' });
        return { id: next, target: task, action: 'workspace.write' };
      },
      verifyBefore: (item) =>
        existsSync(workdir)
          ? { ok: true }
          : { ok: false, failureClasses: ['check_failed'], detail: `${item.id}: no workspace` },
      run: async (item, ctx) => {
        steps++;
        const ready = await proposeWrite(workdir, item, ctx);
        if (options.crashInStep === steps) process.kill(process.pid, 'SIGKILL');
        await ctx.mutate(
          ready,
          { action: 'fs.write', args: { path: item.target.path }, instructionRef: `instructions/${item.id}.json` },
          () => {
            writeFileSync(join(workdir, item.target.path), item.target.text);
            return { bytes: Buffer.byteLength(item.target.text) };
          },
        );
      },
      verifyAfter: (item) => {
        const file = join(workdir, item.target.path);
        const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
        return text === item.target.text
          ? { ok: true, witnessRefs: [`file://${item.target.path}#${digestText(text)}`] }
          : { ok: false, failureClasses: ['check_failed'], detail: `${item.target.path} does not hold the new text` };
      },
      finish: async (item, outcome) => {
        await writeFeature(ledgerPath, {
          featureId: item.id,
          status: outcome.status === 'completed' ? 'completed' : 'blocked',
          verificationRefs: outcome.witnessRefs.filter((ref) => ref.startsWith('file://')),
        });
        log(`step: ${item.id} ${outcome.status} (${outcome.row.stepId}, ${outcome.row.resultClass})`);
      },
    },
  });
  log(`stop: ${result.stopReason}; session ${result.session.state}; next step: ${result.session.nextStep ?? 'none'}`);
  return lines;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [workdir, ...flags] = process.argv.slice(2);
  if (workdir === undefined) {
    process.stderr.write('usage: harness-loop <workdir> [--policy <file>] [--crash-in-step <n>]\n');
    process.exit(2);
  }
  const flag = (name: string) => {
    const index = flags.indexOf(name);
    return index === -1 ? undefined : flags[index + 1];
  };
  const crash = flag('--crash-in-step');
  const policy = flag('--policy');
  await runHarnessLoopExample(workdir, {
    log: (line) => process.stdout.write(`${line}\n`),
    ...(crash === undefined ? {} : { crashInStep: Number(crash) }),
    ...(policy === undefined ? {} : { policyPath: policy }),
  });
}
