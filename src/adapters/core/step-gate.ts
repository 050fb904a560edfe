/**
 * What keeps a turn's mutating calls from running in the tool loop, beyond the join check: an
 * aborted step, a stop reason under which no mutation runs, a call the SDK refused, a failed
 * read; the truthful "not run" answers; and the handlers the builder runs, each given its step
 * context with the step's `AbortSignal` honoured. Internal.
 *
 * @module
 */
import { mutationStopVerdict, type UnsafeStopKind } from '../../check/index.ts';
import type { Failure } from '../../failures/index.ts';
import type { ToolDefinitions, ToolRegistry, ToolResult } from '../../typestate/index.ts';
import { isPendingMutation, ownError, registryDefinitions } from '../../typestate/internal.ts';
import { handlerOf } from '../../builder/internal.ts';
import type { ReadReply } from './codec.ts';
import type { LoopContext, StepContext } from './loop-types.ts';

/** The truthful "not run" text of a mutation the loop kept from running, by why. */
function notRunText(kind: UnsafeStopKind, reason: string | undefined): string {
  const sent = reason === undefined ? 'no stop reason' : `stop reason ${JSON.stringify(reason)}`;
  switch (kind) {
    case 'cut_off':
      return `not run: the reply was cut off (${sent}), so the call may not be what the model meant; ask again`;
    case 'filtered':
      return `not run: the reply was filtered (${sent})`;
    case 'failed':
      return `not run: the provider reports the reply failed (${sent})`;
    case 'final':
      return `not run: the reply says it is final (${sent}) while it holds tool calls`;
    default:
      return `not run: the reply's ${sent} is not one under which mutations run`;
  }
}

/** A block of every mutating call of a turn: its failure and the text each call is answered with. */
export interface Block {
  readonly failure: Failure;
  readonly text: string;
  readonly retryable: boolean;
}

/** Why the mutating calls of a closed turn may not run, if they may not. */
export function mutationBlock(
  ctx: LoopContext,
  read: ReadReply<unknown>,
  results: readonly ToolResult<ToolDefinitions>[],
  sdkRefused: readonly { readonly toolCallId: string; readonly toolName: string }[],
  signal: AbortSignal | undefined,
): Block | undefined {
  const pending = results.filter((r) => isPendingMutation(r)).map((r) => r.toolCallId);
  if (pending.length === 0) return undefined;
  if (signal?.aborted === true) {
    return {
      failure: {
        class: 'mutation.aborted',
        detail: 'The step was aborted before the mutations started.',
        ids: pending,
      },
      text: 'not run: the step was aborted before it started; it can be retried',
      retryable: true,
    };
  }
  const verdict = mutationStopVerdict(ctx.codec.format, read.stopReason);
  const allowed = ctx.options.mutationStopReasons?.includes(read.stopReason ?? null) === true;
  if (!verdict.runs && !allowed) {
    const text = notRunText(verdict.kind, read.stopReason);
    return {
      failure: {
        class: 'mutation.stop_reason_unsafe',
        detail: `The reply's stop reason lets no mutation run: ${text}.`,
        ids: pending,
      },
      text,
      retryable: false,
    };
  }
  if (sdkRefused.length > 0) {
    const names = sdkRefused.map((c) => `${c.toolName} (${c.toolCallId})`).join(', ');
    return {
      failure: {
        class: 'tool.schema_invalid',
        detail: `The SDK answered ${names} as invalid, so the turn's mutations do not run.`,
        ids: pending,
      },
      text: `not run: the SDK refused another call of this turn as invalid (${names})`,
      retryable: false,
    };
  }
  if ((ctx.options.readFailures ?? 'block_mutations') === 'block_mutations') {
    const failed = results.filter((r) => r.status === 'error' && !isPendingMutation(r));
    if (failed.length > 0) {
      const names = failed.map((r) => `${r.toolName}: ${r.status === 'error' ? r.error.errorCode : ''}`).join(', ');
      return {
        failure: {
          class: 'mutation.read_failed',
          detail: `A read of this turn failed (${names}), so its mutations do not run.`,
          ids: pending,
        },
        text: `not run: a read of this turn failed (${names})`,
        retryable: false,
      };
    }
  }
  return undefined;
}

/** A pending mutation's result once the turn could not close (or the step was aborted before it started): the call did not run. */
export function notRun(
  result: ToolResult<ToolDefinitions>,
  failures: readonly Failure[],
  aborted: boolean,
): ToolResult<ToolDefinitions> {
  if (result.status !== 'error') return result;
  const code = result.error.errorCode;
  if (aborted && code === 'mutation_not_performed') {
    return {
      ...result,
      error: ownError('aborted', abortedText(result.toolName)),
    };
  }
  if (!isPendingMutation(result)) return result;
  const classes = failures.map((f) => f.class).join(', ');
  return {
    ...result,
    error: ownError('mutation_not_admitted', `the turn did not close (${classes}); the mutation did not run`),
  };
}

/** The text a call is answered with when the step was aborted before it started. */
function abortedText(toolName: string): string {
  return `not run: the step was aborted before ${toolName} started; it can be retried`;
}

/** The error a read handler is answered with when the step was aborted before it started. */
function abortedRead(toolName: string): { errorCode: string; retryable: boolean; message: string } {
  return { errorCode: 'aborted', retryable: true, message: abortedText(toolName) };
}

/** The handlers the builder runs: each user handler given its step context, and the signal honoured. */
export function stepHandlers(
  handlers: object,
  tools: ToolRegistry<ToolDefinitions>,
  signal: AbortSignal,
): Record<string, (input: unknown, second: unknown) => unknown> {
  const definitions = registryDefinitions(tools);
  const wrapped: Record<string, (input: unknown, second: unknown) => unknown> = {};
  const step: StepContext = { signal };
  for (const name of Object.keys(definitions)) {
    const handler = handlerOf(handlers, name);
    if (typeof handler !== 'function') continue;
    const run = handler as (input: unknown, second: unknown, step: StepContext) => unknown;
    wrapped[name] =
      definitions[name]?.mutation === true
        ? async (input, witness) => {
            try {
              return await run(input, witness, step);
            } catch (error) {
              if (!signal.aborted) throw error;
              // Started, then aborted: whether the effect happened is unknown (recorded as such).
              throw {
                errorCode: 'effect_outcome_unknown',
                retryable: false,
                message: `${name} was aborted after it started: its outcome is unknown; check before retrying`,
              };
            }
          }
        : async (input, call) => {
            if (signal.aborted) throw abortedRead(name);
            return run(input, call, step);
          };
  }
  return wrapped;
}
