/**
 * A gated tool loop as a durable workflow (`turngate/durable`): the engine-facing interface
 * ({@link DurableEngine}: the workflow id, a recorded step, a durable receive) and
 * `durableToolLoop`, which runs any adapter's `ToolLoop` on it. Bindings: `turngate/durable/dbos`.
 *
 * @module
 */
export type { DurableEngine } from './engine.ts';
export { APPROVALS_TOPIC, DurableLoopError, durableToolLoop, WAITING_EVENT } from './loop.ts';
export type {
  DurableCall,
  DurableLoopOptions,
  DurableLoopResult,
  DurableSession,
  DurableTurn,
} from './loop.ts';
