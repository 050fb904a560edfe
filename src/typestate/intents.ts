/**
 * Mutation intents: what a closed turn declares it may mutate, each bound to the digest of its
 * exact input.
 *
 * @module
 */
import { digest, type JsonValue } from '../canonical/index.ts';
import { isPendingMutation } from './results.ts';

/**
 * One mutation a closed turn declares, bound to the canonical digest of its input:
 * - `tool_call`: a call the model made to a `mutation: true` tool, recorded pending (phase 1);
 *   the gate runs it and its output becomes the call's result (phase 2);
 * - `mutation_input`: a `consumed` row's `mutationInputRef` with its `mutationInput`: a mutation
 *   the turn built from a result.
 *
 * `admitMutation` binds a `MutationReady` to all of them; `performMutation` and
 * `performMutationTool` run only these, with exactly these inputs, once each.
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.4 (consumed rows carry the
 * mutation input ref), §4.6.
 *
 * @example
 * ```ts
 * import type { MutationIntent } from 'turngate/types';
 * declare const intent: MutationIntent;
 * const target = intent.kind === 'tool_call' ? intent.toolName : intent.mutationInputRef;
 * ```
 */
export type MutationIntent =
  | {
      /** A requested call of a mutation tool. */
      readonly kind: 'tool_call';
      /** The call. */
      readonly toolCallId: string;
      /** The mutation tool it calls. */
      readonly toolName: string;
      /** `sha256:` digest of its parsed input. */
      readonly inputDigest: string;
    }
  | {
      /** A mutation input built from a consumed result. */
      readonly kind: 'mutation_input';
      /** The consumed result's call. */
      readonly toolCallId: string;
      /** The ref naming the mutation input. */
      readonly mutationInputRef: string;
      /** `sha256:` digest of the mutation input. */
      readonly inputDigest: string;
    };

/** The key an intent is spent under (and found by, from the call id or ref a target names). Internal. */
export function intentKey(
  intent:
    | Pick<Extract<MutationIntent, { kind: 'tool_call' }>, 'kind' | 'toolCallId'>
    | Pick<Extract<MutationIntent, { kind: 'mutation_input' }>, 'kind' | 'mutationInputRef'>,
): string {
  return intent.kind === 'tool_call' ? `tool_call:${intent.toolCallId}` : `mutation_input:${intent.mutationInputRef}`;
}

/** The intents of a turn: pending mutation calls, then consumed rows with a bound mutation input. Internal. */
export function deriveIntents(
  requests: readonly { readonly toolCallId: string; readonly toolName: string; readonly inputDigest: string }[],
  mutationTools: ReadonlySet<string>,
  results: readonly {
    readonly toolCallId: string;
    readonly status: string;
    readonly error?: { readonly errorCode: string };
  }[],
  uses: readonly {
    readonly toolCallId: string;
    readonly disposition: string;
    readonly evidence?: { readonly mutationInputRef?: string; readonly mutationInput?: unknown };
  }[],
): MutationIntent[] {
  const pending = new Set(results.filter(isPendingMutation).map((r) => r.toolCallId));
  const intents: MutationIntent[] = [];
  for (const r of requests) {
    if (mutationTools.has(r.toolName) && pending.has(r.toolCallId)) {
      intents.push({ kind: 'tool_call', toolCallId: r.toolCallId, toolName: r.toolName, inputDigest: r.inputDigest });
    }
  }
  const refs = new Set<string>();
  for (const u of uses) {
    const ref = u.evidence?.mutationInputRef;
    if (u.disposition !== 'consumed' || ref === undefined || u.evidence?.mutationInput === undefined) continue;
    if (refs.has(ref)) continue;
    refs.add(ref);
    intents.push({
      kind: 'mutation_input',
      toolCallId: u.toolCallId,
      mutationInputRef: ref,
      inputDigest: digest(u.evidence.mutationInput as JsonValue),
    });
  }
  return intents;
}
