/**
 * The fluent turn builder: literal tool call ids tracked in the type, so a result for a call
 * never requested, a use of a call without a result, a repeated id, a disposition without what
 * it needs, a caller outside a tool's `allowedCallers`, or closing a turn with an open call is a
 * `tsc` error that names the failure class and the ids. `close` still runs the one runtime
 * check, which alone mints `JoinClosed`.
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import { failedWith } from '../failures/internal.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import {
  expectMinted,
  type CallerMissingMessage,
  type CallerNotAllowedMessage,
  type ConsumedWithoutEvidenceMessage,
  type DiscardedWithoutReasonMessage,
  type JsonParallelMessage,
  type MethodRule,
  type NamedEvidence,
  type TextRequestMessage,
} from '../typestate/internal.ts';
import type { ModeOf, StateArgument } from '../typestate/index.ts';
import {
  closeJoin,
  recordResults,
  recordUse,
  requestTools,
  type ActionMode,
  type CallSpec,
  type CloseContext,
  type JoinClosed,
  type ReportedToolResult,
  type RequestedToolCall,
  type ToolDefinitionsOf,
  type ToolErrorEnvelope,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolRegistry,
  type ToolUseInputRow,
  type UseEvidence,
} from '../typestate/index.ts';
import type {
  IdList,
  JoinIncomplete,
  NonLiteralIdMessage,
  RepeatedIdMessage,
  ResultOrphanMessage,
  TurnMisuse,
  UseWithoutResultMessage,
} from '../typestate/index.ts';

/**
 * The outcome of one tool call as the builder takes it: the tool's typed output, an error
 * envelope, or `pending` for a call of a `mutation: true` tool (it runs through the mutation
 * gate). The types allow each for every tool, to keep a builder call cheap to check; at `close`
 * the run-time check refuses `ok` for a mutation tool and `pending` for any other.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { ResultOutcome } from 'turngate/types';
 * const failed: ResultOutcome<ToolDefinitions, string> = { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } };
 * ```
 */
export type ResultOutcome<TTools extends ToolDefinitionsOf<TTools>, TName extends ToolName<TTools>> =
  | { readonly status: 'ok'; readonly output: ToolOutput<TTools, TName> }
  | { readonly status: 'error'; readonly error: ToolErrorEnvelope }
  | { readonly status: 'pending' };

/**
 * What `.use` takes after the disposition.
 *
 * @example
 * ```ts
 * import type { UseDetails } from 'turngate/types';
 * const details: UseDetails = { evidence: { summaryRef: 'summary://turn-1' } };
 * ```
 */
export interface UseDetails {
  /** Required for `discarded_with_reason`. */
  readonly reasonCode?: string;
  /** Required for `consumed`. */
  readonly evidence?: UseEvidence;
}

// How the builder's types stay cheap (`npm run bench:types`): every method is generic in the
// builder's state and reads it from its `this` argument (`this: TurnBuilder<...>`), so its
// signature is one declaration for every turn, not a copy per builder type. TypeScript then
// resolves the id checks and the contextual types of the arguments once per declaration and
// instantiates them once per call, with the literal id and the state inferred from the receiver.
// The answered and used ids are unions of string literals (membership `TId extends TSet`, add
// `TSet | TId`); the requested ids are the keys of a map from id to tool name (`TRequests`, an
// intersection of one-key objects), which `.result` reads for the tool's output type (a union of
// requested ids kept beside the map measured no cheaper).

type RequestIdCheck<TId extends string, TRequests> = string extends TId
  ? NonLiteralIdMessage
  : TId extends keyof TRequests
    ? RepeatedIdMessage<TId, 'a request'>
    : TId;

type CallerCheck<
  TTools,
  TName extends keyof TTools & string,
  TCaller extends string,
  TMethod extends string,
> = TTools[TName] extends {
  readonly allowedCallers: readonly (infer TAllowed extends string)[];
}
  ? [TCaller] extends [never]
    ? CallerMissingMessage<TName, TAllowed>
    : [TCaller] extends [TAllowed]
      ? MethodRule<TTools, TName, TMethod, TName>
      : CallerNotAllowedMessage<TName, TAllowed, TCaller>
  : MethodRule<TTools, TName, TMethod, TName>;

type ResultIdCheck<TId extends string, TRequests, TResulted extends string> = TId extends keyof TRequests
  ? TId extends TResulted
    ? RepeatedIdMessage<TId, 'a result'>
    : TId
  : ResultOrphanMessage<TId>;

type UseIdCheck<TId extends string, TResulted extends string, TUsed extends string> = TId extends TResulted
  ? TId extends TUsed
    ? RepeatedIdMessage<TId, 'a disposition'>
    : TId
  : UseWithoutResultMessage<TId>;

/** `request` for a registry without `allowedCallers` or `methods`. */
type RequestMethod = <
  const TId extends string,
  TName extends ToolName<TTools>,
  TTools extends ToolDefinitionsOf<TTools>,
  TMode extends ActionMode,
  TRequests,
  TResulted extends string,
  TUsed extends string,
>(
  this: TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed>,
  toolCallId: RequestIdCheck<TId, TRequests>,
  toolName: TName,
  input: ToolInput<TTools, TName>,
  options?: { readonly callerId?: string; readonly method?: string },
) => TurnBuilder<TTools, TMode, TRequests & { readonly [K in TId]: TName }, TResulted, TUsed>;

/**
 * `request` for a registry with `allowedCallers` or `methods` (`TRestricted` names those tools):
 * the caller and the method are checked.
 */
type CheckedRequestMethod = <
  const TId extends string,
  TName extends ToolName<TTools>,
  TTools extends ToolDefinitionsOf<TTools>,
  TMode extends ActionMode,
  TRequests,
  TResulted extends string,
  TUsed extends string,
  TRestricted extends string,
  const TCaller extends string = never,
  const TMethod extends string = never,
>(
  this: TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed, TRestricted>,
  toolCallId: RequestIdCheck<TId, TRequests>,
  toolName: TName extends TRestricted ? CallerCheck<TTools, TName, TCaller, TMethod> : TName,
  input: ToolInput<TTools, TName>,
  options?: { readonly callerId?: TCaller; readonly method?: TMethod },
) => TurnBuilder<TTools, TMode, TRequests & { readonly [K in TId]: TName }, TResulted, TUsed, TRestricted>;

type AnyRequestMethod<TRestricted extends string> = [TRestricted] extends [never]
  ? RequestMethod
  : CheckedRequestMethod;

/**
 * The tools of a registry whose calls the builder checks beyond their input: those that name
 * `allowedCallers`, and those that declare `methods`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { RestrictedTools } from 'turngate/types';
 * class Tools extends defineTools({
 *   run_query: { input: v.object({}), output: v.object({}), allowedCallers: ['code_execution'] },
 *   web_fetcher: { input: v.object({ url: v.string() }), output: v.string(), methods: ['fetch_url'] },
 *   read_file: { input: v.object({ path: v.string() }), output: v.string() },
 * }) {}
 * const names: RestrictedTools<Tools>[] = ['run_query', 'web_fetcher'];
 * ```
 */
export type RestrictedTools<TTools> = {
  [K in keyof TTools]: TTools[K] extends
    | { readonly allowedCallers: readonly string[] }
    | { readonly methods: readonly [string, ...string[]] }
    ? K
    : never;
}[keyof TTools] &
  string;

/** `request` by action mode, as a lookup table (one property is read per call). */
interface RequestSlots<TRequests, TRestricted extends string> {
  readonly code: AnyRequestMethod<TRestricted>;
  readonly json: [keyof TRequests] extends [never]
    ? AnyRequestMethod<TRestricted>
    : TurnMisuse<JsonParallelMessage<keyof TRequests & string>>;
  readonly text: TurnMisuse<TextRequestMessage>;
}

/** The key of `RequestSlots` for a mode: a mode the types do not know is checked as `code` (the run time decides). */
type ModeKey<TMode extends ActionMode> = [ActionMode] extends [TMode] ? 'code' : TMode;

/** `.close` when every requested id has a result and every result a disposition, else the fault. */
type CloseMethod<
  TTools extends ToolDefinitionsOf<TTools>,
  TRequested extends string,
  TResulted extends string,
  TUsed extends string,
> = [TRequested] extends [TResulted]
  ? [TResulted] extends [TUsed]
    ? (context?: CloseContext) => Result<JoinClosed<TTools>>
    : JoinIncomplete<'tool.use_missing', IdList<Exclude<TResulted, TUsed>>>
  : JoinIncomplete<'tool.result_missing', IdList<Exclude<TRequested, TResulted>>>;

/**
 * A turn being built with literal tool call ids. Each method returns a new builder whose type
 * records the call; the builder itself is immutable.
 *
 * - `request(id, toolName, input, { callerId, method }?)`: in `code` mode any number; in `json`
 *   mode one (a second is `TurnMisuse<'tool.parallel_policy_violation: ...'>`); in `text` mode
 *   none (use `adaptText`). A repeated id, a `string` id, a tool with `allowedCallers` without a
 *   `callerId` of that list, or a tool with `methods` called without a method or with a literal
 *   one that is neither a method nor an alias (`unknown_method: web_fetcher has no method get;
 *   use fetch_url`) is an error naming the class.
 * - `result(id, outcome)`: only a requested id, once (else `tool.result_orphan: <id> was never
 *   requested`), with the tool's typed output, or `{ status: 'pending' }` for a mutation tool.
 * - `use(id, disposition, details?)`: only an id with a result, once (else
 *   `tool.use_without_result`); `consumed` needs `details.evidence`, `discarded_with_reason`
 *   needs `details.reasonCode`.
 * - `close(context?)`: callable only when requested = resulted = used; otherwise its type is
 *   `JoinIncomplete<'tool.result_missing' | 'tool.use_missing', ids, what to call>`.
 *
 * The methods read the builder's state from their `this` argument: call them on the builder
 * (`builder.use(...)`), not detached from it.
 *
 * @example
 * ```ts
 * import type { CallSpec, ToolRegistry } from 'turngate';
 * import type { TurnBuilder } from 'turngate/types';
 * import { turn } from 'turngate';
 * declare const spec: CallSpec<'code'>;
 * declare const tools: ToolRegistry;
 * const builder: TurnBuilder<ToolRegistry['definitions'], 'code', {}, never, never> = turn(spec, tools);
 * ```
 */
export interface TurnBuilder<
  TTools extends ToolDefinitionsOf<TTools>,
  TMode extends ActionMode,
  TRequests,
  TResulted extends string,
  TUsed extends string,
  TRestricted extends string = never,
> {
  /** Records a tool call the model requested. */
  readonly request: RequestSlots<TRequests, TRestricted>[ModeKey<TMode>];
  // `result` and `use` declare the builder's parameters again (shadowing them) and read them
  // from `this`: the signature then refers to no parameter of the interface, so TypeScript shares
  // it between all builder types instead of copying it for each.
  /** Records the terminal result of a requested call. */
  result<
    const TId extends string,
    TTools extends ToolDefinitionsOf<TTools>,
    TMode extends ActionMode,
    TRequests,
    TResulted extends string,
    TUsed extends string,
    TRestricted extends string,
  >(
    this: TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed, TRestricted>,
    toolCallId: ResultIdCheck<TId, TRequests, TResulted>,
    outcome: TId extends keyof TRequests
      ? ResultOutcome<TTools, TRequests[TId] & ToolName<TTools>>
      : { readonly status: 'error'; readonly error: ToolErrorEnvelope },
  ): TurnBuilder<TTools, TMode, TRequests, TResulted | TId, TUsed, TRestricted>;
  /** Records what the turn did with a result: `consumed` needs evidence, `discarded_with_reason` a reason code. */
  use<
    const TId extends string,
    TTools extends ToolDefinitionsOf<TTools>,
    TMode extends ActionMode,
    TRequests,
    TResulted extends string,
    TUsed extends string,
    TRestricted extends string,
    // biome-ignore lint/complexity/noBannedTypes: `{}` is "no details given", the default the checks read
    const TDetails extends UseDetails = {},
  >(
    this: TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed, TRestricted>,
    toolCallId: UseIdCheck<TId, TResulted, TUsed>,
    // Written out rather than named, so an error shows the sentences (each message a string literal), not an alias.
    disposition:
      | 'observed'
      | 'observed_only'
      | 'discarded'
      | 'retry_scheduled'
      | (TDetails extends { readonly evidence: NamedEvidence } ? 'consumed' : ConsumedWithoutEvidenceMessage)
      | (TDetails extends { readonly reasonCode: string } ? 'discarded_with_reason' : DiscardedWithoutReasonMessage),
    details?: TDetails,
  ): TurnBuilder<TTools, TMode, TRequests, TResulted, TUsed | TId, TRestricted>;
  /** Closes the turn through the join check; typed only when the join is closed. */
  readonly close: CloseMethod<TTools, keyof TRequests & string, TResulted, TUsed>;
  /** The ids the type has recorded, for type-level queries (`OpenCalls`, ...) only: absent at run time. */
  readonly '~calls'?: {
    readonly requested: keyof TRequests & string;
    readonly resulted: TResulted;
    readonly used: TUsed;
    readonly tools: TTools;
  };
}

interface Rows {
  readonly requests: readonly RequestedToolCall[];
  readonly results: readonly ReportedToolResult[];
  readonly uses: readonly ToolUseInputRow[];
}

type Outcome =
  | { readonly status: 'ok'; readonly output: unknown }
  | { readonly status: 'error'; readonly error: ToolErrorEnvelope }
  | { readonly status: 'pending' };

/** The untyped builder object; `turn` gives it its type. */
interface UntypedBuilder {
  readonly request: (
    toolCallId: string,
    toolName: string,
    input: unknown,
    options?: { callerId?: string; method?: string },
  ) => UntypedBuilder;
  readonly result: (toolCallId: string, outcome: Outcome) => UntypedBuilder;
  readonly use: (toolCallId: string, disposition: ToolUseDisposition, details?: UseDetails) => UntypedBuilder;
  readonly close: (context?: CloseContext) => Result<JoinClosed>;
}

function build(spec: CallSpec, tools: ToolRegistry, rows: Rows): UntypedBuilder {
  const next = (more: Partial<Rows>) => build(spec, tools, { ...rows, ...more });
  return Object.freeze({
    request: (toolCallId: string, toolName: string, input: unknown, options?: { callerId?: string; method?: string }) =>
      next({
        requests: [
          ...rows.requests,
          {
            toolCallId,
            toolName,
            input,
            ...(options?.callerId === undefined ? {} : { callerId: options.callerId }),
            ...(options?.method === undefined ? {} : { method: options.method }),
          },
        ],
      }),
    result: (toolCallId: string, outcome: Outcome) =>
      next({
        results: [
          ...rows.results,
          outcome.status === 'ok'
            ? { toolCallId, status: 'ok', output: outcome.output }
            : outcome.status === 'error'
              ? { toolCallId, status: 'error', error: outcome.error }
              : { toolCallId, status: 'pending' },
        ],
      }),
    use: (toolCallId: string, disposition: ToolUseDisposition, details?: UseDetails) =>
      next({ uses: [...rows.uses, { ...details, toolCallId, disposition }] }),
    close: (context?: CloseContext): Result<JoinClosed> => {
      const requested = requestTools(spec, tools, rows.requests);
      if (!requested.ok) return requested;
      const refused = requested.value.refused;
      if (refused.length > 0) return failedWith(refused.map((r) => r.failure));
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
 * Failure classes at `close`: every class of `requestTools` (a call it refuses fails the
 * builder's turn: scripted calls are expected to run), `recordResults`, `recordUse` and
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
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'code' });
 * if (spec.ok) {
 *   const closed = turn(spec.value, Tools)
 *     .request('tc-1', 'read_file', { path: 'README.md' })
 *     .result('tc-1', { status: 'ok', output: { text: '# hi' } })
 *     .use('tc-1', 'observed')
 *     .close();
 *   closed.ok; //=> true
 * }
 * ```
 */
export function turn<TSpec, TTools extends ToolDefinitionsOf<TTools>>(
  spec: StateArgument<TSpec, 'CallSpec', 'call callSpec({ callId, modelRef, actionMode }) first'>,
  tools: ToolRegistry<TTools>,
  // biome-ignore lint/complexity/noBannedTypes: `{}` is the empty id -> tool map a new turn starts from
): TurnBuilder<TTools, ModeOf<TSpec>, {}, never, never, RestrictedTools<TTools>>;
export function turn(spec: CallSpec, tools: ToolRegistry): unknown {
  expectMinted(spec, 'CallSpec');
  return build(spec, tools, { requests: [], results: [], uses: [] });
}
