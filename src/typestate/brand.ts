/**
 * The phantom brand of the turn states and the runtime registry that backs it.
 *
 * The brand key is a module-private `unique symbol` that exists only in types: no code outside
 * this module can name it, so no object literal has it. Because a cast (`{} as JoinClosed`),
 * a spread, a JSON round-trip or `structuredClone` could still produce a value the compiler
 * accepts, every transition also checks a module-private registry of the exact objects the
 * transition functions minted, and fails closed on anything else.
 *
 * @module
 */

import { TypestateError } from './errors.ts';

export { deepFreeze } from '../internal/freeze.ts';

declare const stateBrand: unique symbol;

/**
 * The names of the turn states, in chain order. Source: HARNESS-TYPESTATE §2.
 *
 * @example
 * ```ts
 * import type { TurnStateName } from 'turngate';
 * const chain: TurnStateName[] = ['CallSpec', 'ToolRequests', 'ToolResults', 'ToolUse', 'JoinClosed', 'MutationReady'];
 * ```
 */
export type TurnStateName = 'CallSpec' | 'ToolRequests' | 'ToolResults' | 'ToolUse' | 'JoinClosed' | 'MutationReady';

/**
 * Every brand the registry mints: the turn states, and a provider transcript that passed its
 * check (`SendableTranscript`, minted by the transcripts layer).
 *
 * @example
 * ```ts
 * import type { BrandName } from 'turngate';
 * const names: BrandName[] = ['JoinClosed', 'SendableTranscript'];
 * ```
 */
export type BrandName = TurnStateName | 'SendableTranscript';

/**
 * A value of brand `TState` (a turn state, or a checked transcript): the data `TData` plus a
 * phantom brand only the minting functions can give.
 *
 * @example
 * ```ts
 * import type { Branded, JoinClosed } from 'turngate';
 * // JoinClosed is Branded<'JoinClosed', {...}>: no object literal can be one.
 * type IsBranded = JoinClosed extends Branded<'JoinClosed', object> ? true : false; //=> true
 * ```
 */
export type Branded<TState extends BrandName, TData> = TData & {
  readonly [stateBrand]: { readonly [K in TState]: true };
};

const minted = new WeakMap<object, BrandName>();

/**
 * Freezes a value, records it as minted for `state`, and brands its type. Internal: only
 * transition functions call it.
 */
export function mint<TState extends BrandName, TData extends object>(
  state: TState,
  data: TData,
): Branded<TState, TData> {
  const value = Object.freeze(data);
  minted.set(value, state);
  return value as Branded<TState, TData>;
}

/** The state a value was minted as, or `undefined` for anything not minted here. */
export function mintedState(value: unknown): BrandName | undefined {
  return value !== null && typeof value === 'object' ? minted.get(value) : undefined;
}

/** Forgets a minted value (a spent `MutationReady`). */
export function spend(value: object): void {
  minted.delete(value);
}

/** @internal Throws unless `value` was minted as `state`. */
export function expectMinted(value: unknown, state: TurnStateName): void {
  const actual = mintedState(value);
  if (actual === state) return;
  if (actual === undefined)
    throw new TypestateError(
      'forged',
      state,
      'this value was not returned by a transition function (a literal, cast, spread or copy)',
    );
  throw new TypestateError('wrong_state', state, `this value is a ${actual}`);
}
