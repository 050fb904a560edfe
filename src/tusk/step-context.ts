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
import type { EffectRequest, HarnessStepContext, WorkItem } from './loop-types.ts';
import {
  mutationPolicyDigest,
  mutationWitnessRef,
  performBoundMutation,
  type MutationWitness,
} from './mutation-gate.ts';

/** A hook's failure as failure classes: a `StepFailure`'s classes, else `step_uncaught_error`. */
export function failureOf(error: unknown): { failureClasses: readonly string[]; detail: string } {
  if (error instanceof StepFailure) return { failureClasses: error.failureClasses, detail: error.message };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { failureClasses: ['step_uncaught_error'], detail: message };
}

interface Authority {
  readonly witnessRefs?: readonly string[];
  readonly policyDigest?: string;
  readonly instructionRef?: string;
  readonly mutation?: boolean;
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
  const { effects, instructionRefs } = attempt;
  const sessionRef = `harness-session://${attempt.sessionId}`;
  const stepRef = `harness-step://${attempt.stepId}`;
  const record = (request: EffectRequest, resultClass: string, payload: unknown, authority: Authority) => {
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
  };
  const argsChecked = (request: EffectRequest) => {
    try {
      hostEffectArgsDigest(request.args);
    } catch (error) {
      throw new StepFailure(['host_effect_args_invalid'], `${request.action}: ${(error as Error).message}`);
    }
  };
  /** Runs an effect and records its envelope: accepted with its payload, or its failure class. */
  const performed = async <TPayload>(
    request: EffectRequest,
    authority: () => Authority,
    perform: () => Promise<TPayload>,
  ): Promise<TPayload> => {
    let payload: TPayload;
    try {
      payload = await perform();
    } catch (error) {
      try {
        record(request, failureOf(error).failureClasses[0] ?? 'step_uncaught_error', null, authority());
      } catch {
        // Refused before it ran (no authority to record, e.g. a forged MutationReady): no envelope.
      }
      throw error;
    }
    try {
      record(request, 'accepted', payload, authority());
    } catch (error) {
      record(request, 'host_effect_payload_invalid', null, authority());
      throw new StepFailure(['host_effect_payload_invalid'], `${request.action}: ${(error as Error).message}`);
    }
    return payload;
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
    effect: async (request, perform) => {
      if (isMutationHostAction(request.action)) {
        throw new StepFailure(
          ['mutation.use_evidence_missing'],
          `\`${request.action}\` is mutation-capable: perform it with ctx.mutate and a MutationReady`,
        );
      }
      argsChecked(request);
      return performed(
        request,
        () => ({}),
        async () => perform(),
      );
    },
    mutate: async (ready, request, perform) => {
      const instructionRef = trimWhiteSpace(request.instructionRef ?? '');
      if (instructionRef === '') {
        throw new StepFailure(
          ['mutation.use_evidence_missing'],
          `\`${request.action}\` is a mutation: it needs a non-blank instructionRef`,
        );
      }
      argsChecked(request);
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
      const payload = await performed(request, authority, async () => {
        const target = { intent: request.intent, input: request.args ?? null };
        const done = await performBoundMutation(ready, { sessionRef, stepRef }, target, perform, (w) => {
          witness = w;
        });
        return done.value;
      });
      instructionRefs.push(instructionRef);
      return payload;
    },
  };
}
