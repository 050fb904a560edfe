/**
 * The fluent turn builder: literal tool call ids tracked in the type, so a result for a call
 * never requested, a use of a call without a result, or closing a turn with an unanswered
 * call is a `tsc` error that names the failure class and the ids. `close` still runs the one
 * runtime check, which alone mints `JoinClosed`.
 *
 * @module
 */
import type { FailureClass, Result } from '../failures/index.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import { expectMinted } from '../typestate/brand.ts';
import {
  closeJoin,
  recordResults,
  recordUse,
  requestTools,
  type ActionMode,
  type CallSpec,
  type CloseContext,
  type JoinClosed,
  type ToolErrorEnvelope,
  type RequestedToolCall,
  type ReportedToolResult,
  type ToolUseInputRow,
  type UseEvidence,
} from '../typestate/index.ts';
import type { ToolDefinitions, ToolInput, ToolName, ToolOutput, ToolRegistry } from '../typestate/tools.ts';

/**
 * The type of `.close` on a turn whose join is open: not callable, and its name carries the
 * failure class and the ids, e.g. `JoinIncomplete<'tool.result_missing', 'tc-2'>`.
 *
 * @example
 * ```ts
 * import type { JoinIncomplete } from 'turngate';
 * // What the editor shows for .close on a turn whose call tc-2 has no result:
 * type Shown = JoinIncomplete<'tool.result_missing', 'tc-2'>;
 * ```
 */
export interface JoinIncomplete<TFailureClass extends FailureClass, TIds extends string> {
  /** The failure class `close` would fail with. */
  readonly 'turn is not join-closed': TFailureClass;
  /** The ids that keep the join open. */
  readonly ids: TIds;
}

/**
 * The type of a builder method that the turn's action mode forbids: not callable, it says why.
 *
 * @example
 * ```ts
 * import type { TurnMisuse } from 'turngate';
 * type Shown = TurnMisuse<'json mode: one tool invocation per action (tool.parallel_policy_violation)'>;
 * ```
 */
export interface TurnMisuse<TMessage extends string> {
  /** Why this call is not allowed. */
  readonly 'not allowed': TMessage;
}

/**
 * The outcome of one tool call as the builder takes it: the tool's typed output, or an error envelope.
 *
 * @example
 * ```ts
 * import type { ResultOutcome, ToolDefinitions } from 'turngate';
 * const failed: ResultOutcome<ToolDefinitions, string> = { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } };
 * ```
 */
export type ResultOutcome<TTools extends ToolDefinitions, TName extends ToolName<TTools>> =
  | { readonly status: 'ok'; readonly output: ToolOutput<TTools, TName> }
  | { readonly status: 'error'; readonly error: ToolErrorEnvelope };

/**
 * The message a `.result` for an unrequested id shows.
 *
 * @example
 * ```ts
 * import type { ResultOrphanMessage } from 'turngate';
 * type Example = ResultOrphanMessage<never>;
 * ```
 */
export type ResultOrphanMessage<TId extends string> = `tool.result_orphan: ${TId} was never requested`;

/**
 * The message a `.use` for an id without a result shows.
 *
 * @example
 * ```ts
 * import type { UseWithoutResultMessage } from 'turngate';
 * type Example = UseWithoutResultMessage<never>;
 * ```
 */
export type UseWithoutResultMessage<TId extends string> = `tool.use_without_result: ${TId} has no result`;

type RequestMethod<
  TTools extends ToolDefinitions,
  TMode extends ActionMode,
  TRequests extends Record<string, ToolName<TTools>>,
  TResulted extends string,
  TUsed extends string,
> = <const TId extends string, TName extends ToolName<TTools>>(
  toolCallId: TId,
  toolName: TName,
  input: ToolInput<TTools, TName>,
  options?: { readonly callerId?: string },
) => TurnBuilder<TTools, TMode, TRequests & { readonly [K in TId]: TName }, TResulted, TUsed>;

type CloseMethod<
  TTools extends ToolDefinitions,
  TRequested extends string,
  TResulted extends string,
  TUsed extends string,
> = [Exclude<TRequested, TResulted>] extends [never]
  ? [Exclude<TResulted, TUsed>] extends [never]
    ? (context: CloseContext) => Result<JoinClosed<TTools>>
    : JoinIncomplete<'tool.use_missing', Exclude<TResulted, TUsed>>
  : JoinIncomplete<'tool.result_missing', Exclude<TRequested, TResulted>>;

/**
 * A turn being built with literal tool call ids. Each method returns a new builder whose type
 * records the call; the builder itself is immutable.
 *
 * - `request(id, toolName, input)`: in `code` mode any number; in `json` mode one (a second is
 *   `TurnMisuse<'... tool.parallel_policy_violation'>`); in `text` mode none (use `adaptText`).
 * - `result(id, outcome)`: only a requested id (else `tool.result_orphan: <id> was never
 *   requested`), with the tool's typed output.
 * - `use(id, disposition, evidence?)`: only an id with a result (else `tool.use_without_result`).
 * - `close(context)`: callable only when requested = resulted = used; otherwise its type is
 *   `JoinIncomplete<'tool.result_missing' | 'tool.use_missing', ids>`.
 *
 * @example
 * ```ts
 * import type { CallSpec, ToolRegistry, TurnBuilder } from 'turngate';
 * import { turn } from 'turngate';
 * declare const spec: CallSpec<'code'>;
 * declare const tools: ToolRegistry;
 * const builder: TurnBuilder<ToolRegistry['definitions'], 'code', {}, never, never> = turn(spec, tools);
 * ```
 */
export interface TurnBuilder<
  TTools extends ToolDefinitions,
  TMode extends ActionMode,
  TRequests extends Record<string, ToolName<TTools>>,
  TResulted extends string,
  TUsed extends string,
> {
  /** Records a tool call the model requested. */
  readonly request: TMode extends 'text'
    ? TurnMisuse<'text mode: tool requests come only from adaptText(profile, text), never from raw text (tool.schema_invalid)'>
    : TMode extends 'json'
      ? [keyof TRequests] extends [never]
        ? RequestMethod<TTools, TMode, TRequests, TResulted, TUsed>
        : TurnMisuse<'json mode: one tool invocation per action (tool.parallel_policy_violation)'>
      : RequestMethod<TTools, TMode, TRequests, TResulted, TUsed>;
  /** Records the terminal result of a requested call. */
  result<const TId extends string>(
    toolCallId: TId extends keyof TRequests ? TId : ResultOrphanMessage<TId>,
    outcome: TId extends keyof TRequests ? ResultOutcome<TTools, TRequests[TId]> : never,
  ): TurnBuilder<TTools, TMode, TRequests, TResulted | TId, TUsed>;
  /** Records what the turn did with a result. */
  use<const TId extends string>(
    toolCallId: TId extends TResulted ? TId : UseWithoutResultMessage<TId>,
    disposition: ToolUseDisposition,
    details?: { readonly reasonCode?: string; readonly evidence?: UseEvidence },
  ): TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed | TId>;
  /** Closes the turn through the join check; typed only when the join is closed. */
  readonly close: CloseMethod<TTools, keyof TRequests & string, TResulted, TUsed>;
}

interface Rows {
  readonly requests: readonly RequestedToolCall[];
  readonly results: readonly ReportedToolResult[];
  readonly uses: readonly ToolUseInputRow[];
}

function build(spec: CallSpec, tools: ToolRegistry, rows: Rows): unknown {
  const next = (more: Partial<Rows>) => build(spec, tools, { ...rows, ...more });
  return Object.freeze({
    request: (toolCallId: string, toolName: string, input: unknown, options?: { callerId?: string }) =>
      next({
        requests: [
          ...rows.requests,
          options?.callerId === undefined
            ? { toolCallId, toolName, input }
            : { toolCallId, toolName, input, callerId: options.callerId },
        ],
      }),
    result: (
      toolCallId: string,
      outcome: { status: 'ok'; output: unknown } | { status: 'error'; error: ToolErrorEnvelope },
    ) =>
      next({
        results: [
          ...rows.results,
          outcome.status === 'ok'
            ? { toolCallId, status: 'ok', output: outcome.output }
            : { toolCallId, status: 'error', error: outcome.error },
        ],
      }),
    use: (
      toolCallId: string,
      disposition: ToolUseDisposition,
      details?: { reasonCode?: string; evidence?: UseEvidence },
    ) => next({ uses: [...rows.uses, { toolCallId, disposition, ...details }] }),
    close: (context: CloseContext): Result<JoinClosed> => {
      const requested = requestTools(spec, tools, rows.requests);
      if (!requested.ok) return requested;
      const resulted = recordResults(requested.value, rows.results);
      if (!resulted.ok) return resulted;
      const used = recordUse(resulted.value, rows.uses);
      if (!used.ok) return used;
      return closeJoin(used.value, context);
    },
  });
}

/**
 * Starts a turn with literal tool call ids.
 *
 * Failure classes at `close`: every class of `requestTools`, `recordResults`, `recordUse` and
 * `closeJoin`; the types rule out the join faults for literal ids, the runtime check still runs.
 *
 * Source: ARCHITECTURE.md "Two ways the types see a turn" (1); HARNESS-TYPESTATE §5, §7.
 *
 * @param spec - A `CallSpec` from `callSpec` (its action mode types the builder).
 * @param tools - The registry from `defineTools`.
 * @returns An empty builder.
 * @throws {@link TypestateError} when `spec` was not minted by `callSpec`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { callSpec, defineTools, turn } from 'turngate';
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'code', executionPattern: 'single',
 *   normalizerId: 'nf.v1', mutationPolicyDigest: 'pol.mut', governancePolicyDigest: 'pol.gov',
 *   toolRenderProtocolDigest: 'pol.render', reminderQueuePolicyDigest: 'pol.queue',
 *   stateViewPolicyDigest: 'pol.view', decompositionPolicyDigest: 'pol.decomp' });
 * if (spec.ok) {
 *   const closed = turn(spec.value, tools)
 *     .request('tc-1', 'fs.read', { path: 'README.md' })
 *     .result('tc-1', { status: 'ok', output: { text: '# hi' } })
 *     .use('tc-1', 'observed')
 *     .close({ protocolState: { stopReason: 'end_turn' } });
 *   closed.ok; //=> true
 * }
 * ```
 */
export function turn<TTools extends ToolDefinitions, TMode extends ActionMode>(
  spec: CallSpec<TMode>,
  tools: ToolRegistry<TTools>,
  // biome-ignore lint/complexity/noBannedTypes: `{}` is the empty id -> tool map a new turn starts from
): TurnBuilder<TTools, TMode, {}, never, never> {
  expectMinted(spec, 'CallSpec');
  // biome-ignore lint/plugin: the registry's tool types are erased here; the builder's own type parameters carry them
  return build(spec as CallSpec, tools as unknown as ToolRegistry, {
    requests: [],
    results: [],
    uses: [],
    // biome-ignore lint/complexity/noBannedTypes: the empty id -> tool map, as in the signature
  }) as TurnBuilder<TTools, TMode, {}, never, never>;
}
