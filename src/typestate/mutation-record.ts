/**
 * What the mutation gate binds and records: the witness an admitted mutation runs under, and what
 * the gate did with each intent of a turn (kept in the re-closed turn).
 *
 * @module
 */
import type { Failure } from '../failures/index.ts';
import type { MutationIntent } from './intents.ts';
import type { EffectRecord } from './ledger.ts';
import type { ToolErrorEnvelope } from './results.ts';

/**
 * The witness of an admitted mutation: the join-gate linkage (the closed turn's join-set digest,
 * its session and trajectory refs), the policy, the capabilities, and the intents it binds.
 *
 * @example
 * ```ts
 * import type { MutationWitness } from 'turngate/types';
 * declare const witness: MutationWitness;
 * witness.intents.map((i) => i.inputDigest);
 * ```
 */
export interface MutationWitness {
  /** Always `turngate.mutation.v2`. */
  readonly witnessKind: 'turngate.mutation.v2';
  /** The turn's `callId`. */
  readonly callId: string;
  /** The join-set digest of the closed turn: the join-gate witness linkage. */
  readonly joinSetDigest: string;
  /** The mutation policy digest the turn and the active policy share. */
  readonly mutationPolicyDigest: string;
  /** The capabilities required (and claimed), sorted. */
  readonly capabilities: readonly string[];
  /** The turn's session refs (non-empty). */
  readonly sessionRefs: readonly string[];
  /** The turn's trajectory refs (non-empty). */
  readonly trajectoryRefs: readonly string[];
  /** The mutation intents this admission binds, each with the digest of its exact input. */
  readonly intents: readonly MutationIntent[];
}

/**
 * What the gate did with one intent of a turn's pending mutation calls, as `recordMutations`
 * records it in the re-closed turn.
 *
 * @example
 * ```ts
 * import type { MutationRecord } from 'turngate/types';
 * declare const record: MutationRecord;
 * if (record.outcome === 'not_admitted') record.failures.map((f) => f.class);
 * ```
 */
export type MutationRecord =
  | {
      /** The intent ran; its output is the call's result. */
      readonly outcome: 'performed';
      readonly intent: MutationIntent;
      /** The witness it ran under. */
      readonly witness: MutationWitness;
    }
  | {
      /** The intent ran and threw, or returned an output that fails its schema. */
      readonly outcome: 'failed';
      readonly intent: MutationIntent;
      readonly witness: MutationWitness;
      /** The error result the call got. */
      readonly error: ToolErrorEnvelope;
    }
  | {
      /**
       * The effect did not run: the admission's effect ledger already held it (an earlier turn,
       * retry, process or run). The call's result is the recorded one: the output of a
       * `completed` effect, the error of a `failed` one, and for `started` or
       * `unknown_after_crash` an `effect_outcome_unknown` error ("check before retrying").
       */
      readonly outcome: 'replayed';
      readonly intent: MutationIntent;
      readonly witness: MutationWitness;
      /** What the ledger holds. */
      readonly record: EffectRecord;
    }
  | {
      /** The gate refused the turn: nothing ran. */
      readonly outcome: 'not_admitted';
      readonly intent: MutationIntent;
      /** Why (`admitMutation`'s failures). */
      readonly failures: readonly Failure[];
    }
  | {
      /** Admitted (or not tried), but the turn was re-closed before it ran. */
      readonly outcome: 'not_performed';
      readonly intent: MutationIntent;
    };
