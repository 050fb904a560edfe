/**
 * What a durable execution engine gives a turngate workflow: its id, a step whose result is
 * recorded and replayed on recovery, a durable receive, and (optionally) a value published for
 * readers outside the workflow. A binding (`turngate/durable/dbos`)
 * is one small file mapping these to the engine's own calls.
 *
 * @module
 */
import type { JsonValue } from '../canonical/index.ts';

/**
 * The engine a durable tool loop runs on, seen from inside one workflow. Each binding maps it to
 * its engine's calls (DBOS: `DBOS.workflowID`, `DBOS.runStep`, `DBOS.recv`).
 *
 * What the loop relies on: a step that returned has its result recorded, and the workflow,
 * recovered after a crash, gets that result back instead of running the step again; a step that
 * did not return (the process died inside it) runs again (at least once); the workflow calls its
 * steps in the same order on every run; a message sent to the workflow is received once.
 *
 * @example
 * ```ts
 * import type { DurableEngine } from 'turngate/durable';
 * const inMemory = (workflowId: string): DurableEngine => ({
 *   workflowId,
 *   step: async (_name, run) => run(),
 *   receive: async () => undefined,
 * });
 * inMemory('wf-1').workflowId; //=> 'wf-1'
 * ```
 */
export interface DurableEngine {
  /** The workflow's id: stable across recoveries; the loop's session (every effect key is scoped by it). */
  readonly workflowId: string;
  /**
   * Runs `run` as a step named `name` and records what it returned (JSON data); on recovery the
   * recorded result is returned and `run` is not called. A step that threw may be recorded as
   * thrown (DBOS does): the error is thrown again on recovery.
   */
  step<T extends JsonValue>(name: string, run: () => Promise<T>): Promise<T>;
  /**
   * Waits durably for a message on `topic` sent to this workflow: the message, or `undefined`
   * once `timeoutMs` milliseconds passed without one. A message received is not received again.
   */
  receive(topic: string, timeoutMs: number): Promise<unknown>;
  /**
   * Makes `value` readable outside the workflow under `key`, the latest value winning (DBOS:
   * `DBOS.setEvent`): the loop announces the approvals it waits for. Optional: an engine without
   * it announces nothing (the ledger's approval records still hold the requests).
   */
  publish?(key: string, value: JsonValue): Promise<void>;
}
