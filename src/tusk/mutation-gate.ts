/**
 * The harness's one door to the typestate layer: a step's mutation runs only through
 * `performMutation` with a `MutationReady`, and only when the admitted turn's witness links it to
 * this session and this step. Every call from `src/tusk` into the typestate layer is in this
 * module.
 *
 * @module
 */
import {
  performMutation,
  type MutationReady,
  type MutationWitness,
  type StateArgument,
  type ToolDefinitions,
} from '../typestate/index.ts';
import { expectMinted } from '../typestate/internal.ts';
import { StepFailure } from './errors.ts';

export type { MutationReady, MutationWitness, StateArgument, ToolDefinitions };

/** The session and step a mutation must be linked to. */
export interface MutationBinding {
  /** `harness-session://<sessionId>`: must be among the turn's `sessionRefs`. */
  readonly sessionRef: string;
  /** `harness-step://<stepId>`: must be among the turn's `trajectoryRefs`. */
  readonly stepRef: string;
}

/** Which intent of the admitted turn a mutation is: by call id or by mutation input ref. */
export type IntentChoice = { readonly toolCallId: string } | { readonly mutationInputRef: string };

/** The gate target for a request: the intent it names, or the turn's only intent. */
function targetOf(
  witness: MutationWitness,
  choice: IntentChoice | undefined,
  input: unknown,
):
  | { readonly toolCallId: string; readonly input: unknown }
  | { readonly mutationInputRef: string; readonly input: unknown } {
  if (choice !== undefined)
    return 'toolCallId' in choice
      ? { toolCallId: choice.toolCallId, input }
      : { mutationInputRef: choice.mutationInputRef, input };
  const [only, ...more] = witness.intents;
  if (only === undefined || more.length > 0) {
    throw new StepFailure(
      ['mutation.use_evidence_missing'],
      `the turn ${witness.callId} declares ${witness.intents.length} mutation intents: name one with the request's intent`,
    );
  }
  return only.kind === 'tool_call'
    ? { toolCallId: only.toolCallId, input }
    : { mutationInputRef: only.mutationInputRef, input };
}

/**
 * Spends `ready` on `effect`: the gate refuses a forged, copied or spent value, an intent the
 * turn did not declare, or `args` other than the intent's bound input, before anything runs;
 * then the witness must name this session and step (else the effect does not run and the step
 * fails with `mutation.use_evidence_missing`).
 *
 * @param ready - A `MutationReady` from `admitMutation`.
 * @param binding - The session and step it must be linked to.
 * @param request - The intent (optional when the turn declares one) and its exact input.
 * @param effect - The side effect.
 * @param onWitness - Receives the witness as soon as the gate has checked `ready` (before the
 *   link check and the effect), so a failed effect can still be recorded under its policy.
 * @returns The effect's value and the witness it ran under.
 * @throws `TypestateError` for a forged or reused value, an undeclared intent or another input;
 *   {@link StepFailure} for a missing link or an ambiguous intent; whatever the effect throws.
 */
export async function performBoundMutation<TTools extends ToolDefinitions, TValue>(
  ready: MutationReady<TTools>,
  binding: MutationBinding,
  request: { readonly intent?: IntentChoice | undefined; readonly input: unknown },
  effect: (witness: MutationWitness) => TValue | Promise<TValue>,
  onWitness: (witness: MutationWitness) => void,
): Promise<{ readonly value: Awaited<TValue>; readonly witness: MutationWitness }> {
  // A forged or copied value has no witness to pick an intent from: refuse it as the gate would.
  expectMinted(ready, 'MutationReady');
  const target = targetOf(ready.witness, request.intent, request.input);
  const done = await performMutation(ready, target, (_input, witness) => {
    onWitness(witness);
    const unlinked = [
      witness.sessionRefs.includes(binding.sessionRef) ? undefined : `sessionRefs lack ${binding.sessionRef}`,
      witness.trajectoryRefs.includes(binding.stepRef) ? undefined : `trajectoryRefs lack ${binding.stepRef}`,
    ].filter((reason) => reason !== undefined);
    if (unlinked.length > 0) {
      throw new StepFailure(
        ['mutation.use_evidence_missing'],
        `the turn ${witness.callId} was not admitted for this step (${unlinked.join('; ')}): close the turn with the step's turnRefs`,
      );
    }
    return effect(witness);
  });
  return { value: done.value, witness: done.witness };
}

/**
 * The witness ref of a performed mutation: `turn://<callId>/<joinSetDigest>`, naming the closed
 * turn and its join-set digest.
 *
 * @param witness - The mutation witness.
 * @returns The ref.
 */
export function mutationWitnessRef(witness: MutationWitness): string {
  return `turn://${encodeURIComponent(witness.callId)}/${witness.joinSetDigest}`;
}

/** The policy digest the turn was admitted under (the envelope's `policyDigest`). */
export function mutationPolicyDigest(witness: MutationWitness): string {
  return witness.mutationPolicyDigest;
}
