/**
 * The context a step's hooks get for one attempt: its ids and refs, and the two doors for
 * effects (`effect`, recording a host-effect envelope) and mutations (`mutate`, through
 * `MutationReady` only).
 *
 * @module
 */
import { trimWhiteSpace } from '../canonical/index.ts';
import { StepFailure } from './errors.ts';
import { hostEffect, hostEffectArgsDigest, isMutationHostAction, type HostEffect } from './host-effect.ts';
import type { EffectRequest, HarnessStepContext, MutationRequest, WorkItem } from './loop-types.ts';
import {
  mutationPolicyDigest,
  mutationWitnessRef,
  performBoundMutation,
  type MutationReady,
  type MutationWitness,
  type ToolDefinitions,
} from './mutation-gate.ts';

/** A hook's failure as failure classes: a `StepFailure`'s classes, else `step_uncaught_error`. */
export function failureOf(error: unknown): { failureClasses: readonly string[]; detail: string } {
  if (error instanceof StepFailure) return { failureClasses: error.failures, detail: error.message };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { failureClasses: ['step_uncaught_error'], detail: message };
}

interface Authority {
  readonly witnessRefs?: readonly string[];
  readonly policyDigest?: string;
  readonly instructionRef?: string;
  readonly mutation?: boolean;
}

/** Where one attempt's effects are recorded: its session and step refs, the envelopes, the mutations' instruction refs. */
interface AttemptRecord {
  readonly sessionRef: string;
  readonly stepRef: string;
  readonly effects: HostEffect[];
  readonly instructionRefs: string[];
}

/** Appends the envelope of an effect to `effects`. */
function record(
  effects: HostEffect[],
  request: EffectRequest,
  resultClass: string,
  payload: unknown,
  authority: Authority,
): void {
  effects.push(
    hostEffect({
      action: request.action,
      args: request.args,
      resultClass,
      payload,
      witnessRefs: [...(request.witnessRefs ?? []), ...(authority.witnessRefs ?? [])],
      policyDigest: authority.policyDigest,
      instructionRef: authority.instructionRef,
      mutation: authority.mutation,
    }),
  );
}

/** Refuses an effect whose args have no digest (a `StepFailure` `host_effect_args_invalid`), before it runs. */
function checkArgs(request: EffectRequest): void {
  try {
    hostEffectArgsDigest(request.args);
  } catch (error) {
    throw new StepFailure(['host_effect_args_invalid'], `${request.action}: ${(error as Error).message}`);
  }
}

/**
 * Runs an effect and records its envelope: accepted with its payload, or its failure class.
 * `authority` is read once the effect has run (a mutation's witness is known only then).
 */
async function performed<TPayload>(
  effects: HostEffect[],
  request: EffectRequest,
  authority: () => Authority,
  perform: () => Promise<TPayload>,
): Promise<TPayload> {
  let payload: TPayload;
  try {
    payload = await perform();
  } catch (error) {
    try {
      record(effects, request, failureOf(error).failureClasses[0] ?? 'step_uncaught_error', null, authority());
    } catch {
      // Refused before it ran (no authority to record, e.g. a forged MutationReady): no envelope.
    }
    throw error;
  }
  try {
    record(effects, request, 'accepted', payload, authority());
  } catch (error) {
    record(effects, request, 'host_effect_payload_invalid', null, authority());
    throw new StepFailure(['host_effect_payload_invalid'], `${request.action}: ${(error as Error).message}`);
  }
  return payload;
}

/** `ctx.effect`: an effect that is not mutation-capable, run and recorded. */
function effect<TPayload>(
  into: AttemptRecord,
  request: EffectRequest,
  perform: () => TPayload | Promise<TPayload>,
): Promise<TPayload> {
  if (isMutationHostAction(request.action)) {
    throw new StepFailure(
      ['mutation.use_evidence_missing'],
      `\`${request.action}\` is mutation-capable, or not a plain lower-case ASCII action id that could pass for one: perform it with ctx.mutate and a MutationReady`,
    );
  }
  checkArgs(request);
  return performed(
    into.effects,
    request,
    () => ({}),
    async () => perform(),
  );
}

/** `ctx.mutate`: a mutation through the gate, bound to the attempt's session and step, recorded with its witness. */
async function mutate<TTools extends ToolDefinitions, TPayload>(
  into: AttemptRecord,
  ready: MutationReady<TTools>,
  request: MutationRequest,
  perform: (witness: MutationWitness) => TPayload | Promise<TPayload>,
): Promise<TPayload> {
  const instructionRef = trimWhiteSpace(request.instructionRef ?? '');
  if (instructionRef === '') {
    throw new StepFailure(
      ['mutation.use_evidence_missing'],
      `\`${request.action}\` is a mutation: it needs a non-blank instructionRef`,
    );
  }
  checkArgs(request);
  let witness: MutationWitness | undefined;
  const authority = (): Authority =>
    witness === undefined
      ? { instructionRef, mutation: true }
      : {
          instructionRef,
          mutation: true,
          policyDigest: mutationPolicyDigest(witness),
          witnessRefs: [mutationWitnessRef(witness)],
        };
  const { sessionRef, stepRef } = into;
  const payload = await performed(into.effects, request, authority, async () => {
    const target = { intent: request.intent, input: request.args ?? null };
    const done = await performBoundMutation(ready, { sessionRef, stepRef }, target, perform, (w) => {
      witness = w;
    });
    return done.value;
  });
  into.instructionRefs.push(instructionRef);
  return payload;
}

/**
 * Builds the step context for one attempt; the envelopes of its effects go to `effects`, the
 * instruction refs of its mutations to `instructionRefs`.
 */
export function stepContext<TTarget>(attempt: {
  readonly item: WorkItem<TTarget>;
  readonly stepId: string;
  readonly attempt: number;
  readonly now: Date;
  readonly sessionId: string;
  readonly effects: HostEffect[];
  readonly instructionRefs: string[];
}): HarnessStepContext<TTarget> {
  const sessionRef = `harness-session://${attempt.sessionId}`;
  const stepRef = `harness-step://${attempt.stepId}`;
  const into: AttemptRecord = {
    sessionRef,
    stepRef,
    effects: attempt.effects,
    instructionRefs: attempt.instructionRefs,
  };
  return {
    item: attempt.item,
    stepId: attempt.stepId,
    attempt: attempt.attempt,
    sessionRef,
    stepRef,
    get turnRefs() {
      return { sessionRefs: [sessionRef], trajectoryRefs: [stepRef] };
    },
    now: attempt.now,
    effect: async (request, perform) => effect(into, request, perform),
    // The gate checks at run time that `ready` is a minted MutationReady (expectMinted).
    mutate: async (ready, request, perform) => mutate(into, ready as MutationReady, request, perform),
  };
}
