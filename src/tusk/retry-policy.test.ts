import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RetryPolicyError } from './errors.ts';
import {
  classifyFailureClasses,
  decideRetry,
  parseRetryPolicy,
  retryPolicyDigest,
  type RetryPolicy,
} from './retry-policy.ts';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'harness', 'retry-policy.json');
// The digest Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False) + sha256 gives.
const EXAMPLE_DIGEST = 'pol1_6cfb2075b1283b5545ea27f28da708492cac967a3ab13395251ba5768b419d21';
const UPSTREAM = join(
  process.env['TURNGATE_UPSTREAM'] ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'upstream'),
  'premath',
  'policies',
  'control',
  'harness-retry-policy-v1.json',
);

const document = () => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
const policy = (): RetryPolicy => parseRetryPolicy(readFileSync(EXAMPLE));

function refusal(input: unknown): RetryPolicyError {
  try {
    parseRetryPolicy(input);
  } catch (error) {
    if (error instanceof RetryPolicyError) return error;
    throw error;
  }
  throw new Error('accepted');
}

function resigned(change: (doc: Record<string, unknown>) => void): Record<string, unknown> {
  const doc = document();
  change(doc);
  return { ...doc, policyDigest: retryPolicyDigest(doc) };
}

describe('retry policy loading (HARNESS-RETRY-ESCALATION §2: digest discipline, fail closed)', () => {
  it('checks the policyDigest byte-for-byte against an independent digest', () => {
    expect(retryPolicyDigest(document())).toBe(EXAMPLE_DIGEST);
    expect(policy().policyDigest).toBe(EXAMPLE_DIGEST);
  });

  it("accepts premath's canonical policy with its own digest (when the upstream suites are beside the clone)", () => {
    const sources = existsSync(UPSTREAM) ? [UPSTREAM, EXAMPLE] : [EXAMPLE];
    for (const source of sources) {
      const text = readFileSync(source);
      const loaded = parseRetryPolicy(text);
      expect(loaded.policyDigest).toBe((JSON.parse(text.toString()) as { policyDigest: string }).policyDigest);
      expect(loaded.rules.length).toBeGreaterThan(0);
    }
  });

  it('fails closed on a digest that does not match the payload', () => {
    const doc = document();
    doc['rules'] = [
      { ruleId: 'r', failureClasses: ['x'], maxAttempts: 9, backoffClass: 'none', escalationAction: 'stop' },
    ];
    const error = refusal(doc);
    expect(error.code).toBe('retry_policy_invalid_digest');
    expect(error.field).toBe('policy.policyDigest');
    expect(error.expected).toContain(retryPolicyDigest(doc));
    expect(refusal({ ...document(), policyDigest: 'sha256:abc' }).code).toBe('retry_policy_invalid_digest');
  });

  it('digests the payload as parsed: a reordered or reformatted document keeps its digest', () => {
    const doc = document();
    const reordered = Object.fromEntries(Object.entries(doc).reverse());
    expect(parseRetryPolicy(JSON.stringify(reordered)).policyDigest).toBe(EXAMPLE_DIGEST);
    expect(parseRetryPolicy(JSON.stringify(doc, null, 7)).policyDigest).toBe(EXAMPLE_DIGEST);
  });

  it.each([
    ['bad JSON', '{"schema": 1', 'retry_policy_invalid_json', 'policy'],
    [
      'schema 2',
      resigned((d) => {
        d['schema'] = 2;
      }),
      'retry_policy_invalid_shape',
      'policy.schema',
    ],
    [
      'another kind',
      resigned((d) => {
        d['policyKind'] = 'x';
      }),
      'retry_policy_invalid_shape',
      'policy.policyKind',
    ],
    [
      'a blank policy id',
      resigned((d) => {
        d['policyId'] = ' ';
      }),
      'retry_policy_invalid_shape',
      'policy.policyId',
    ],
    [
      'no rules',
      resigned((d) => {
        d['rules'] = [];
      }),
      'retry_policy_invalid_shape',
      'policy.rules',
    ],
    [
      'maxAttempts 0',
      resigned((d) => {
        const rules = d['rules'] as object[];
        rules[1] = { ...rules[1], maxAttempts: 0 };
      }),
      'retry_policy_invalid_shape',
      'policy.rules[1].maxAttempts',
    ],
    [
      'a fractional maxAttempts',
      resigned((d) => {
        d['defaultRule'] = { maxAttempts: 1.5, backoffClass: 'none', escalationAction: 'stop' };
      }),
      'retry_policy_invalid_shape',
      'policy.defaultRule.maxAttempts',
    ],
    [
      'an unknown escalation action',
      resigned((d) => {
        d['defaultRule'] = { maxAttempts: 1, backoffClass: 'none', escalationAction: 'page_someone' };
      }),
      'retry_policy_invalid_shape',
      'policy.defaultRule.escalationAction',
    ],
    [
      'a duplicate rule id',
      resigned((d) => {
        (d['rules'] as object[]).push({
          ruleId: 'transient_retry',
          failureClasses: ['z'],
          maxAttempts: 1,
          backoffClass: 'none',
          escalationAction: 'stop',
        });
      }),
      'retry_policy_invalid_shape',
      'policy.rules[2].ruleId',
    ],
    [
      'overlapping failure classes',
      resigned((d) => {
        (d['rules'] as object[]).push({
          ruleId: 'again',
          failureClasses: ['flaky_io'],
          maxAttempts: 1,
          backoffClass: 'none',
          escalationAction: 'stop',
        });
      }),
      'retry_policy_invalid_shape',
      'policy.rules[2].failureClasses',
    ],
    [
      'a blank failure class',
      resigned((d) => {
        (d['rules'] as object[]).push({
          ruleId: 'blank',
          failureClasses: [' '],
          maxAttempts: 1,
          backoffClass: 'none',
          escalationAction: 'stop',
        });
      }),
      'retry_policy_invalid_shape',
      'policy.rules[2].failureClasses[0]',
    ],
    [
      'a rule that is not an object',
      resigned((d) => {
        d['rules'] = ['x'];
      }),
      'retry_policy_invalid_shape',
      'policy.rules[0]',
    ],
  ])('refuses %s', (_name, input, failureClass, field) => {
    const error = refusal(input);
    expect([error.code, error.field]).toEqual([failureClass, field]);
  });
});

describe('decideRetry (HARNESS-RETRY-ESCALATION §3-§5; the Tusk harness contract §5)', () => {
  it('retries within the budget with the backoff label, then escalates', () => {
    const p = policy();
    expect(decideRetry(p, ['flaky_io'], 1)).toMatchObject({
      retry: true,
      maxAttempts: 3,
      backoffClass: 'exponential_short',
      ruleId: 'transient_retry',
    });
    expect(decideRetry(p, ['flaky_io'], 2).retry).toBe(true);
    expect(decideRetry(p, ['flaky_io'], 3)).toMatchObject({ retry: false, escalationAction: 'issue_discover' });
    expect(decideRetry(p, ['check_failed'], 1)).toMatchObject({
      retry: false,
      escalationAction: 'mark_blocked',
      backoffClass: 'none',
    });
  });

  it('picks the rule of the first class a rule names, in the order given', () => {
    const p = policy();
    expect(decideRetry(p, ['unknown_x', 'check_failed', 'flaky_io'], 1)).toMatchObject({
      ruleId: 'semantic_no_retry',
      matchedFailureClass: 'check_failed',
      failureClasses: ['check_failed', 'flaky_io', 'unknown_x'],
    });
    expect(decideRetry(p, ['flaky_io', 'check_failed'], 1).ruleId).toBe('transient_retry');
  });

  it('falls back to the default rule, naming the first class (or the missing-class marker)', () => {
    const p = policy();
    expect(decideRetry(p, ['unknown_x'], 1)).toMatchObject({
      ruleId: 'default',
      matchedFailureClass: 'unknown_x',
      retry: false,
      escalationAction: 'stop',
    });
    expect(decideRetry(p, [], 1).matchedFailureClass).toBe('pipeline_missing_failure_class');
  });

  it('classifies a failure with no class as pipeline_missing_failure_class, never as a pass', () => {
    expect(classifyFailureClasses([])).toEqual(['pipeline_missing_failure_class']);
    expect(classifyFailureClasses([' a ', 'b', 'a', ''])).toEqual(['a', 'b']);
  });

  it('refuses an attempt below 1', () => {
    expect(() => decideRetry(policy(), ['flaky_io'], 0)).toThrow(/attempt/);
    expect(() => decideRetry(policy(), ['flaky_io'], 1.5)).toThrow(/attempt/);
  });

  it('is deterministic and retries exactly while attempt < maxAttempts (property)', () => {
    const p = policy();
    const classes = fc.array(
      fc.constantFrom('flaky_io', 'network_timeout', 'check_failed', 'other', ' ', 'flaky_io '),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(classes, fc.integer({ min: 1, max: 6 }), (cs, attempt) => {
        const decision = decideRetry(p, cs, attempt);
        expect(decideRetry(p, [...cs], attempt)).toEqual(decision);
        const rule = [p.defaultRule, ...p.rules].find((r) => r.ruleId === decision.ruleId);
        expect(rule).toBeDefined();
        expect(decision.retry).toBe(attempt < (rule?.maxAttempts ?? 0));
        const first = cs.map((c) => c.trim()).find((c) => p.rules.some((r) => r.failureClasses.includes(c)));
        expect(decision.ruleId).toBe(
          first === undefined ? 'default' : p.rules.find((r) => r.failureClasses.includes(first))?.ruleId,
        );
      }),
    );
  });
});
