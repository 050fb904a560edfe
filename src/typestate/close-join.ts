/**
 * `JoinClosed`: the turn closed by the one join check (`closeJoin`), with the context evidence
 * the default profile derives from the turn's own results, and the mutation intents it declares.
 *
 * @module
 */
import type { JoinCheckReport } from '../check/index.ts';
import type { JoinCheckInputWire } from '../evidence/index.ts';
import type { Failure, Result } from '../failures/index.ts';
import { snapshotOwnData } from '../internal/own-data.ts';
import type { NormalizedEvidence } from '../normalize/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import { deriveIntents, type MutationIntent } from './intents.ts';
import type { StateArgument } from './messages.ts';
import type { MutationRecord } from './mutation-record.ts';
import { defaultRefs, deriveContext } from './profile.ts';
import { resolveProtocolState, type TurnProtocolState } from './protocol.ts';
import type { ToolUse, ToolUseRow } from './record-use.ts';
import type { TurnCalls } from './requests.ts';
import { isPendingMutation, type ToolResult } from './results.ts';
import { callRows, check, notData, resultRows, useRows } from './rows.ts';
import { registryDefinitions, type ToolDefinitions, type ToolDefinitionsOf, type ToolsOf } from './tools.ts';
import { firstFailure, fail, failedWith, FailureCollector } from '../failures/internal.ts';

type EvidenceWire = JoinCheckInputWire['evidence'];

/**
 * What `closeJoin` takes beyond the tool rows. Everything is optional:
 * - `protocolState`: the stop reason (the protocol's own, or a provider's with its `format`);
 *   default: `tool_use` when the turn has tool calls, `end_turn` when not (the chat rule of the
 *   stop-reason table); `continuationAllowed` defaults to `true` for `tool_use` and `pause_turn`;
 * - `toolRender`, `reminderQueue`, `stateViews`: the context evidence; each one absent is derived
 *   from the turn's own results when the CallSpec uses the default profile's policy for it
 *   (`DEFAULT_POLICIES`), so a continuing turn closes with real evidence;
 * - `sessionRefs`, `trajectoryRefs`: default `session://<sessionId>` and
 *   `trajectory://<sessionId>/<callId>` (see `defaultRefs`);
 * - `handoff` and the join check's constraint blocks, as `joinCheck` takes them.
 *
 * @example
 * ```ts
 * import type { CloseContext } from 'turngate/types';
 * const context: CloseContext = {
 *   protocolState: { format: 'anthropic', stopReason: 'tool_use' },
 *   sessionRefs: ['session://support/4711'],
 * };
 * ```
 */
export interface CloseContext {
  /** The stop reason and whether the loop continues. */
  readonly protocolState?: TurnProtocolState;
  /** Tool render rows (dual rendering of each result). */
  readonly toolRender?: readonly NonNullable<EvidenceWire['toolRender']>[number][];
  /** Reduced reminder queues. */
  readonly reminderQueue?: readonly NonNullable<EvidenceWire['reminderQueue']>[number][];
  /** Conversation-state views. */
  readonly stateViews?: readonly NonNullable<EvidenceWire['stateViews']>[number][];
  /** A handoff packet. */
  readonly handoff?: EvidenceWire['handoff'];
  /** The session refs the mutation witness links to. */
  readonly sessionRefs?: readonly string[];
  /** The trajectory refs the mutation witness links to. */
  readonly trajectoryRefs?: readonly string[];
  /** The governance profile block. */
  readonly governanceProfile?: JoinCheckInputWire['governanceProfile'];
  /** The protocol constraints block. */
  readonly protocolConstraints?: JoinCheckInputWire['protocolConstraints'];
  /** The handoff constraints block. */
  readonly handoffConstraints?: JoinCheckInputWire['handoffConstraints'];
  /** The truncation constraints block. */
  readonly truncationConstraints?: JoinCheckInputWire['truncationConstraints'];
  /** The decomposition constraints block. */
  readonly decompositionConstraints?: JoinCheckInputWire['decompositionConstraints'];
}

/**
 * A closed turn: every HARNESS-TYPESTATE §5 condition held when the join check ran. It holds
 * the typed calls and results, the dispositions, the normalized evidence and its digests, the
 * report, the mutation intents it declares, and (after `recordMutations`) what the gate ran.
 * `pendingMutations` lists calls that still wait for the gate: such a turn is closed, but its
 * results are not yet the ones to send to the provider.
 *
 * @example
 * ```ts
 * import { admitMutation, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * closed.normalized.digests.joinSetDigest; // 'sha256:…'
 * if (closed.intents.length > 0) admitMutation(closed);
 * ```
 */
export type JoinClosed<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> = Branded<
  'JoinClosed',
  TurnCalls<TTools> & {
    /** One result per call: what goes back to the provider (once `pendingMutations` is empty). */
    readonly results: readonly ToolResult<TTools>[];
    /** One disposition per result. */
    readonly uses: readonly ToolUseRow[];
    /** The join check's report (accepted). */
    readonly report: JoinCheckReport;
    /** The normalized evidence, with its digest bundle. */
    readonly normalized: NormalizedEvidence;
    /** The mutation intents the turn declares. */
    readonly intents: readonly MutationIntent[];
    /** The calls waiting for the mutation gate (results `mutation_pending`). */
    readonly pendingMutations: readonly string[];
    /** The failure classes of refused calls, by class with their ids: each keeps the turn from mutation. */
    readonly refusals: readonly Failure[];
    /** What the mutation gate did with each pending call (set by `recordMutations`). */
    readonly mutations: readonly MutationRecord[];
    /** The close context as given (own data), kept to re-close the turn after its mutations. */
    readonly context: CloseContext;
    /** The registry's definitions type, for type-level queries only: absent at run time. */
    readonly '~tools'?: TTools;
  }
>;

/** The parts a turn is closed from. Internal: `closeJoin` and `recordMutations` share it. */
export interface TurnParts<TTools extends ToolDefinitionsOf<TTools>> extends TurnCalls<TTools> {
  readonly results: readonly ToolResult<TTools>[];
  readonly uses: readonly ToolUseRow[];
  readonly context: Readonly<Record<string, unknown>>;
  readonly mutations: readonly MutationRecord[];
}

/**
 * The object every `JoinClosed` of one turn shares: its requests list (the same frozen array
 * from `requestTools` through every `closeJoin` and `recordMutations`). The gate spends intents
 * and keeps what ran under it, so closing the same turn again gives no fresh, unspent turn.
 * Internal.
 */
export function turnLineage(closed: { readonly requests: readonly unknown[] }): object {
  return closed.requests;
}

/** Closes a turn from its parts through the join check. Internal. */
export function closeTurn<TTools extends ToolDefinitionsOf<TTools>>(
  parts: TurnParts<TTools>,
): Result<JoinClosed<TTools>> {
  const { callSpec, context } = parts;
  const spec = callSpec.spec;
  const calls = [...parts.requests, ...parts.refused];
  const protocol = resolveProtocolState(context['protocolState'], calls.length > 0);
  if (!protocol.ok) return fail('tool.schema_invalid', `context.${firstFailure(protocol)}`);
  const refs = defaultRefs(callSpec.sessionId, spec.callId);
  const sessionRefs = (context['sessionRefs'] ?? refs.sessionRefs) as readonly string[];
  const trajectoryRefs = (context['trajectoryRefs'] ?? refs.trajectoryRefs) as readonly string[];
  const derived = deriveContext({
    spec,
    calls,
    results: parts.results,
    uses: parts.uses,
    sessionRefs: Array.isArray(sessionRefs) ? sessionRefs.filter((r) => typeof r === 'string') : [],
  });
  const given = (key: string): unknown => context[key];
  const input: JoinCheckInputWire = {
    evidence: {
      callSpec: spec,
      toolRequests: callRows(calls),
      toolResults: resultRows(parts.results),
      toolUse: useRows(parts.uses),
      protocolState: protocol.value,
      toolRender: (given('toolRender') ?? derived.toolRender ?? []) as EvidenceWire['toolRender'],
      reminderQueue: (given('reminderQueue') ?? derived.reminderQueue ?? []) as EvidenceWire['reminderQueue'],
      stateViews: (given('stateViews') ?? derived.stateViews ?? []) as EvidenceWire['stateViews'],
      handoff: (given('handoff') ?? null) as EvidenceWire['handoff'],
      sessionRefs: sessionRefs as EvidenceWire['sessionRefs'],
      trajectoryRefs: trajectoryRefs as EvidenceWire['trajectoryRefs'],
    },
    governanceProfile: (given('governanceProfile') ?? null) as JoinCheckInputWire['governanceProfile'],
    protocolConstraints: (given('protocolConstraints') ?? null) as JoinCheckInputWire['protocolConstraints'],
    handoffConstraints: (given('handoffConstraints') ?? null) as JoinCheckInputWire['handoffConstraints'],
    truncationConstraints: (given('truncationConstraints') ?? null) as JoinCheckInputWire['truncationConstraints'],
    decompositionConstraints: (given('decompositionConstraints') ??
      null) as JoinCheckInputWire['decompositionConstraints'],
  };
  const checked = check(input);
  if (!checked.ok) return checked;
  const report = checked.value;
  if (report.result !== 'accepted') return failedWith(report.failures);
  const definitions = registryDefinitions(parts.tools);
  const mutationTools = new Set(Object.keys(definitions).filter((name) => definitions[name]?.mutation === true));
  const intents = deriveIntents(parts.requests, mutationTools, parts.results, parts.uses);
  const refusals = new FailureCollector();
  refusals.addAll(parts.refused.map((r) => r.failure));
  const closed = mint('JoinClosed', {
    callSpec,
    tools: parts.tools,
    requests: parts.requests,
    refused: parts.refused,
    results: parts.results,
    uses: parts.uses,
    report: deepFreeze(report),
    normalized: report.normalized,
    intents: deepFreeze(intents),
    pendingMutations: Object.freeze(parts.results.filter(isPendingMutation).map((r) => r.toolCallId)),
    refusals: deepFreeze(refusals.list()),
    mutations: deepFreeze([...parts.mutations]),
    context: deepFreeze({ ...context }),
  });
  return { ok: true, value: closed };
}

/**
 * Mints `JoinClosed` when, and only when, the join check accepts the whole turn: every request
 * answered once, no orphan, every result used, no use without a result, a handled stop reason,
 * the context evidence present and policy-valid when the loop continues, and every constraint
 * block satisfied. The context is read as own data (a polluted `Object.prototype.sessionRefs`
 * adds nothing); what it leaves out comes from the default profile (see {@link CloseContext}).
 *
 * Failure classes: every class the join check emits (see `joinCheck`), with their ids;
 * `tool.schema_invalid` for a context that is not plain data or a malformed `protocolState`.
 *
 * Source: HARNESS-TYPESTATE §5.
 *
 * @param use - `ToolUse` from `recordUse` or `useAll`.
 * @param context - The protocol state, context evidence, refs and constraint blocks; all optional.
 * @returns `JoinClosed`, or the report's failures.
 * @throws {@link TypestateError} when `use` was not minted by `recordUse`.
 *
 * @example
 * ```ts
 * import { closeJoin, type ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * const closed = closeJoin(use, { protocolState: { format: 'anthropic', stopReason: 'tool_use' } });
 * if (!closed.ok) closed.failures.map((f) => `${f.class} ${f.ids?.join(',') ?? ''}`);
 * ```
 */
export function closeJoin<TUse>(
  use: StateArgument<TUse, 'ToolUse', 'call useAll(results, decide) or recordUse(results, uses) first'>,
  context?: CloseContext,
): Result<JoinClosed<ToolsOf<TUse>>>;
export function closeJoin(use: ToolUse, context: CloseContext = {}): Result<JoinClosed> {
  expectMinted(use, 'ToolUse');
  const snapshot = snapshotOwnData(context, { root: 'context' });
  if (!snapshot.ok) return notData(firstFailure(snapshot));
  if (snapshot.value === null || typeof snapshot.value !== 'object' || Array.isArray(snapshot.value)) {
    return fail('tool.schema_invalid', 'context: expected an object');
  }
  const requests = use.results.requests;
  return closeTurn({
    callSpec: requests.callSpec,
    tools: requests.tools,
    requests: requests.requests,
    refused: requests.refused,
    results: use.results.results,
    uses: use.uses,
    context: snapshot.value as Readonly<Record<string, unknown>>,
    mutations: [],
  });
}
