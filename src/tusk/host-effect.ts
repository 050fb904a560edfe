/**
 * The host-effect envelope (`premath.host_effect.v0`): one typed record per effect a step
 * performs, with `policyDigest` and `instructionRef` required on mutation-capable actions. Pure.
 *
 * @module
 */
import { canonicalJson, trimWhiteSpace, type JsonValue, isBlank } from '../canonical/index.ts';
import { HarnessInputError } from './errors.ts';
import { prefixedDigest } from './refs.ts';

/** The envelope schema. Source: the Tusk harness contract §14.1. */
export const HOST_EFFECT_SCHEMA = 'premath.host_effect.v0';

/**
 * The mutation-capable host actions of the Tusk harness contract §14.2 (issue and dependency
 * mutations, instruction runs, and writes of the harness's own artifacts). An effect with one
 * of these actions needs instruction-linked authority: a `policyDigest` and an `instructionRef`.
 *
 * @example
 * ```ts
 * import { MUTATION_HOST_ACTIONS } from 'turngate/tusk';
 * MUTATION_HOST_ACTIONS.includes('issue.update'); //=> true
 * ```
 */
export const MUTATION_HOST_ACTIONS: readonly string[] = Object.freeze([
  'issue.claim',
  'issue.update',
  'issue.discover',
  'issue.lease_renew',
  'issue.lease_release',
  'dep.add',
  'dep.remove',
  'dep.replace',
  'instruction.run',
  'harness.session.write',
  'harness.feature.write',
  'harness.trajectory.append',
]);

/**
 * One host call's typed record.
 *
 * Source: the Tusk harness contract §14.1.
 *
 * @example
 * ```ts
 * import type { HostEffect } from 'turngate/tusk';
 * declare const effect: HostEffect;
 * const authorized = effect.instructionRef !== undefined;
 * ```
 */
export interface HostEffect {
  /** Always `premath.host_effect.v0`. */
  readonly schema: typeof HOST_EFFECT_SCHEMA;
  /** The canonical action id (e.g. `issue.claim`, `fs.write`). */
  readonly action: string;
  /** `he1_<sha256 hex>` of the canonical JSON of the args (`{}` for none). */
  readonly argsDigest: string;
  /** `accepted`, or the failure class. */
  readonly resultClass: string;
  /**
   * A JSON copy of the action's payload (`null` when it failed before producing one); numbers
   * are JS numbers (integers beyond 2^53 lose precision here, not in any digest).
   */
  readonly payload: JsonValue;
  /** The refs the effect emitted or consumed, in order. */
  readonly witnessRefs: readonly string[];
  /** The policy digest that authorized it (required on mutation-capable actions). */
  readonly policyDigest?: string;
  /** The instruction that authorized it (required on mutation-capable actions). */
  readonly instructionRef?: string;
}

/**
 * The deterministic digest of an effect's args: `he1_` + the lowercase hex SHA-256 of their
 * canonical JSON (sorted keys, no whitespace); `null` or absent args digest as `{}`. premath's
 * `scheme-eval` forms `argsDigest` the same way.
 *
 * Source: the Tusk harness contract §14.1 (`argsDigest`).
 *
 * @param args - The args (JSON).
 * @returns The digest.
 * @throws `JsonInputError` when the args are not JSON.
 * @example
 * ```ts
 * import { hostEffectArgsDigest } from 'turngate/tusk';
 * hostEffectArgsDigest(null); //=> 'he1_44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 * ```
 */
export function hostEffectArgsDigest(args: JsonValue | object | undefined): string {
  return prefixedDigest('he1_', args === null || args === undefined ? {} : args);
}

/**
 * The one form in which host action ids are compared: Unicode NFKC, lower case, white space
 * trimmed, so `ISSUE.UPDATE`, ` issue.update ` and a full-width `ｉｓｓｕｅ.ｕｐｄａｔｅ` are the
 * action `issue.update` (the ids of §14.2 are lower-case ASCII).
 *
 * @param action - The action id as given.
 * @returns Its canonical form.
 * @example
 * ```ts
 * import { canonicalHostAction } from 'turngate/tusk';
 * canonicalHostAction(' ISSUE.Update'); //=> 'issue.update'
 * ```
 */
export function canonicalHostAction(action: string): string {
  return trimWhiteSpace(action.normalize('NFKC').toLowerCase());
}

/**
 * Whether an action is mutation-capable: listed in {@link MUTATION_HOST_ACTIONS} (compared in
 * {@link canonicalHostAction}'s form), declared so by the caller, or not a plain lower-case
 * ASCII id in that form (`issue.update` followed by a zero-width space, or spelled with a
 * Cyrillic `е`, could be taken for `issue.update` by a host: it needs the same authority).
 *
 * @param action - The action id.
 * @param declared - The caller's declaration (an effect performed through `MutationReady`).
 * @returns `true` when the action needs instruction-linked authority.
 * @example
 * ```ts
 * import { isMutationHostAction } from 'turngate/tusk';
 * [isMutationHostAction('issue.list'), isMutationHostAction('dep.add'), isMutationHostAction('ISSUE.UPDATE'), isMutationHostAction('fs.write', true), isMutationHostAction('issue.updat\u0435')]; //=> [false, true, true, true, true]
 * ```
 */
export function isMutationHostAction(action: string, declared = false): boolean {
  if (declared) return true;
  const canonical = canonicalHostAction(action);
  // Fail closed: an id that is not plain lower-case ASCII after the canonical form (a format
  // character such as U+200B, a Cyrillic or Greek look-alike letter) may stand for a listed one.
  return MUTATION_HOST_ACTIONS.includes(canonical) || (canonical !== '' && !PLAIN_ACTION.test(canonical));
}

/** A host action id in canonical form as §14.2 writes them: lower-case ASCII letters, digits, `.`, `_`, `-`, `:`, `/`. */
const PLAIN_ACTION = /^[a-z0-9][a-z0-9._:/-]*$/;

/**
 * What {@link hostEffect} builds an envelope from.
 *
 * @example
 * ```ts
 * import type { HostEffectInput } from 'turngate/tusk';
 * const input: HostEffectInput = { action: 'issue.update', args: { id: 'bd-7', status: 'blocked' }, resultClass: 'accepted',
 *   payload: { ok: true }, policyDigest: 'pol.issues-write.v2', instructionRef: 'instructions/bd-7.json' };
 * ```
 */
export interface HostEffectInput {
  /** The action id. */
  readonly action: string;
  /** The args (JSON). */
  readonly args?: JsonValue | object | undefined;
  /** `accepted` or the failure class. */
  readonly resultClass: string;
  /** The payload (JSON, checked); `undefined` is `null`. */
  readonly payload?: unknown;
  /** The refs the effect emitted or consumed. */
  readonly witnessRefs?: readonly string[] | undefined;
  /** The authorizing policy digest. */
  readonly policyDigest?: string | undefined;
  /** The authorizing instruction. */
  readonly instructionRef?: string | undefined;
  /** Declares the effect mutation-capable even when its action is not in {@link MUTATION_HOST_ACTIONS}. */
  readonly mutation?: boolean | undefined;
}

/**
 * Why an effect lacks mutation authority, or `undefined` when it has it (or needs none): a
 * mutation-capable action needs a non-blank `policyDigest` and `instructionRef`.
 *
 * Source: the Tusk harness contract §14 (mutation host calls are instruction-linked and fail
 * closed when authority evidence is missing), §14.1.
 *
 * @param input - The action, the declaration and the authority presented.
 * @returns The missing field and why, or `undefined`.
 * @example
 * ```ts
 * import { missingMutationAuthority } from 'turngate/tusk';
 * missingMutationAuthority({ action: 'issue.claim', policyDigest: 'pol.1' })?.field; //=> 'instructionRef'
 * ```
 */
export function missingMutationAuthority(
  input: Pick<HostEffectInput, 'action' | 'policyDigest' | 'instructionRef' | 'mutation'>,
): { readonly field: 'policyDigest' | 'instructionRef'; readonly expected: string } | undefined {
  if (!isMutationHostAction(input.action, input.mutation === true)) return undefined;
  for (const field of ['policyDigest', 'instructionRef'] as const) {
    const value = input[field];
    if (value === undefined || isBlank(value)) {
      return {
        field,
        expected: `a non-blank ${field}: \`${input.action}\` is mutation-capable (mutation.use_evidence_missing)`,
      };
    }
  }
  return undefined;
}

/**
 * Builds a host-effect envelope: the args digest, the result class, the payload, the ordered
 * witness refs (trimmed, blanks and repeats dropped), and, for mutation-capable actions, the
 * required `policyDigest` and `instructionRef`.
 *
 * Source: the Tusk harness contract §14.1.
 *
 * @param input - The effect.
 * @returns The frozen envelope.
 * @throws {@link HarnessInputError} for a blank action or result class, non-JSON args or payload,
 *   or a mutation-capable action without `policyDigest` or `instructionRef`.
 * @example
 * ```ts
 * import { hostEffect } from 'turngate/tusk';
 * const effect = hostEffect({ action: 'issue.list', args: { status: 'open' }, resultClass: 'accepted', payload: { count: 2 } });
 * [effect.schema, effect.argsDigest.startsWith('he1_'), effect.policyDigest]; //=> ['premath.host_effect.v0', true, undefined]
 * ```
 */
export function hostEffect(input: HostEffectInput): HostEffect {
  const action = trimWhiteSpace(input.action);
  if (action === '') throw new HarnessInputError('effect.action', 'expected a non-blank action id');
  const resultClass = trimWhiteSpace(input.resultClass);
  if (resultClass === '') throw new HarnessInputError('effect.resultClass', 'expected a non-blank result class');
  const missing = missingMutationAuthority({ ...input, action });
  if (missing !== undefined) throw new HarnessInputError(`effect.${missing.field}`, missing.expected);
  const json = (value: unknown, field: string): JsonValue => {
    if (value === undefined) return null;
    try {
      return JSON.parse(canonicalJson(value as JsonValue)) as JsonValue;
    } catch (error) {
      throw new HarnessInputError(field, `expected a JSON value: ${(error as Error).message}`);
    }
  };
  let argsDigest: string;
  try {
    argsDigest = hostEffectArgsDigest(input.args);
  } catch (error) {
    throw new HarnessInputError('effect.args', `expected a JSON value: ${(error as Error).message}`);
  }
  const witnessRefs = [...new Set((input.witnessRefs ?? []).map((r) => trimWhiteSpace(r)).filter((r) => r !== ''))];
  const envelope: {
    -readonly [K in keyof HostEffect]: HostEffect[K];
  } = {
    schema: HOST_EFFECT_SCHEMA,
    action,
    argsDigest,
    resultClass,
    payload: json(input.payload, 'effect.payload'),
    witnessRefs: Object.freeze(witnessRefs),
  };
  for (const field of ['policyDigest', 'instructionRef'] as const) {
    const value = trimWhiteSpace(input[field] ?? '');
    if (value !== '') envelope[field] = value;
  }
  return Object.freeze(envelope);
}
