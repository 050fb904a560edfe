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

declare const stateBrand: unique symbol;

/** The names of the turn states, in chain order. Source: HARNESS-TYPESTATE §2. */
export type TurnStateName = 'CallSpec' | 'ToolRequests' | 'ToolResults' | 'ToolUse' | 'JoinClosed' | 'MutationReady';

/**
 * A value of turn state `TState`: the data `TData` plus a phantom brand only the transition
 * functions can give.
 */
export type Branded<TState extends TurnStateName, TData> = TData & { readonly [stateBrand]: { readonly [K in TState]: true } };

const minted = new WeakMap<object, TurnStateName>();

/**
 * Freezes plain data (objects and arrays) all the way down, so evidence a state holds cannot be
 * edited after the check that minted it. Tool registries are passed over: they belong to the
 * caller and hold schemas.
 */
export function deepFreeze<T>(value: T, skip?: object): T {
  if (value === null || typeof value !== 'object' || value === skip || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], skip);
  return value;
}

/**
 * Freezes a value, records it as minted for `state`, and brands its type. Internal: only
 * transition functions call it.
 */
export function mint<TState extends TurnStateName, TData extends object>(state: TState, data: TData): Branded<TState, TData> {
  const value = Object.freeze(data);
  minted.set(value, state);
  return value as Branded<TState, TData>;
}

/** The state a value was minted as, or `undefined` for anything not minted here. */
export function mintedState(value: unknown): TurnStateName | undefined {
  return value !== null && typeof value === 'object' ? minted.get(value) : undefined;
}

/** Forgets a minted value (a spent `MutationReady`). */
export function spend(value: object): void {
  minted.delete(value);
}
