/**
 * Tool contracts: a registry entry per delegated tool with its purpose, deliverable, canonical
 * methods, optional method aliases, and required inputs; and method resolution through them.
 *
 * Source: ADR 0014, Decision §1 (deliverable), §3 (canonical tool interface metadata), §4
 * (contracted tool preconditions).
 *
 * @module
 */
import * as v from 'valibot';
import { digest, sortUtf8, isBlank } from '../canonical/index.ts';
import { issuePath } from '../evidence/index.ts';
import { type AliasTargets, checkMethods } from '../typestate/internal.ts';
import type { ContractField, UnknownFieldMessage } from './messages.ts';
import {
  type CompiledDeliverable,
  compileDeliverable,
  type Deliverable,
  type DeliverableDescription,
  type DeliverableValue,
  inputShape,
} from './shape.ts';

/**
 * What a tool's contract declares. Every field is optional; each one declared is enforced.
 *
 * @example
 * ```ts
 * import type { ContractDefinition } from 'turngate/outcome';
 * const webFetcher: ContractDefinition = {
 *   purpose: 'fetch and extract content from URLs',
 *   deliverable: { type: 'object', required: ['body', 'statusCode'] },
 *   methods: ['fetch_url'],
 *   aliases: { fetch: 'fetch_url' },
 *   requiredInputs: ['url'],
 * };
 * ```
 */
export interface ContractDefinition {
  /** What the tool is for, in one line (shown in `<known_tools>`). */
  readonly purpose?: string;
  /** What a successful call must deliver: a Standard Schema (valibot) or a light shape. */
  readonly deliverable?: Deliverable;
  /** The canonical method names. When declared, every call must name one of them or an alias. */
  readonly methods?: readonly string[];
  /** Other names callers use, each mapped to a canonical method (`{ fetch: 'fetch_url' }`). */
  readonly aliases?: { readonly [alias: string]: string };
  /** Inputs that must be present and non-empty: not `null`, `undefined`, a blank string or an empty collection. */
  readonly requiredInputs?: readonly string[];
}

/**
 * A contract as its registry describes it: JSON, with methods and required inputs sorted. This is
 * what a contract's digest covers (for a valibot deliverable, its structure, not its scalar
 * rules).
 *
 * @example
 * ```ts
 * import { defineContracts, type ContractDescription } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { methods: ['parse'], requiredInputs: ['xml'] } });
 * const described: ContractDescription = rss_parser.description;
 * described; //=> { tool: 'rss_parser', methods: ['parse'], aliases: {}, requiredInputs: ['xml'] }
 * ```
 */
export interface ContractDescription {
  /** The tool's name (its key in the registry). */
  readonly tool: string;
  readonly purpose?: string;
  readonly deliverable?: DeliverableDescription;
  /** Canonical methods, sorted by UTF-8 bytes. */
  readonly methods: readonly string[];
  /** Alias -> canonical method. */
  readonly aliases: { readonly [alias: string]: string };
  /** Required inputs, sorted by UTF-8 bytes. */
  readonly requiredInputs: readonly string[];
}

/**
 * One tool's contract, made by {@link defineContracts}: its name, the definition as given (with
 * its literal types), its JSON description and that description's `sha256:` digest.
 *
 * @example
 * ```ts
 * import { defineContracts, type ToolContract } from 'turngate/outcome';
 * const contracts = defineContracts({ rss_parser: { methods: ['parse'] } });
 * const parser: ToolContract<'rss_parser'> = contracts.rss_parser;
 * parser.tool; //=> 'rss_parser'
 * ```
 */
export interface ToolContract<
  TTool extends string = string,
  TDefinition extends ContractDefinition = ContractDefinition,
> {
  /** The tool's name. */
  readonly tool: TTool;
  /** The definition, as given. */
  readonly definition: TDefinition;
  /** The contract as JSON. */
  readonly description: ContractDescription;
  /** `sha256:` digest of the description's canonical JSON; validation records name the contract by it. */
  readonly digest: string;
}

/**
 * A map from tool name to contract definition, as {@link defineContracts} takes it.
 *
 * @example
 * ```ts
 * import type { ContractDefinitions } from 'turngate/outcome';
 * const definitions: ContractDefinitions = { rss_parser: { methods: ['parse'], requiredInputs: ['xml'] } };
 * ```
 */
export type ContractDefinitions = { readonly [tool: string]: ContractDefinition };

/**
 * The registry {@link defineContracts} returns: one {@link ToolContract} per tool name.
 *
 * @example
 * ```ts
 * import { defineContracts, type ContractRegistry } from 'turngate/outcome';
 * const definitions = { rss_parser: { methods: ['parse'] } } as const;
 * const registry: ContractRegistry<typeof definitions> = defineContracts(definitions);
 * ```
 */
export type ContractRegistry<TDefinitions extends ContractDefinitions = ContractDefinitions> = {
  readonly [TTool in keyof TDefinitions & string]: ToolContract<TTool, TDefinitions[TTool]>;
};

/**
 * The canonical method names of a contract: the literal union of its `methods`, or `string`
 * when it declares none (an empty list declares none: any name is accepted).
 *
 * @example
 * ```ts
 * import { defineContracts, type ContractMethod } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({ web_fetcher: { methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } } });
 * const method: ContractMethod<typeof web_fetcher> = 'fetch_url';
 * ```
 */
export type ContractMethod<TContract extends ToolContract> = TContract['definition'] extends {
  readonly methods: readonly (infer TMethod extends string)[];
}
  ? [TMethod] extends [never]
    ? string
    : TMethod
  : string;

/**
 * The alias names of a contract (`never` when it declares none).
 *
 * @example
 * ```ts
 * import { defineContracts, type ContractAlias } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({ web_fetcher: { methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } } });
 * const alias: ContractAlias<typeof web_fetcher> = 'fetch';
 * ```
 */
export type ContractAlias<TContract extends ToolContract> = TContract['definition'] extends {
  readonly aliases: infer TAliases;
}
  ? keyof TAliases & string
  : never;

/**
 * The type of the value a contract's deliverable hands on (`unknown` when it declares none).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineContracts, type ContractDeliverable } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({ web_fetcher: { deliverable: v.object({ body: v.string() }) } });
 * const page: ContractDeliverable<typeof web_fetcher> = { body: '<rss/>' };
 * ```
 */
export type ContractDeliverable<TContract extends ToolContract> = TContract['definition'] extends {
  readonly deliverable: infer TDeliverable;
}
  ? DeliverableValue<TDeliverable>
  : unknown;

/**
 * The names of a contract's required inputs (`never` when it declares none).
 *
 * @example
 * ```ts
 * import { defineContracts, type ContractRequiredInput } from 'turngate/outcome';
 * const { rss_parser } = defineContracts({ rss_parser: { requiredInputs: ['xml'] } });
 * const input: ContractRequiredInput<typeof rss_parser> = 'xml';
 * ```
 */
export type ContractRequiredInput<TContract extends ToolContract> = TContract['definition'] extends {
  readonly requiredInputs: readonly (infer TInput extends string)[];
}
  ? TInput
  : never;

/** What a contract compiles to, kept beside it: the deliverable check and the input check. */
export interface CompiledContract {
  readonly deliverable: CompiledDeliverable | undefined;
  readonly inputs: Pick<CompiledDeliverable, 'shape'> | undefined;
}

const compiled = new WeakMap<object, CompiledContract>();

/** @internal The compiled checks of a contract made by {@link defineContracts}. */
export function compiledContract(contract: ToolContract): CompiledContract {
  const found = compiled.get(contract);
  if (found === undefined)
    throw new TypeError(
      'delegate: this contract was not made by defineContracts (a literal, cast, spread or copy); define it with defineContracts',
    );
  return found;
}

const name = v.pipe(
  v.string(),
  v.check((value) => !isBlank(value), 'expected a non-blank name'),
);
const DefinitionSchema = v.strictObject(
  {
    purpose: v.optional(v.string()),
    deliverable: v.optional(v.unknown()),
    methods: v.optional(v.unknown()),
    aliases: v.optional(v.unknown()),
    requiredInputs: v.optional(v.array(name)),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'unknown field; a contract has purpose, deliverable, methods, aliases and requiredInputs'
      : `expected a contract definition (an object), got ${issue.received}`,
);

function compile(tool: string, definition: unknown): { contract: ToolContract; checks: CompiledContract } {
  const where = `defineContracts: ${tool}`;
  if (isBlank(tool)) throw new TypeError('defineContracts: a tool name must be non-blank');
  const parsed = v.safeParse(DefinitionSchema, definition);
  if (!parsed.success) {
    const [issue] = parsed.issues;
    const at = issuePath(issue);
    throw new TypeError(`${where}${at === '' ? '' : `.${at}`}: ${issue.message}`);
  }
  // The original, not valibot's copy: `v.record` drops keys such as `__proto__`.
  const given = definition as ContractDefinition;
  const { methods, aliases } = checkMethods(where, given.methods, given.aliases);
  const requiredInputs = [...(given.requiredInputs ?? [])];
  const deliverable =
    given.deliverable === undefined ? undefined : compileDeliverable(given.deliverable, `${where}.deliverable`);
  const inputs = requiredInputs.length === 0 ? undefined : inputShape(requiredInputs, `${where}.requiredInputs`);
  const description: ContractDescription = {
    tool,
    ...(given.purpose === undefined ? {} : { purpose: given.purpose }),
    ...(deliverable === undefined ? {} : { deliverable: deliverable.description }),
    methods: sortUtf8([...methods]),
    aliases,
    requiredInputs: sortUtf8(requiredInputs),
  };
  const contract: ToolContract = Object.freeze({
    tool,
    definition: given,
    description,
    digest: digest(description),
  });
  return { contract, checks: { deliverable, inputs } };
}

type UnknownFields<TDefinitions> = {
  [TTool in keyof TDefinitions]: Exclude<keyof TDefinitions[TTool], ContractField>;
}[keyof TDefinitions];

/**
 * What {@link defineContracts} takes: the definitions, each alias checked against its canonical
 * methods; or, when a definition has a field a contract does not have (a misspelling the run-time
 * check refuses), the definitions with that field's type the sentence naming it
 * ({@link UnknownFieldMessage}).
 *
 * @example
 * ```ts
 * import type { ContractDefinitionsCheck } from 'turngate/outcome';
 * type Shown = ContractDefinitionsCheck<{ web_fetcher: { purpse: 'fetch' } }>;
 * // { web_fetcher: { purpse: 'unknown field: web_fetcher.purpse; a contract has purpose, deliverable, methods, aliases, requiredInputs' } }
 * ```
 */
export type ContractDefinitionsCheck<TDefinitions> = [UnknownFields<TDefinitions>] extends [never]
  ? TDefinitions & { readonly [TTool in keyof TDefinitions]: AliasTargets<TDefinitions[TTool]> }
  : {
      readonly [TTool in keyof TDefinitions]: {
        readonly [TField in keyof TDefinitions[TTool]]: TField extends ContractField
          ? TDefinitions[TTool][TField]
          : UnknownFieldMessage<TTool & string, TField & string>;
      };
    };

/**
 * Creates a registry of tool contracts: for each tool, the purpose, the deliverable a
 * successful call must meet, the canonical methods and their aliases, and the required inputs.
 * Each contract is checked once, here, and carries a `sha256:` digest of its JSON description.
 *
 * Source: ADR 0014, Decision §1, §3, §4.
 *
 * @param definitions - Per tool name, a {@link ContractDefinition}.
 * @returns The frozen registry.
 * @throws TypeError naming the tool and field: an unknown field, a blank or repeated method, an
 *   alias that names no canonical method or is itself canonical, a deliverable that is neither a
 *   Standard Schema nor a light shape, or two keys (or required inputs) that are case twins.
 * @example
 * ```ts
 * import { defineContracts } from 'turngate/outcome';
 * const tools = defineContracts({
 *   web_fetcher: {
 *     purpose: 'fetch and extract content from URLs',
 *     deliverable: { type: 'object', required: ['body', 'statusCode'] },
 *     methods: ['fetch_url'],
 *     aliases: { fetch: 'fetch_url' },
 *     requiredInputs: ['url'],
 *   },
 * });
 * tools.web_fetcher.description.methods; //=> ['fetch_url']
 * ```
 */
export function defineContracts<const TDefinitions extends ContractDefinitions>(
  definitions: ContractDefinitionsCheck<TDefinitions>,
): ContractRegistry<TDefinitions> {
  if (definitions === null || typeof definitions !== 'object' || Array.isArray(definitions))
    throw new TypeError('defineContracts: expected an object of contract definitions keyed by tool name');
  const registry: Record<string, ToolContract> = {};
  for (const tool of Object.keys(definitions)) {
    const { contract, checks } = compile(tool, Reflect.get(definitions, tool));
    compiled.set(contract, checks);
    Object.defineProperty(registry, tool, { value: contract, enumerable: true });
  }
  return Object.freeze(registry) as ContractRegistry<TDefinitions>;
}
