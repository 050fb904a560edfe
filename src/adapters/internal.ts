/**
 * What the layers above the adapters use of the tool loop every adapter shares (its types, and
 * how a refused transcript check reads): the durable loop (`durable/`) drives any adapter's
 * `ToolLoop`. Not a public entry point.
 *
 * @module
 */
export type {
  ApprovalAnswer,
  LoopStep,
  RecordedReply,
  ToolLoop,
  WaitingState,
} from './core/loop.ts';
export { refusal, refusalText } from './core/step-check.ts';
