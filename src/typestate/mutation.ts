/**
 * The mutation gate: `MutationReady` is minted only by `admitMutation` from a `JoinClosed`,
 * and spent by `performMutation`, the only way to run a mutation.
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import { FailureCollector } from '../failures/collect.ts';
import { expectMinted, mint, mintedState, spend, type Branded } from './brand.ts';
import type { JoinClosed } from './close-join.ts';
import { TypestateError } from './errors.ts';
import {
  formatIssues,
  validateWith,
  type ToolDefinitions,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolRegistry,
} from './tools.ts';

/**
 * The active mutation policy and the capability claims presented for this mutation.
 *
 * @example
 * ```ts
 * import type { MutationPolicy } from 'turngate';
 * const policy: MutationPolicy = { mutationPolicyDigest: 'pol.issues-write.v2', requiredCapabilities: ['issues:write'], capabilityClaims: ['issues:write'] };
 * ```
 */
export interface MutationPolicy {
  /** The active instruction-linked mutation policy digest; must equal the turn's `mutationPolicyDigest`. */
  readonly mutationPolicyDigest: string;
  /** Capabilities the intended mutation requires (e.g. `issues:write`). */
  readonly requiredCapabilities?: readonly string[];
  /** Capabilities claimed for this mutation. */
  readonly capabilityClaims?: readonly string[];
}

/**
 * The witness of an admitted (and, once performed, executed) mutation.
 *
 * @example
 * ```ts
 * import type { MutationWitness } from 'turngate';
 * declare const value: MutationWitness;
 * value.witnessKind;
 * ```
 */
export interface MutationWitness {
  /** Always `turngate.mutation.v1`. */
  readonly witnessKind: 'turngate.mutation.v1';
  /** The turn's `callId`. */
  readonly callId: string;
  /** The join-set digest of the closed turn: the join-gate witness linkage. */
  readonly joinSetDigest: string;
  /** The mutation policy digest the turn and the active policy share. */
  readonly mutationPolicyDigest: string;
  /** The capabilities required and claimed, sorted. */
  readonly capabilities: readonly string[];
  /** The turn's session refs (non-empty). */
  readonly sessionRefs: readonly string[];
  /** The turn's trajectory refs (non-empty). */
  readonly trajectoryRefs: readonly string[];
}

/**
 * A closed turn admitted for one mutation. Single-use: `performMutation` spends it.
 *
 * @example
 * ```ts
 * import { performMutation, type MutationReady } from 'turngate';
 * declare const ready: MutationReady;
 * await performMutation(ready, (witness) => witness.callId);
 * ```
 */
export type MutationReady<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'MutationReady',
  { readonly joinClosed: JoinClosed<TTools>; readonly witness: MutationWitness }
>;

/**
 * Admits a closed turn for mutation. Mints `MutationReady` only when every condition holds:
 * - the turn is `JoinClosed` (minted by `closeJoin`), with continuation context ready when the
 *   loop continues;
 * - its `mutationPolicyDigest` equals the active policy's (`mutation.policy_digest_mismatch`);
 * - every required capability is claimed (`mutation.capability_claim_missing`, ids = missing);
 * - every `consumed` result carries use evidence: bound to its result's digest and naming what
 *   it was consumed into (`summaryRef`, `handoffRef` or `mutationInputRef`)
 *   (`mutation.use_evidence_missing`, ids = the rows);
 * - the witness linkage is present: join-set digest, session refs and trajectory refs
 *   (`mutation.use_evidence_missing`).
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.6.
 *
 * @param joinClosed - A `JoinClosed` from `closeJoin`.
 * @param policy - The active policy and the claims presented.
 * @returns `MutationReady`, or the failures.
 * @throws {@link TypestateError} when `joinClosed` was not minted by `closeJoin`.
 * @example
 * ```ts
 * import { admitMutation, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * const ready = admitMutation(closed, { mutationPolicyDigest: 'pol.mut', requiredCapabilities: ['issues:write'], capabilityClaims: ['issues:write'] });
 * if (!ready.ok) ready.failures.map((f) => f.class);
 * ```
 */
export function admitMutation<TTools extends ToolDefinitions>(
  joinClosed: JoinClosed<TTools>,
  policy: MutationPolicy,
): Result<MutationReady<TTools>> {
  expectMinted(joinClosed, 'JoinClosed');
  const n = joinClosed.normalized;
  const failures = new FailureCollector();
  if (!n.joinState.joinClosed || !n.contextState.continuationContextReady) {
    failures.add('tool.join_incomplete', 'The join or the continuation context is not closed.');
  }
  if (n.callSpec.mutationPolicyDigest !== policy.mutationPolicyDigest) {
    failures.add(
      'mutation.policy_digest_mismatch',
      `Turn mutation policy \`${n.callSpec.mutationPolicyDigest}\` is not the active \`${policy.mutationPolicyDigest}\`.`,
    );
  }
  const claims = new Set(policy.capabilityClaims ?? []);
  const missingClaims = (policy.requiredCapabilities ?? []).filter((c) => !claims.has(c));
  if (missingClaims.length > 0) {
    failures.add('mutation.capability_claim_missing', 'Required capabilities are not claimed.', missingClaims);
  }
  const digests = new Map(
    joinClosed.results.map((r) => [r.toolCallId, r.status === 'ok' ? r.resultDigest : undefined]),
  );
  const unevidenced = joinClosed.use.uses
    .filter((u) => u.disposition === 'consumed')
    .filter((u) => {
      const bound = u.resultDigest !== undefined && u.resultDigest === digests.get(u.toolCallId);
      const e = u.evidence;
      const named =
        e !== undefined &&
        [e.summaryRef, e.handoffRef, e.mutationInputRef].some((ref) => ref !== undefined && ref.trim() !== '');
      return !bound || !named;
    })
    .map((u) => u.toolCallId);
  if (unevidenced.length > 0) {
    failures.add(
      'mutation.use_evidence_missing',
      'Consumed results lack use evidence (a bound result digest and a summaryRef, handoffRef or mutationInputRef).',
      unevidenced,
    );
  }
  const sessionRefs = n.sessionRefs ?? [];
  const trajectoryRefs = n.trajectoryRefs ?? [];
  if (sessionRefs.length === 0 || trajectoryRefs.length === 0) {
    failures.add(
      'mutation.use_evidence_missing',
      'The turn has no session or trajectory refs to link the mutation witness to.',
    );
  }
  if (!failures.empty) return { ok: false, failures: failures.list() };
  const witness: MutationWitness = Object.freeze({
    witnessKind: 'turngate.mutation.v1',
    callId: n.callSpec.callId,
    joinSetDigest: n.digests.joinSetDigest,
    mutationPolicyDigest: policy.mutationPolicyDigest,
    capabilities: Object.freeze([...new Set([...(policy.requiredCapabilities ?? [])])].sort()),
    sessionRefs,
    trajectoryRefs,
  });
  return { ok: true, value: mint('MutationReady', { joinClosed, witness }) };
}

/**
 * What `performMutation` returns: the effect's value and the witness it ran under.
 *
 * @example
 * ```ts
 * import type { PerformedMutation } from 'turngate';
 * type Example = PerformedMutation<never>;
 * ```
 */
export interface PerformedMutation<TValue> {
  /** The effect's (awaited) return value. */
  readonly value: TValue;
  /** The witness of the admitted mutation. */
  readonly witness: MutationWitness;
}

/**
 * Runs a mutation: the only door to a side effect. The `MutationReady` must have come from
 * `admitMutation` and not have been used: it is spent before the effect runs (also when the
 * effect throws). A forged, cast, copied or reused value rejects with {@link TypestateError}
 * and the effect never runs.
 *
 * Source: HARNESS-TYPESTATE §2, §6.
 *
 * @param ready - A `MutationReady` from {@link admitMutation}.
 * @param effect - The side effect; receives the witness.
 * @returns The effect's value and the witness.
 * @throws {@link TypestateError} (as a rejection) for a forged (`forged`, `wrong_state`) or
 *   reused (`spent`) value; whatever the effect throws.
 * @example
 * ```ts
 * import { performMutation, type MutationReady } from 'turngate';
 * declare const ready: MutationReady;
 * const { value, witness } = await performMutation(ready, async (w) => `updated under ${w.joinSetDigest}`);
 * ```
 */
export async function performMutation<TTools extends ToolDefinitions, TValue>(
  ready: MutationReady<TTools>,
  effect: (witness: MutationWitness) => TValue | Promise<TValue>,
): Promise<PerformedMutation<Awaited<TValue>>> {
  if (mintedState(ready) === undefined && spent.has(ready))
    throw new TypestateError('spent', 'MutationReady', 'this MutationReady was already used');
  expectMinted(ready, 'MutationReady');
  spend(ready);
  spent.add(ready);
  const value = await effect(ready.witness);
  return { value: value as Awaited<TValue>, witness: ready.witness };
}

const spent = new WeakSet<object>();

/**
 * Runs a registered `mutation: true` tool through {@link performMutation}: validates the input
 * with the tool's schema, runs `execute`, validates the output.
 *
 * @param ready - A `MutationReady` from {@link admitMutation}.
 * @param tools - The registry.
 * @param name - A tool defined with `mutation: true`.
 * @param input - Its input.
 * @param execute - The tool's implementation.
 * @returns The validated output and the witness.
 * @throws {@link TypestateError} as {@link performMutation}; `TypeError` when the tool is not a
 *   mutation tool or the input or output fails its schema (the effect does not run on bad input).
 *
 * @example
 * ```ts
 * import { performMutationTool, type MutationReady, type ToolRegistry } from 'turngate';
 * import type * as v from 'valibot';
 * type Tools = { 'issues.update': { input: v.ObjectSchema<{ id: v.StringSchema<undefined> }, undefined>; output: v.ObjectSchema<{ ok: v.BooleanSchema<undefined> }, undefined>; mutation: true } };
 * declare const ready: MutationReady<Tools>;
 * declare const tools: ToolRegistry<Tools>;
 * const { value } = await performMutationTool(ready, tools, 'issues.update', { id: 'BILL-7' }, async () => ({ ok: true }));
 * ```
 */
export async function performMutationTool<TTools extends ToolDefinitions, TName extends ToolName<TTools>>(
  ready: MutationReady<TTools>,
  tools: ToolRegistry<TTools>,
  name: TName,
  input: ToolInput<TTools, TName>,
  execute: (input: ToolInput<TTools, TName>, witness: MutationWitness) => Promise<unknown> | unknown,
): Promise<PerformedMutation<ToolOutput<TTools, TName>>> {
  const definition = tools.definitions[name];
  if (definition?.mutation !== true)
    throw new TypeError(`performMutationTool: ${JSON.stringify(name)} is not a mutation tool`);
  const checkedInput = validateWith(definition.input, input);
  if (!checkedInput.ok)
    throw new TypeError(
      `performMutationTool: input of ${name} does not match its schema: ${formatIssues(checkedInput.issues)}`,
    );
  const performed = await performMutation(ready, (witness) =>
    execute(checkedInput.value as ToolInput<TTools, TName>, witness),
  );
  const output = validateWith(definition.output, performed.value);
  if (!output.ok)
    throw new TypeError(
      `performMutationTool: output of ${name} does not match its schema: ${formatIssues(output.issues)}`,
    );
  return { value: output.value as ToolOutput<TTools, TName>, witness: performed.witness };
}
