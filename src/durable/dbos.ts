/**
 * The DBOS Transact binding of the durable tool loop (`turngate/durable/dbos`): the workflow id
 * is `DBOS.workflowID`, a step is `DBOS.runStep` (its result checkpointed in the system database,
 * returned on recovery), the durable receive is `DBOS.recv`, and approvals are sent with
 * `DBOS.send`. The SDK is an optional peer dependency, imported here for its types only: the
 * caller hands in its `DBOS` class, so one copy of the SDK runs.
 *
 * Source: DBOS Transact TypeScript (`@dbos-inc/dbos-sdk` 5.3), `DBOS.runStep`, `DBOS.recv`, `DBOS.send`.
 *
 * @module
 */
import type { DBOS } from '@dbos-inc/dbos-sdk';
import type { ApprovalAnswer } from '../adapters/internal.ts';
import type { ApprovalRecord } from '../typestate/index.ts';
import type { DurableEngine } from './engine.ts';
import { APPROVALS_TOPIC, WAITING_EVENT } from './loop.ts';

/** The `DBOS` class of `@dbos-inc/dbos-sdk` (the calls the binding makes of it). */
export type DBOSClass = Pick<typeof DBOS, 'workflowID' | 'runStep' | 'recv' | 'send' | 'setEvent' | 'getEvent'>;

/**
 * The engine of the DBOS workflow this is called in, for `durableToolLoop`. Steps are not
 * retried by DBOS (a model call or an answer that threw is recorded as thrown).
 *
 * @param dbos - The SDK's `DBOS` class (`import { DBOS } from '@dbos-inc/dbos-sdk'`).
 * @returns The engine: `DBOS.workflowID`, `DBOS.runStep` by name, `DBOS.recv` with a timeout,
 *   `DBOS.setEvent` to publish.
 * @throws TypeError outside a DBOS workflow (no `DBOS.workflowID`).
 * @example
 * ```ts
 * import { DBOS } from '@dbos-inc/dbos-sdk';
 * import { dbosEngine } from 'turngate/durable/dbos';
 * const agent = DBOS.registerWorkflow(async () => dbosEngine(DBOS).workflowId, { name: 'agent' });
 * ```
 */
export function dbosEngine(dbos: DBOSClass): DurableEngine {
  const workflowId = dbos.workflowID;
  if (typeof workflowId !== 'string' || workflowId === '')
    throw new TypeError('dbosEngine: DBOS.workflowID: expected to be called inside a DBOS workflow, got none');
  return {
    workflowId,
    step: (name, run) => dbos.runStep(run, { name }),
    receive: async (topic, timeoutMs) =>
      (await dbos.recv(topic, { timeoutSeconds: Math.max(timeoutMs / 1000, 0.001) })) ?? undefined,
    publish: (key, value) => dbos.setEvent(key, value),
  };
}

/**
 * Sends approval decisions to a workflow waiting in `durableToolLoop`: it records them with the
 * loop's `resume` (the ledger's approval rules decide) and goes on. Call it from anywhere DBOS is
 * launched (a workflow, a request handler). A decision naming no call the workflow waits for is
 * ignored.
 *
 * @param dbos - The SDK's `DBOS` class.
 * @param workflowId - The waiting workflow.
 * @param decisions - One per call decided (`toolCallId` from the waiting step's approvals).
 * @param idempotencyKey - Sends once per key (`DBOS.send`'s): a retried send is not a second message.
 * @example
 * ```ts
 * import { DBOS } from '@dbos-inc/dbos-sdk';
 * import { sendApprovals } from 'turngate/durable/dbos';
 * await sendApprovals(DBOS, 'wf-1', [{ toolCallId: 'toolu_2', verdict: 'approve', reason: 'ok', decidedBy: 'ada' }]);
 * ```
 */
export function sendApprovals(
  dbos: DBOSClass,
  workflowId: string,
  decisions: readonly ApprovalAnswer[],
  idempotencyKey?: string,
): Promise<void> {
  return dbos.send(workflowId, decisions, APPROVALS_TOPIC, idempotencyKey);
}

/**
 * The approval requests a workflow waits for (as `durableToolLoop` published them): each names
 * the `toolCallId` to decide, the tool, its input's digest and the `requestDigest` the person
 * decides on. `[]` when it waits for none; `undefined` when it published nothing within
 * `timeoutMs` (it has not waited yet).
 *
 * @param dbos - The SDK's `DBOS` class.
 * @param workflowId - The workflow.
 * @param timeoutMs - How long to wait for a first value, in milliseconds (default 0: read it now).
 * @example
 * ```ts
 * import { DBOS } from '@dbos-inc/dbos-sdk';
 * import { waitingApprovals } from 'turngate/durable/dbos';
 * const requests = await waitingApprovals(DBOS, 'wf-1', 5_000);
 * requests?.map((r) => `${r.toolName}: ${r.reason}`);
 * ```
 */
export async function waitingApprovals(
  dbos: DBOSClass,
  workflowId: string,
  timeoutMs = 0,
): Promise<ApprovalRecord[] | undefined> {
  const value = await dbos.getEvent<ApprovalRecord[]>(workflowId, WAITING_EVENT, {
    timeoutSeconds: Math.max(timeoutMs / 1000, 0.001),
  });
  return value ?? undefined;
}
