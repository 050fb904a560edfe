/**
 * The one registry of minted and spent values, and the brand that types them.
 *
 * A branded type is the data intersected with a class that has an ES `#private` member and
 * exists only in types: no object literal, spread, rest copy or hand-built object has that
 * member, so none is assignable to a state type. Because a cast, `Object.assign`, a JSON
 * round-trip or `structuredClone` can still produce a value the compiler accepts, every
 * transition also checks this module's registry of the exact objects the transition functions
 * minted, and fails closed on anything else. Spending (an intent of a `MutationReady` run once)
 * is recorded here too.
 *
 * @module
 */
import { TypestateError } from './errors.ts';
import type { BrandName, TurnStateName } from './states.ts';

export { deepFreeze } from '../internal/freeze.ts';

/**
 * The nominal part of every brand, for types only (no value of this class exists). The
 * `#private` member makes it nominal; `'~state'` names the brand, so two brands are distinct
 * and {@link StateOf} can read it. `'~state'` is absent at run time.
 */
// biome-ignore lint/correctness/noUnusedPrivateClassMembers: `#brand` exists for its nominal typing (a declared class, never instantiated)
declare class StateBrand<TState extends BrandName> {
  #brand: unknown;
  /** The brand's name, for types only: always `undefined` at run time. */
  readonly '~state'?: TState;
}

/**
 * A value of brand `TState` (a turn state, or a checked transcript): the data `TData` plus a
 * nominal brand only the minting functions give. A spread, rest copy or object literal of the
 * same shape is not assignable to it (`Property '#brand' is missing`).
 *
 * @example
 * ```ts
 * import type { JoinClosed } from 'turngate';
 * import type { Branded } from 'turngate/types';
 * type IsBranded = JoinClosed extends Branded<'JoinClosed', object> ? true : false; //=> true
 * declare const closed: JoinClosed;
 * // @ts-expect-error -- a copy loses the brand: Property '#brand' is missing
 * const copy: JoinClosed = { ...closed };
 * ```
 */
export type Branded<TState extends BrandName, TData> = TData & StateBrand<TState>;

/**
 * The brand a type carries (`'JoinClosed'`, ...), or `never` for a type without one.
 *
 * @example
 * ```ts
 * import type { JoinClosed } from 'turngate';
 * import type { StateOf } from 'turngate/types';
 * const state: StateOf<JoinClosed> = 'JoinClosed';
 * ```
 */
export type StateOf<T> = T extends { readonly '~state'?: infer TState extends BrandName } ? TState : never;

const minted = new WeakMap<object, BrandName>();

/**
 * Freezes a value, records it as minted for `state`, and brands its type. Internal: only
 * transition functions (and the transcripts layer, for `SendableTranscript`) call it.
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

const spent = new WeakMap<object, Set<string>>();

/**
 * Spends `key` of the turn `lineage` once: `true` the first time, `false` after. Internal: the
 * mutation gate spends each intent this way under the turn's lineage (see `turnLineage`), so
 * every `JoinClosed` of one turn (re-closed, closed again from the same `ToolUse`, or from
 * another `ToolUse` of the same requests) shares what ran.
 */
export function spendOnce(lineage: object, key: string): boolean {
  let keys = spent.get(lineage);
  if (keys === undefined) {
    keys = new Set();
    spent.set(lineage, keys);
  }
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

/** Whether `key` of the turn `lineage` was spent. Internal. */
export function isSpent(lineage: object, key: string): boolean {
  return spent.get(lineage)?.has(key) === true;
}
