/**
 * A tool's canonical methods and their aliases: checking them where they are declared
 * (`defineTools`, `defineContracts`) and resolving the method a call names.
 *
 * @module
 */
import * as v from 'valibot';
import { isBlank, sortUtf8 } from '../canonical/index.ts';
import { issuePath } from '../evidence/index.ts';

/**
 * Where a tool's methods and aliases are declared: a tool definition, or a contract's
 * description (`turngate/outcome`).
 *
 * @example
 * ```ts
 * import type { MethodSource } from 'turngate/outcome';
 * const source: MethodSource = { methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } };
 * ```
 */
export interface MethodSource {
  /** The canonical methods; none (or an empty list) means any name, or none, is accepted. */
  readonly methods?: readonly string[];
  /** Alias -> canonical method. */
  readonly aliases?: { readonly [alias: string]: string };
}

/**
 * A method alias a call used, resolved to its canonical method.
 *
 * @example
 * ```ts
 * import type { MethodAlias } from 'turngate/outcome';
 * const used: MethodAlias = { kind: 'method', alias: 'fetch', method: 'fetch_url' };
 * ```
 */
export interface MethodAlias {
  readonly kind: 'method';
  /** The name the call used. */
  readonly alias: string;
  /** The canonical method it resolved to. */
  readonly method: string;
}

/**
 * How a called method name resolved against a tool's methods: `resolved` (to the canonical
 * method, and the alias when one was used) or `unknown` (the name called and the canonical
 * methods, sorted by UTF-8 bytes).
 *
 * @example
 * ```ts
 * import { resolveMethod, type MethodResolution } from 'turngate/outcome';
 * const resolved: MethodResolution = resolveMethod({ methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } }, 'fetch');
 * resolved; //=> { status: 'resolved', method: 'fetch_url', alias: { kind: 'method', alias: 'fetch', method: 'fetch_url' } }
 * ```
 */
export type MethodResolution =
  | { readonly status: 'resolved'; readonly method: string | undefined; readonly alias: MethodAlias | undefined }
  | { readonly status: 'unknown'; readonly called: string | undefined; readonly methods: readonly string[] };

/**
 * Resolves the method a call names: a canonical method resolves to itself, an alias to its
 * canonical method (and says so); any other name, or no name, is `unknown` when the tool declares
 * methods. A tool without methods accepts any name (or none) as it is. This is the one rule for
 * methods: `requestTools` applies it to tool calls, `delegate` (`turngate/outcome`) to delegations.
 *
 * Source: ADR 0014, Decision §3; Open Question 2 (aliases are declared, never promoted at run
 * time, so every alias maps to exactly one method).
 *
 * @param source - A tool definition (`Tools.definitions.web_fetcher`) or a contract's description.
 * @param called - The method name the call used.
 * @returns The resolution.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { resolveMethod } from 'turngate/outcome';
 * class Tools extends defineTools({
 *   web_fetcher: { input: v.object({ url: v.string() }), output: v.string(), methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } },
 * }) {}
 * resolveMethod(Tools.definitions.web_fetcher, 'fetch_url'); //=> { status: 'resolved', method: 'fetch_url', alias: undefined }
 * resolveMethod(Tools.definitions.web_fetcher, 'get'); //=> { status: 'unknown', called: 'get', methods: ['fetch_url'] }
 * ```
 */
export function resolveMethod(source: MethodSource, called: string | undefined): MethodResolution {
  const methods = source.methods ?? [];
  const aliases = source.aliases ?? {};
  if (methods.length === 0) return { status: 'resolved', method: called, alias: undefined };
  if (called !== undefined && methods.includes(called)) return { status: 'resolved', method: called, alias: undefined };
  if (called !== undefined && Object.hasOwn(aliases, called)) {
    const method = aliases[called] as string;
    return { status: 'resolved', method, alias: { kind: 'method', alias: called, method } };
  }
  return { status: 'unknown', called, methods: sortUtf8([...methods]) };
}

/**
 * The sentence for a call whose method did not resolve: `web_fetcher has no method "get"; its
 * methods are fetch_url` (or `has no method` when it named none). Internal: `requestTools` and
 * `delegate` write it.
 */
export function unknownMethodDetail(tool: string, unknown: Extract<MethodResolution, { status: 'unknown' }>): string {
  const shown = unknown.called === undefined ? 'no method' : `no method ${JSON.stringify(unknown.called)}`;
  return `${tool} has ${shown}; its methods are ${unknown.methods.join(', ')}`;
}

const MethodName = v.pipe(
  v.string(),
  v.check((value) => !isBlank(value), 'expected a non-blank name'),
);
const MethodsSchema = v.array(MethodName);
const AliasesSchema = v.record(v.string(), MethodName);

/** A tool's methods and aliases once checked: frozen copies. Internal. */
export interface MethodTable {
  readonly methods: readonly string[];
  readonly aliases: { readonly [alias: string]: string };
}

function refuse(where: string, field: string, issue: v.BaseIssue<unknown>): never {
  const at = issuePath(issue);
  throw new TypeError(`${where}.${field}${at === '' || at.startsWith('[') ? at : `.${at}`}: ${issue.message}`);
}

/**
 * Checks a tool's canonical methods and aliases, for `defineTools` and `defineContracts` alike:
 * methods are non-blank and listed once; each alias is non-blank, not itself a canonical method,
 * and names a canonical method. Internal.
 *
 * @param where - What the messages start with (`defineTools: web_fetcher`).
 * @returns Frozen copies (the aliases keep every own key, `__proto__` included).
 * @throws TypeError naming the field: `<where>.methods[1]: expected a non-blank name`,
 *   `<where>.methods: "fetch" is listed twice`, `<where>.aliases.get: "get" is a canonical method,
 *   not an alias`, `<where>.aliases.fetch: must name one of the canonical methods (fetch_url), got "fetch_uri"`.
 */
export function checkMethods(where: string, methods: unknown, aliases: unknown): MethodTable {
  const checkedMethods = methods === undefined ? undefined : v.safeParse(MethodsSchema, methods);
  if (checkedMethods !== undefined && !checkedMethods.success) refuse(where, 'methods', checkedMethods.issues[0]);
  const checkedAliases = aliases === undefined ? undefined : v.safeParse(AliasesSchema, aliases);
  if (checkedAliases !== undefined && !checkedAliases.success) refuse(where, 'aliases', checkedAliases.issues[0]);
  const names = [...((methods as readonly string[] | undefined) ?? [])];
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new TypeError(`${where}.methods: ${JSON.stringify(twice)} is listed twice`);
  // The original, not valibot's copy: `v.record` drops keys such as `__proto__`.
  const entries = aliases === undefined ? [] : Object.entries(aliases as object);
  for (const [alias, method] of entries) {
    if (isBlank(alias)) throw new TypeError(`${where}.aliases: an alias must be a non-blank name`);
    if (names.includes(alias))
      throw new TypeError(`${where}.aliases.${alias}: ${JSON.stringify(alias)} is a canonical method, not an alias`);
    if (!names.includes(method as string))
      throw new TypeError(
        `${where}.aliases.${alias}: must name one of the canonical methods (${names.join(', ') || 'none declared'}), got ${JSON.stringify(method)}`,
      );
  }
  return { methods: Object.freeze(names), aliases: Object.freeze(Object.fromEntries(entries)) };
}
