/**
 * Retry and escalation by a policy document in premath's format (`ci.harness.retry.policy.v1`):
 * loading with the `policyDigest` checked (fail closed on mismatch) and the deterministic
 * per-attempt decision. Pure: backoff classes are labels, nothing here waits.
 *
 * @module
 */
import { sortUtf8, trimWhiteSpace, type JsonValue, isBlank } from '../canonical/index.ts';
import { fieldPath, integerOf, objectAt, parseJsonText, requiredString, type Fields } from './decode.ts';
import { HarnessInputError, RetryPolicyError } from './errors.ts';
import { prefixedDigest } from './refs.ts';
import { quote } from '../internal/display.ts';

/** The policy kind. Source: HARNESS-RETRY-ESCALATION §2. */
export const RETRY_POLICY_KIND = 'ci.harness.retry.policy.v1';

/**
 * The terminal escalation actions: `issue_discover` (file a follow-up issue), `mark_blocked`
 * (set the issue blocked), `stop` (no mutation).
 *
 * Source: HARNESS-RETRY-ESCALATION §3, §6.
 *
 * @example
 * ```ts
 * import type { EscalationAction } from 'turngate/tusk';
 * const action: EscalationAction = 'mark_blocked';
 * ```
 */
export type EscalationAction = 'issue_discover' | 'mark_blocked' | 'stop';

const ESCALATION_ACTIONS: readonly string[] = ['issue_discover', 'mark_blocked', 'stop'];

/**
 * One rule: a set of failure classes and what a failure in them gets.
 *
 * @example
 * ```ts
 * import type { RetryRule } from 'turngate/tusk';
 * const rule: RetryRule = { ruleId: 'transient_retry', failureClasses: ['flaky_io', 'network_timeout'], maxAttempts: 3,
 *   backoffClass: 'exponential_short', escalationAction: 'issue_discover' };
 * ```
 */
export interface RetryRule {
  /** The rule id (`default` for the default rule). */
  readonly ruleId: string;
  /** The failure classes, trimmed, sorted, deduplicated (empty for the default rule). */
  readonly failureClasses: readonly string[];
  /** The attempt budget: attempt `n` is retried while `n < maxAttempts`. */
  readonly maxAttempts: number;
  /** A typed schedule label (`none`, `fixed_short`, `exponential_short`, ...), never a duration. */
  readonly backoffClass: string;
  /** What happens when the budget is spent. */
  readonly escalationAction: EscalationAction;
}

/**
 * A loaded, digest-checked retry policy.
 *
 * Source: HARNESS-RETRY-ESCALATION §2 (artifact and digest), §3 (rule model), §4.
 *
 * @example
 * ```ts
 * import type { RetryPolicy } from 'turngate/tusk';
 * declare const policy: RetryPolicy;
 * const budget = policy.rules.map((rule) => `${rule.ruleId}: ${rule.maxAttempts}`);
 * ```
 */
export interface RetryPolicy {
  /** Always 1. */
  readonly schema: 1;
  /** Always `ci.harness.retry.policy.v1`. */
  readonly policyKind: typeof RETRY_POLICY_KIND;
  /** The policy's stable id. */
  readonly policyId: string;
  /** `pol1_<sha256 hex of the canonical policy payload without policyDigest>`, checked at load. */
  readonly policyDigest: string;
  /** The rule for failure classes no rule names. */
  readonly defaultRule: RetryRule;
  /** The rules, in the document's order, with disjoint failure classes. */
  readonly rules: readonly RetryRule[];
}

/**
 * The digest a retry policy document must carry: `pol1_` + the lowercase hex SHA-256 of the
 * canonical JSON (sorted keys, no whitespace) of the document without its `policyDigest`.
 *
 * Source: HARNESS-RETRY-ESCALATION §2 (digest discipline).
 *
 * @param document - The policy document (parsed JSON or built in code); its `policyDigest` is ignored.
 * @returns The `pol1_` digest.
 * @example
 * ```ts
 * import { retryPolicyDigest } from 'turngate/tusk';
 * retryPolicyDigest({ schema: 1, policyDigest: 'anything' }) === retryPolicyDigest({ schema: 1 }); //=> true
 * ```
 */
export function retryPolicyDigest(document: { readonly [key: string]: unknown }): string {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) if (key !== 'policyDigest') payload[key] = value;
  return prefixedDigest('pol1_', payload as JsonValue);
}

function shape(field: string, expected: string): RetryPolicyError {
  return new RetryPolicyError('retry_policy_invalid_shape', field, expected);
}

function nonBlank(f: Fields, key: string): string {
  try {
    return requiredString(f, key);
  } catch (error) {
    if (error instanceof HarnessInputError) throw shape(error.field, error.expected);
    throw error;
  }
}

function parseRule(value: unknown, at: string, isDefault: boolean): RetryRule {
  let f: Fields;
  try {
    f = objectAt(value, at, ['ruleId', 'failureClasses', 'maxAttempts', 'backoffClass', 'escalationAction'], 'a rule');
  } catch (error) {
    if (error instanceof HarnessInputError) throw shape(error.field, error.expected);
    throw error;
  }
  const ruleId = isDefault && f.value['ruleId'] === undefined ? 'default' : nonBlank(f, 'ruleId');
  const maxAttempts = integerOf(f.value['maxAttempts']);
  if (maxAttempts === undefined || maxAttempts < 1) {
    throw shape(fieldPath(at, 'maxAttempts'), 'expected an integer >= 1');
  }
  const backoffClass = nonBlank(f, 'backoffClass');
  const escalationAction = nonBlank(f, 'escalationAction');
  if (!ESCALATION_ACTIONS.includes(escalationAction)) {
    throw shape(
      fieldPath(at, 'escalationAction'),
      `expected issue_discover, mark_blocked or stop, received ${quote(escalationAction)}`,
    );
  }
  let failureClasses: string[] = [];
  if (!isDefault) {
    const raw = f.value['failureClasses'];
    if (!Array.isArray(raw) || raw.length === 0) {
      throw shape(fieldPath(at, 'failureClasses'), 'expected a non-empty array of failure classes');
    }
    const set = new Set<string>();
    raw.forEach((item, index) => {
      if (typeof item !== 'string' || isBlank(item)) {
        throw shape(fieldPath(fieldPath(at, 'failureClasses'), index), 'expected a non-blank string');
      }
      set.add(trimWhiteSpace(item));
    });
    failureClasses = sortUtf8([...set]);
  }
  return Object.freeze({
    ruleId,
    failureClasses: Object.freeze(failureClasses),
    maxAttempts,
    backoffClass,
    escalationAction: escalationAction as EscalationAction,
  });
}

/**
 * Loads a retry policy document and fails closed on anything wrong: it must be JSON with
 * `schema` 1, kind `ci.harness.retry.policy.v1`, a `policyId`, a default rule and a non-empty
 * list of rules (unique `ruleId`s, failure classes disjoint across rules, `maxAttempts` >= 1, an
 * escalation action of `issue_discover`, `mark_blocked` or `stop`), and a `policyDigest` that
 * starts `pol1_` and equals {@link retryPolicyDigest} of the document.
 *
 * Source: HARNESS-RETRY-ESCALATION §2, §3, §4, §5 (fail closed on policy load).
 *
 * @param input - The document: JSON text or bytes, or parsed JSON (use `parseJson` for large integers).
 * @returns The policy.
 * @throws {@link RetryPolicyError} with `code` `retry_policy_invalid_json`,
 *   `retry_policy_invalid_shape` or `retry_policy_invalid_digest`, naming the field.
 * @example
 * ```ts
 * import { parseRetryPolicy, retryPolicyDigest } from 'turngate/tusk';
 * const document = { schema: 1, policyKind: 'ci.harness.retry.policy.v1', policyId: 'policy.example.v1',
 *   defaultRule: { maxAttempts: 1, backoffClass: 'none', escalationAction: 'stop' },
 *   rules: [{ ruleId: 'transient_retry', failureClasses: ['flaky_io'], maxAttempts: 3, backoffClass: 'exponential_short', escalationAction: 'issue_discover' }] };
 * const policy = parseRetryPolicy({ ...document, policyDigest: retryPolicyDigest(document) });
 * policy.rules[0]?.maxAttempts; //=> 3
 * ```
 */
export function parseRetryPolicy(input: string | Uint8Array | unknown): RetryPolicy {
  let value: unknown = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      value = parseJsonText(input, 'policy');
    } catch (error) {
      if (error instanceof HarnessInputError) {
        throw new RetryPolicyError('retry_policy_invalid_json', error.field, error.expected);
      }
      throw error;
    }
  }
  let f: Fields;
  try {
    f = objectAt(
      value,
      'policy',
      ['schema', 'policyKind', 'policyId', 'defaultRule', 'rules', 'policyDigest'],
      'a retry policy',
    );
  } catch (error) {
    if (error instanceof HarnessInputError) throw shape(error.field, error.expected);
    throw error;
  }
  if (integerOf(f.value['schema']) !== 1) throw shape('policy.schema', 'expected 1');
  const policyKind = nonBlank(f, 'policyKind');
  if (policyKind !== RETRY_POLICY_KIND) {
    throw shape('policy.policyKind', `expected ${JSON.stringify(RETRY_POLICY_KIND)}, received ${quote(policyKind)}`);
  }
  const policyId = nonBlank(f, 'policyId');
  const policyDigest = nonBlank(f, 'policyDigest');
  if (!policyDigest.startsWith('pol1_')) {
    throw new RetryPolicyError(
      'retry_policy_invalid_digest',
      'policy.policyDigest',
      'expected a digest starting "pol1_"',
    );
  }
  const defaultRule = parseRule(f.value['defaultRule'] ?? {}, 'policy.defaultRule', true);
  const rawRules = f.value['rules'];
  if (!Array.isArray(rawRules) || rawRules.length === 0)
    throw shape('policy.rules', 'expected a non-empty array of rules');
  const ruleIds = new Set([defaultRule.ruleId]);
  const owner = new Map<string, string>();
  const rules = rawRules.map((raw, index) => {
    const at = fieldPath('policy.rules', index);
    const rule = parseRule(raw, at, false);
    if (ruleIds.has(rule.ruleId)) throw shape(fieldPath(at, 'ruleId'), `duplicate ruleId ${quote(rule.ruleId)}`);
    ruleIds.add(rule.ruleId);
    for (const failureClass of rule.failureClasses) {
      const previous = owner.get(failureClass);
      if (previous !== undefined) {
        throw shape(
          fieldPath(at, 'failureClasses'),
          `expected failure classes disjoint across rules: ${quote(failureClass)} is already in ${quote(previous)}`,
        );
      }
      owner.set(failureClass, rule.ruleId);
    }
    return rule;
  });
  const expected = retryPolicyDigest(f.value);
  if (policyDigest !== expected) {
    throw new RetryPolicyError(
      'retry_policy_invalid_digest',
      'policy.policyDigest',
      `expected ${expected} (the digest of the policy payload), received ${policyDigest}`,
    );
  }
  return Object.freeze({
    schema: 1,
    policyKind: RETRY_POLICY_KIND,
    policyId,
    policyDigest,
    defaultRule,
    rules: Object.freeze(rules),
  });
}

/**
 * The decision for one failed attempt.
 *
 * @example
 * ```ts
 * import type { RetryDecision } from 'turngate/tusk';
 * declare const decision: RetryDecision;
 * const next = decision.retry ? `retry (${decision.backoffClass})` : decision.escalationAction;
 * ```
 */
export interface RetryDecision {
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  /** Whether to retry: `attempt < maxAttempts`. */
  readonly retry: boolean;
  /** The matched rule's budget. */
  readonly maxAttempts: number;
  /** The matched rule's backoff label. */
  readonly backoffClass: string;
  /** What to do when not retrying. */
  readonly escalationAction: EscalationAction;
  /** The matched rule (`default` when none matched). */
  readonly ruleId: string;
  /** The failure class that picked the rule (the first given, or `pipeline_missing_failure_class` when none). */
  readonly matchedFailureClass: string;
  /** Every failure class given, trimmed, sorted, deduplicated. */
  readonly failureClasses: readonly string[];
  /** The policy's id. */
  readonly policyId: string;
  /** The policy's digest. */
  readonly policyDigest: string;
}

/** The class premath records for a failure that named no class. */
export const MISSING_FAILURE_CLASS = 'pipeline_missing_failure_class';

/**
 * Trims the failure classes, drops blanks and repeats, keeps their order; a failure that named
 * no class gets `pipeline_missing_failure_class`, so it is still classified, never passed.
 *
 * Source: HARNESS-RETRY-ESCALATION §5 (classify; fail closed on classification errors).
 *
 * @param failureClasses - The classes as reported.
 * @returns The ordered classes (never empty).
 * @example
 * ```ts
 * import { classifyFailureClasses } from 'turngate/tusk';
 * [classifyFailureClasses([' flaky_io ', 'check_failed', 'flaky_io']), classifyFailureClasses([' '])];
 * //=> [['flaky_io', 'check_failed'], ['pipeline_missing_failure_class']]
 * ```
 */
export function classifyFailureClasses(failureClasses: readonly string[]): string[] {
  const ordered = orderedClasses(failureClasses);
  return ordered.length > 0 ? ordered : [MISSING_FAILURE_CLASS];
}

/** The classes trimmed, blanks and repeats dropped, in the order given. */
function orderedClasses(failureClasses: readonly string[]): string[] {
  return [...new Set(failureClasses.map((c) => trimWhiteSpace(c)).filter((c) => c !== ''))];
}

/**
 * Decides retry or escalation for one failed attempt: the first failure class (in the order
 * given) that a rule names picks that rule, otherwise the default rule applies; the attempt is
 * retried while `attempt < maxAttempts`, else the rule's escalation action applies. The same
 * inputs always give the same decision.
 *
 * Source: HARNESS-RETRY-ESCALATION §3, §4, §5; the Tusk harness contract §5.
 *
 * @param policy - A loaded policy.
 * @param failureClasses - The failed attempt's classes.
 * @param attempt - The attempt number, from 1.
 * @returns The decision.
 * @throws {@link HarnessInputError} (`attempt`) when `attempt` is not an integer >= 1.
 * @example
 * ```ts
 * import { decideRetry, parseRetryPolicy, retryPolicyDigest } from 'turngate/tusk';
 * const document = { schema: 1, policyKind: 'ci.harness.retry.policy.v1', policyId: 'policy.example.v1',
 *   defaultRule: { maxAttempts: 1, backoffClass: 'none', escalationAction: 'stop' },
 *   rules: [{ ruleId: 'transient_retry', failureClasses: ['flaky_io'], maxAttempts: 3, backoffClass: 'exponential_short', escalationAction: 'issue_discover' }] };
 * const policy = parseRetryPolicy({ ...document, policyDigest: retryPolicyDigest(document) });
 * const first = decideRetry(policy, ['flaky_io'], 1);
 * const third = decideRetry(policy, ['flaky_io'], 3);
 * [first.retry, first.backoffClass, third.retry, third.escalationAction]; //=> [true, 'exponential_short', false, 'issue_discover']
 * ```
 */
export function decideRetry(policy: RetryPolicy, failureClasses: readonly string[], attempt: number): RetryDecision {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new HarnessInputError('attempt', `expected an integer >= 1, received ${String(attempt)}`);
  }
  const ordered = orderedClasses(failureClasses);
  let rule = policy.defaultRule;
  let matched = ordered[0] ?? MISSING_FAILURE_CLASS;
  for (const failureClass of ordered) {
    const candidate = policy.rules.find((r) => r.failureClasses.includes(failureClass));
    if (candidate !== undefined) {
      rule = candidate;
      matched = failureClass;
      break;
    }
  }
  return Object.freeze({
    attempt,
    retry: attempt < rule.maxAttempts,
    maxAttempts: rule.maxAttempts,
    backoffClass: rule.backoffClass,
    escalationAction: rule.escalationAction,
    ruleId: rule.ruleId,
    matchedFailureClass: matched,
    failureClasses: Object.freeze(sortUtf8([...ordered])),
    policyId: policy.policyId,
    policyDigest: policy.policyDigest,
  });
}
