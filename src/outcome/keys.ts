/**
 * Tolerant key equivalence, the TypeScript form of ADR 0014's symbol/string rule: a key the
 * contract names is satisfied by the same name as a string key, a `Symbol.for(name)` key, a
 * `Map` entry, or its camelCase/snake_case twin (`resultDigest` / `result_digest`).
 *
 * Source: ADR 0014, Decision §2 (tolerant object-key validation).
 *
 * @module
 */

/**
 * Where a key of a delivered value came from: an own enumerable string key, an own enumerable
 * symbol key, or an entry of a `Map`.
 *
 * @example
 * ```ts
 * import type { KeySource } from 'turngate/outcome';
 * const sources: KeySource[] = ['string_key', 'symbol_key', 'map_entry'];
 * ```
 */
export type KeySource = 'string_key' | 'symbol_key' | 'map_entry';

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const CAMEL = /^[a-z][A-Za-z0-9]*$/;

/** `result_digest` -> `resultDigest`, `a_b_c` -> `aBC`: each word after the first capitalized. */
function camelOfSnake(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, first: string) => first.toUpperCase());
}

/** `resultDigest` -> `result_digest`, `fetchURL` -> `fetch_url`: split before capitals, a capital run kept as one word. */
function snakeOfCamel(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * Whether two different names are camelCase/snake_case twins: one is snake_case
 * (`result_digest`), the other camelCase (`resultDigest`), and capitalizing the snake_case
 * words after the first gives the camelCase name (`a_b_c` / `aBC`), or splitting the camelCase
 * name before its capitals, a run of capitals kept as one word, gives the snake_case name
 * (`fetchURL` / `fetch_url`). Names in other styles (`Body`, `result-digest`, `_id`, `a__b`)
 * have no twin; case alone never makes one (`body` / `Body`).
 *
 * @param a - A name.
 * @param b - Another name.
 * @returns Whether they are twins; `false` for equal names.
 * @example
 * ```ts
 * import { isCaseTwin } from 'turngate/outcome';
 * isCaseTwin('resultDigest', 'result_digest'); //=> true
 * isCaseTwin('fetchURL', 'fetch_url'); //=> true
 * isCaseTwin('body', 'Body'); //=> false
 * ```
 */
export function isCaseTwin(a: string, b: string): boolean {
  // Twins start with the same lowercase letter: most pairs end here, with no allocation.
  if (a === b || a.charCodeAt(0) !== b.charCodeAt(0)) return false;
  const formsA = formsOf(a);
  const formsB = formsOf(b);
  return (
    (formsA.camel !== undefined && formsB.snake !== undefined && (formsA.camel === b || formsB.snake === a)) ||
    (formsB.camel !== undefined && formsA.snake !== undefined && (formsB.camel === a || formsA.snake === b))
  );
}

/** A name's other spelling: `camel` when the name is snake_case, `snake` when it is camelCase. */
interface NameForms {
  readonly camel: string | undefined;
  readonly snake: string | undefined;
}

const FORMS = new Map<string, NameForms>();
const FORMS_CACHED = 4096;
const FORMS_NAME_LENGTH = 256;

/** The other spellings of a name, memoized: delivered values repeat the same few key names. */
function formsOf(name: string): NameForms {
  const cached = FORMS.get(name);
  if (cached !== undefined) return cached;
  const forms: NameForms = {
    camel: SNAKE.test(name) ? camelOfSnake(name) : undefined,
    snake: CAMEL.test(name) ? snakeOfCamel(name) : undefined,
  };
  if (name.length <= FORMS_NAME_LENGTH) {
    if (FORMS.size >= FORMS_CACHED) FORMS.clear();
    FORMS.set(name, forms);
  }
  return forms;
}

/** One key of a delivered value: its name when it can satisfy a contract key, where it came from, and its value. */
export interface KeyEntry {
  /** The key as a name: the string, the `Symbol.for` key, or `undefined` when no contract key can name it. */
  readonly name: string | undefined;
  readonly source: KeySource;
  readonly value: unknown;
  /** How the key is shown in `actualKeys`: `body`, `Symbol.for("body")`, `Symbol(body)`. */
  readonly display: string;
}

/** The value's shape name, as `actualShape` reports it. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Map) return 'map';
  if (value instanceof Set) return 'set';
  return typeof value;
}

/** An entry for a symbol key: named when the symbol is registered (`Symbol.for`), shown either way. */
function symbolEntry(symbol: symbol, source: KeySource, value: unknown): KeyEntry {
  // Built field by field: an object spread here cost several microseconds per key on Node 20.
  const name = Symbol.keyFor(symbol);
  const display = name === undefined ? String(symbol) : `Symbol.for(${JSON.stringify(name)})`;
  return { name, source, value, display };
}

/**
 * The keys of an object (own enumerable string keys, then own enumerable symbol keys) or of a
 * `Map` (its entries, in order). Values are read once each.
 */
export function keyEntries(value: object): KeyEntry[] {
  const entries: KeyEntry[] = [];
  if (value instanceof Map) {
    for (const [key, item] of value) {
      if (typeof key === 'string') entries.push({ name: key, source: 'map_entry', value: item, display: key });
      else if (typeof key === 'symbol') entries.push(symbolEntry(key, 'map_entry', item));
      else
        entries.push({
          name: undefined,
          source: 'map_entry',
          value: item,
          display: key !== null && typeof key === 'object' ? `[${shapeOf(key)}]` : String(key),
        });
    }
    return entries;
  }
  const record = value as Record<PropertyKey, unknown>;
  for (const key of Object.keys(value))
    entries.push({ name: key, source: 'string_key', value: record[key], display: key });
  for (const symbol of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, symbol))
      entries.push(symbolEntry(symbol, 'symbol_key', record[symbol]));
  }
  return entries;
}

/**
 * How a contract key was found among a value's keys. `candidates` are every entry spelled as the
 * key (its own name or a twin), whatever their values: the caller's consumed keys.
 */
export type KeyLookup =
  | {
      readonly status: 'found';
      readonly entry: KeyEntry;
      readonly alias: boolean;
      readonly candidates: readonly KeyEntry[];
    }
  | { readonly status: 'missing'; readonly candidates: readonly KeyEntry[] }
  | { readonly status: 'conflict'; readonly entries: readonly KeyEntry[]; readonly candidates: readonly KeyEntry[] };

const SOURCE_RANK: Readonly<Record<KeySource, number>> = { string_key: 0, symbol_key: 1, map_entry: 2 };

function rank(entry: KeyEntry, key: string): number {
  return (entry.name === key ? 0 : 3) + SOURCE_RANK[entry.source];
}

/**
 * Finds contract key `key` among `entries`: every spelling that satisfies it (same name, any
 * source; or its case twin). Several spellings with different values (by `Object.is`) are a
 * conflict, never a silent pick; equal values resolve to the most direct spelling (the same
 * name before a twin; a string key before a symbol key before a map entry).
 *
 * @param entries - From {@link keyEntries}.
 * @param key - The contract's spelling.
 * @param undefinedIsMissing - Whether a key whose value is `undefined` counts as absent.
 */
export function lookupKey(entries: readonly KeyEntry[], key: string, undefinedIsMissing: boolean): KeyLookup {
  const candidates: KeyEntry[] = [];
  for (const entry of entries)
    if (entry.name !== undefined && (entry.name === key || isCaseTwin(entry.name, key))) candidates.push(entry);
  const present = undefinedIsMissing ? candidates.filter((entry) => entry.value !== undefined) : candidates;
  if (present.length === 0) return { status: 'missing', candidates };
  let first = present[0] as KeyEntry;
  for (const entry of present) if (rank(entry, key) < rank(first, key)) first = entry;
  if (present.some((entry) => !Object.is(entry.value, first.value))) {
    const ordered = [...present].sort((a, b) => rank(a, key) - rank(b, key));
    return { status: 'conflict', entries: ordered, candidates };
  }
  return { status: 'found', entry: first, alias: !(first.name === key && first.source === 'string_key'), candidates };
}
