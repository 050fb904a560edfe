/**
 * The approval policy (docs/APPROVALS.md): per mutation tool of a registry, `'always'` or a
 * function of the call's input that answers `required`, `not_required` or `{ denied: reason }`,
 * with a version that is part of every approval's identity; the gated begin that evaluates it and
 * mints the branded clearance an effect runs on; and the check of that clearance.
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
import { type Branded, mint, mintedState } from './brand.ts';
import type { ApprovalFailure, ApprovalLedger, ApprovalRecord } from './approval-records.ts';
import { type ApprovedClaim, beginApproved } from './approvals.ts';
import type { EffectEntry, EffectRecord } from './ledger.ts';
import { TypestateError } from './errors.ts';
import type { ApprovalClearanceMessage, ApprovalRuleKeyMessage } from './messages.ts';
import {
  type MutationToolName,
  type ParsedToolInput,
  registryDefinitions,
  type ToolDefinitionsOf,
  type ToolsOf,
} from './tools.ts';

/**
 * What a policy answers for one call: ask a person (`required`), run it (`not_required`), or
 * refuse it without asking (`{ denied: reason }`).
 *
 * @example
 * ```ts
 * import type { ApprovalVerdict } from 'turngate/approvals';
 * const verdicts: ApprovalVerdict[] = ['required', 'not_required', { denied: 'over the limit' }];
 * ```
 */
export type ApprovalVerdict = 'required' | 'not_required' | { readonly denied: string };

/**
 * What a policy function is told besides the input: the call and, in a chat, the session.
 *
 * @example
 * ```ts
 * import type { ApprovalContext } from 'turngate/approvals';
 * const context: ApprovalContext = { toolCallId: 'toolu_05', toolName: 'send_email', sessionId: 's-1' };
 * ```
 */
export interface ApprovalContext {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly sessionId?: string;
}

/**
 * The rule of one mutation tool: `'always'` (every call waits for a person), or a function of
 * the parsed input and the context.
 *
 * @example
 * ```ts
 * import type { ApprovalRule } from 'turngate/approvals';
 * const rule: ApprovalRule<{ amount: number }> = (input) => (input.amount > 100 ? 'required' : 'not_required');
 * ```
 */
export type ApprovalRule<TInput = never> = 'always' | ((input: TInput, context: ApprovalContext) => ApprovalVerdict);

/**
 * The rules a policy of registry `TTools` takes: a key per mutation tool (`mutation: true`);
 * any other key (misspelled, or a read tool) shows {@link ApprovalRuleKeyMessage}. For a registry
 * whose tool names are known only at run time (`turngate/mcp`), any key compiles and
 * `approvalPolicy` throws a `TypeError` for one that is not a mutation tool.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ApprovalRules } from 'turngate/approvals';
 * const tools = defineTools({ send_email: { input: v.object({ to: v.string() }), output: v.null(), mutation: true } });
 * const rules: ApprovalRules<typeof tools.definitions, { send_email: 'always' }> = { send_email: 'always' };
 * ```
 */
export type ApprovalRules<TTools extends ToolDefinitionsOf<TTools>, TRules> = {
  readonly [K in keyof TRules]: K extends MutationToolName<TTools>
    ? TRules[K] & ApprovalRule<ParsedToolInput<TTools, K>>
    : string extends keyof TTools
      ? // A registry whose names are known only at run time (MCP tools): `approvalPolicy` checks the key then.
        TRules[K] & ApprovalRule<unknown>
      : ApprovalRuleKeyMessage<K & string>;
};

/**
 * An approval policy: its version (part of every approval's identity: an approval asked under
 * another version runs nothing, `approval.policy_changed`) and its rules per mutation tool.
 * Made by {@link approvalPolicy}.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { approvalPolicy } from 'turngate/approvals';
 * const tools = defineTools({ send_email: { input: v.object({ to: v.string() }), output: v.null(), mutation: true } });
 * approvalPolicy(tools, 'v1', { send_email: 'always' }).version; //=> 'v1'
 * ```
 */
export interface ApprovalPolicy<TTools = unknown, TRules = unknown> {
  /** The version. */
  readonly version: string;
  /** The rules per mutation tool (a tool without one runs without approval). */
  readonly rules: TRules;
  /** The registry, for types only. */
  readonly '~tools'?: TTools;
}

/**
 * Makes an approval policy for a registry's mutation tools.
 *
 * @param tools - The registry (from `defineTools`, or a class extending one).
 * @param version - The policy's version (a non-blank string: a name, a date, a digest). Change it
 *   whenever a rule changes: approvals asked under the old one then run nothing and are asked again.
 * @param rules - Per mutation tool, `'always'` or a function of the input.
 * @returns The policy (frozen).
 * @throws TypeError for a blank version, a key that is not a mutation tool of the registry, or a
 *   rule that is neither `'always'` nor a function. At compile time, such a key shows
 *   `tool.unknown_or_disallowed: <key> is not a mutation tool of the registry; approvals gate mutations`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { approvalPolicy } from 'turngate/approvals';
 * class Tools extends defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.string() },
 *   transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true },
 * }) {}
 * const policy = approvalPolicy(Tools, '2026-12-07', { transfer: (input) => (input.amount > 100 ? 'required' : 'not_required') });
 * policy.version; //=> '2026-12-07'
 * ```
 */
export function approvalPolicy<TRegistry, const TRules extends object>(
  tools: TRegistry,
  version: string,
  rules: ApprovalRules<ToolsOf<TRegistry>, TRules>,
): ApprovalPolicy<ToolsOf<TRegistry>, TRules> {
  const definitions = registryDefinitions(tools);
  if (typeof version !== 'string' || isBlank(version))
    throw new TypeError('approvalPolicy: version: expected a non-blank string');
  if (rules === null || typeof rules !== 'object') throw new TypeError('approvalPolicy: rules: expected an object');
  const own: Record<string, unknown> = {};
  for (const name of Object.keys(rules)) {
    const rule: unknown = (rules as Record<string, unknown>)[name];
    if (definitions[name]?.mutation !== true)
      throw new TypeError(
        `approvalPolicy: rules.${name}: tool.unknown_or_disallowed: ${name} is not a mutation tool of the registry`,
      );
    if (rule !== 'always' && typeof rule !== 'function')
      throw new TypeError(`approvalPolicy: rules.${name}: expected 'always' or a function`);
    own[name] = rule;
  }
  return Object.freeze({ version, rules: Object.freeze(own) as TRules });
}

/** The policy's rule of one tool, read from the rules' own fields only (undefined: no rule). */
function ruleOf(policy: ApprovalPolicy<unknown, unknown>, toolName: string): unknown {
  return Object.hasOwn(policy.rules as object, toolName)
    ? (policy.rules as Record<string, unknown>)[toolName]
    : undefined;
}

/**
 * What the policy answers for one call. A tool without a rule is `not_required`; `'always'` is
 * `required`; a function's answer is taken when it is one of the three, and a function that
 * throws or answers anything else is `required` (fail closed: a person decides).
 *
 * @param policy - The policy.
 * @param toolName - The mutation tool.
 * @param input - The call's (parsed) input.
 * @param context - The call and session.
 * @returns The verdict.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { approvalPolicy, evaluateApproval } from 'turngate/approvals';
 * const tools = defineTools({ transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true } });
 * const policy = approvalPolicy(tools, 'v1', { transfer: (input) => (input.amount > 100 ? 'required' : 'not_required') });
 * evaluateApproval(policy, 'transfer', { amount: 500 }, { toolCallId: 'c1', toolName: 'transfer' }); //=> 'required'
 * ```
 */
export function evaluateApproval(
  policy: ApprovalPolicy,
  toolName: string,
  input: unknown,
  context: ApprovalContext,
): ApprovalVerdict {
  const rule = ruleOf(policy, toolName);
  if (rule === undefined) return 'not_required';
  if (typeof rule !== 'function') return 'required';
  let verdict: unknown;
  try {
    verdict = rule(input, context);
  } catch {
    return 'required';
  }
  if (verdict === 'required' || verdict === 'not_required') return verdict;
  if (verdict !== null && typeof verdict === 'object' && typeof (verdict as { denied?: unknown }).denied === 'string')
    return { denied: (verdict as { denied: string }).denied };
  return 'required';
}

/**
 * The clearance an effect of tool `TName` runs on, minted only by {@link beginGated}: `approved`
 * (a person approved this exact call, and its approval is consumed) or `not_required` (the
 * policy's function answered so for this input). A literal, spread or cast is not one.
 *
 * @example
 * ```ts
 * import type { Clearance } from 'turngate/approvals';
 * declare const clearance: Clearance<'send_email', 'approved'>;
 * clearance.approval?.decision?.decidedBy;
 * ```
 */
export type Clearance<
  TName extends string = string,
  TKind extends 'approved' | 'not_required' = 'approved' | 'not_required',
> = TKind extends 'approved' | 'not_required' ? Branded<'Clearance', ClearanceData<TName, TKind>> : never;

/** The clearance kinds tool `TName` can run on under rules `TRules`: `approved` only where its rule is `'always'`. */
export type ClearanceKind<TRules, TName extends string> = TName extends keyof TRules
  ? TRules[TName] extends 'always'
    ? 'approved'
    : 'approved' | 'not_required'
  : 'approved' | 'not_required';

/** The data of a {@link Clearance}. */
export interface ClearanceData<TName extends string, TKind extends 'approved' | 'not_required'> {
  /** `approved` or `not_required`. */
  readonly kind: TKind;
  /** The mutation tool. */
  readonly toolName: TName;
  /** The effect's idempotency key. */
  readonly key: string;
  /** The consumed approval (`approved` only). */
  readonly approval?: ApprovalRecord;
}

/**
 * The clearance `expectClearance` takes for tool `TName` under rules `TRules`: an approved one
 * where the rule is `'always'`, either kind where it is a function (its run-time answer decides),
 * either kind for a tool without a rule. `TGiven` is what was passed: a clearance of the wrong
 * kind or tool shows {@link ApprovalClearanceMessage}.
 */
export type ClearanceFor<TRules, TName extends string, TGiven> = [TGiven] extends [
  Clearance<TName, ClearanceKind<TRules, TName>>,
]
  ? TGiven
  : ApprovalClearanceMessage<TName>;

/** The tools a policy of `TTools` gates: its mutation tools; any name for a policy of no known registry. */
export type GatedToolName<TTools> = [MutationToolName<TTools>] extends [never] ? string : MutationToolName<TTools>;

/**
 * What {@link beginGated} answers: `claimed` with the clearance to run the effect on, the
 * effect's record (answer from it), or the refusal with its class.
 */
export type GatedClaim<TName extends string, TKind extends 'approved' | 'not_required' = 'approved' | 'not_required'> =
  | { readonly claimed: true; readonly clearance: Clearance<TName, TKind> }
  | { readonly claimed: false; readonly record: EffectRecord }
  | { readonly claimed: false; readonly refused: ApprovalFailure };

/**
 * Evaluates the policy for one call and begins its effect accordingly ({@link beginApproved}):
 * `{ denied }` from the policy refuses it (`approval.denied`, by `policy`), `required` needs a
 * matching approved record, `not_required` begins unless an approval of it was denied.
 *
 * @param policy - The policy.
 * @param ledger - The ledger.
 * @param toolName - The mutation tool.
 * @param entry - The effect's claim (as the gate makes it).
 * @param call - The call's parsed input, its context, the tool's schema digest, the time.
 * @returns The claim with its clearance, the effect's record, or the refusal.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MemoryEffectLedger, defineTools } from 'turngate';
 * import { approvalPolicy, beginGated } from 'turngate/approvals';
 * const tools = defineTools({ transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true } });
 * const policy = approvalPolicy(tools, 'v1', { transfer: (input) => (input.amount > 100 ? 'required' : 'not_required') });
 * const entry = { key: 'k', toolCallId: 'c1', toolName: 'transfer', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' };
 * const claim = await beginGated(policy, new MemoryEffectLedger(), 'transfer', entry, { input: { amount: 5 }, context: { toolCallId: 'c1', toolName: 'transfer' }, schemaDigest: 'sha256:2', now: 0 });
 * claim.claimed && claim.clearance.kind; //=> 'not_required'
 * ```
 */
export async function beginGated<TTools, TRules, TName extends GatedToolName<TTools>>(
  policy: ApprovalPolicy<TTools, TRules>,
  ledger: ApprovalLedger,
  toolName: TName,
  entry: EffectEntry,
  call: {
    readonly input: unknown;
    readonly context: ApprovalContext;
    readonly schemaDigest: string;
    readonly now: number;
  },
): Promise<GatedClaim<TName, ClearanceKind<TRules, TName>>> {
  const verdict = evaluateApproval(policy, toolName, call.input, call.context);
  if (typeof verdict === 'object')
    return {
      claimed: false,
      refused: { class: 'approval.denied', detail: `declined by policy: ${verdict.denied}`, ids: [entry.key] },
    };
  const claim: ApprovedClaim = await beginApproved(ledger, entry, {
    policyVersion: policy.version,
    schemaDigest: call.schemaDigest,
    now: call.now,
    approval: verdict,
  });
  if (!claim.claimed) return claim;
  const data: ClearanceData<TName, 'approved' | 'not_required'> =
    claim.approval === undefined
      ? { kind: 'not_required', toolName, key: entry.key }
      : { kind: 'approved', toolName, key: entry.key, approval: claim.approval };
  // The kind is the policy's answer for this call: `approved` whenever the rule is 'always'.
  return { claimed: true, clearance: mint('Clearance', data) as Clearance<TName, ClearanceKind<TRules, TName>> };
}

/**
 * Checks the clearance an effect is about to run on: minted by {@link beginGated}, of this
 * tool, and `approved` where the policy's rule is `'always'`. At compile time, a clearance of the
 * wrong kind (a `not_required` one for an `'always'` tool) or tool shows
 * {@link ApprovalClearanceMessage}; at run time this covers what the types cannot (a cast, a
 * copy, another tool's clearance through a widened type).
 *
 * @param policy - The policy.
 * @param toolName - The mutation tool.
 * @param clearance - The clearance `beginGated` returned for this call.
 * @throws TypestateError `forged` for a value `beginGated` did not mint; `not_bound` for another
 *   tool's clearance or a `not_required` one where the rule is `'always'`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MemoryEffectLedger, defineTools } from 'turngate';
 * import { approvalPolicy, beginGated, expectClearance } from 'turngate/approvals';
 * const tools = defineTools({ transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true } });
 * const policy = approvalPolicy(tools, 'v1', { transfer: () => 'not_required' as const });
 * const entry = { key: 'k', toolCallId: 'c1', toolName: 'transfer', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' };
 * const claim = await beginGated(policy, new MemoryEffectLedger(), 'transfer', entry, { input: { amount: 5 }, context: { toolCallId: 'c1', toolName: 'transfer' }, schemaDigest: 'sha256:2', now: 0 });
 * if (claim.claimed) expectClearance(policy, 'transfer', claim.clearance);
 * ```
 */
export function expectClearance<TTools, TRules, TName extends MutationToolName<TTools>, TGiven>(
  policy: ApprovalPolicy<TTools, TRules>,
  toolName: TName,
  clearance: ClearanceFor<TRules, TName, TGiven>,
): void {
  if (mintedState(clearance) !== 'Clearance')
    throw new TypestateError('forged', 'MutationReady', 'this clearance was not returned by beginGated');
  // biome-ignore lint/plugin: the registry says beginGated minted this value, and it mints only ClearanceData
  const data = clearance as unknown as ClearanceData<string, 'approved' | 'not_required'>;
  if (data.toolName !== toolName)
    throw new TypestateError('not_bound', 'MutationReady', `this clearance is of ${data.toolName}, not of ${toolName}`);
  const rule = ruleOf(policy, toolName);
  if (rule === 'always' && data.kind !== 'approved')
    throw new TypestateError(
      'not_bound',
      'MutationReady',
      `approval.missing: ${toolName} needs an approval (policy 'always')`,
    );
}
