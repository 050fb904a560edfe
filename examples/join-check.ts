/**
 * The API tour (docs/guide/join-check.md): check one turn in code, read the verdict, print premath's report.
 * Run after `npm run build`: node --experimental-strip-types is not on Node 20, so this file is
 * typechecked by the test command (TypeScript 6 and 7) rather than run.
 */
import type { FailureClass } from 'turngate';
import { joinCheck, renderJoinCheckJson } from 'turngate/join-check';

const outcome = joinCheck({
  evidence: {
    callSpec: {
      callId: 'turn-1',
      modelRef: 'claude-sonnet-4-5',
      actionMode: 'json',
      executionPattern: 'single',
      normalizerId: 'nf.v1',
      mutationPolicyDigest: 'pol.mut.v1',
      governancePolicyDigest: 'pol.gov.v1',
      toolRenderProtocolDigest: 'pol.render.v1',
      reminderQueuePolicyDigest: 'pol.queue.v1',
      stateViewPolicyDigest: 'pol.view.v1',
      decompositionPolicyDigest: 'pol.decomp.v1',
    },
    toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
    toolResults: [{ toolCallId: 'tc-1', status: 'ok', payload: { bytes: 18233 } }],
    toolUse: [{ toolCallId: 'tc-1', disposition: 'observed' }],
    protocolState: { stopReason: 'end_turn', continuationAllowed: false },
  },
});

if (!outcome.ok) {
  // Not a well-formed turn: outcome.error.field names the field.
  throw outcome.failures[0];
}
const { value: report } = outcome;
const classes: readonly FailureClass[] = report.failureClasses;
for (const failure of report.failures) console.log(failure.class, failure.ids ?? []);
console.log(report.result, classes.length, report.witness.digests.joinSetDigest);
process.stdout.write(renderJoinCheckJson(report));
