/**
 * The tool loop's names shared by every adapter (`turngate/adapters`): the loop's type
 * (`ToolLoop`), its options and handlers, a step's context and record, `answer`'s options, the
 * waiting state of calls that need approval, and `ToolLoopError` with its codes. Each SDK's entry
 * (`turngate/adapters/anthropic`, `/openai-chat`, `/openai-responses`, `/aisdk`, `/gemini`) has its
 * own `toolLoop`, `toolDeclarations` and loop type; these names are the same for all five, so they
 * live once here, and `ToolLoopError` is one class whichever adapter threw it.
 *
 * @module
 */
export { ToolLoopError } from './core/loop.ts';
export type {
  AnswerOptions,
  ApprovalAnswer,
  LoopHandlers,
  LoopStep,
  ReadFailurePolicy,
  RecordedReply,
  StepContext,
  ToolLoop,
  ToolLoopErrorCode,
  ToolLoopOptions,
  WaitingState,
} from './core/loop.ts';
export type { DeclarationOptions } from './core/declarations.ts';
/** Type-level names the loops' signatures use (the inference pass's registry, the handler-name check, the absent session); exported so declaration emit can name them. */
export type { HandlerNamesCheck, NoSessionType, ToolsBeingInferred } from './core/loop.ts';
