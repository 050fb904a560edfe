import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJson } from '../canonical/index.ts';
import { decodeExtendedInput } from './index.ts';

const PROFILE = 'turngate.harness.extended.v1';

function decoded(input: unknown) {
  const outcome = decodeExtendedInput(input);
  if (!outcome.ok) throw new Error(`unexpected input error: ${outcome.failures[0]?.message}`);
  return outcome.value;
}

function refused(input: unknown) {
  const outcome = decodeExtendedInput(input);
  if (outcome.ok) throw new Error('expected the input to be refused');
  const [error, ...rest] = outcome.failures;
  if (error === undefined || rest.length > 0) throw new Error('expected exactly one input error');
  return error;
}

describe('decodeExtendedInput', () => {
  it('reads nothing without a profile, so malformed extended fields are ignored as premath ignores them', () => {
    expect(decoded({ evidence: { callSpec: { toolPolicy: 'not a policy' }, toolSearches: 7 } })).toBeUndefined();
    expect(decoded({ profile: null, evidence: { callSpec: { toolPolicy: 1 } } })).toBeUndefined();
  });

  it('refuses a profile it does not know, naming the field and the accepted value', () => {
    const error = refused({ profile: 'turngate.harness.extended.v2', evidence: { callSpec: {} } });
    expect(error.field).toBe('profile');
    expect(error.expected).toContain('"turngate.harness.extended.v1"');
    expect(error.expected).toContain('"turngate.harness.extended.v2"');
    expect(refused({ profile: 1, evidence: { callSpec: {} } }).expected).toContain('received number');
  });

  it('reads the extended fields of premath rows and the extended rows, with defaults', () => {
    const value = decoded({
      profile: ` ${PROFILE} `,
      evidence: {
        callSpec: { callId: 'c', toolPolicy: { tools: [{ toolName: 'fs.read', schemaDigest: 'sha256:s' }] } },
        toolRequests: [{ toolCallId: 'a', toolName: 'fs.read', transportIndex: new JsonNumber('0') }],
        toolResults: [{ toolCallId: 'a', status: 'ok' }],
        guardrailDecisions: [{ decisionId: 'd', stage: 'input', guardrailId: 'g', sequence: 2, policyDigest: 'p' }],
      },
    });
    expect(value?.evidence.callSpec.toolPolicy?.tools[0]).toEqual({
      toolName: 'fs.read',
      schemaDigest: 'sha256:s',
      deferLoading: false,
    });
    expect(value?.evidence.toolRequests[0]?.transportIndex).toBe(0);
    expect(value?.evidence.toolResults[0]?.terminal).toBe(true);
    expect(value?.evidence.guardrailDecisions[0]?.triggered).toBe(false);
    expect(value?.evidence.transfers).toEqual([]);
  });

  it('reads a premath row written as a positional array as having no extended fields', () => {
    const value = decoded({ profile: PROFILE, evidence: { callSpec: {}, toolRequests: [['a', 'fs.read']] } });
    expect(value?.evidence.toolRequests).toEqual([{}]);
  });

  it('names the field of a malformed extended value', () => {
    const error = refused({
      profile: PROFILE,
      evidence: { callSpec: {}, toolResults: [{ toolCallId: 'a' }, { toolCallId: 'b', transportIndex: -1 }] },
    });
    expect(error.field).toBe('evidence.toolResults[1].transportIndex');
    expect(error.expected).toMatch(/^expected a non-negative integer/);
  });

  it('reads integers from JSON text as serde reads a u64: no fraction, no exponent', () => {
    const text = (n: string) =>
      `{"profile":"${PROFILE}","evidence":{"callSpec":{"parallelPolicy":{"allowed":true,"maxBranches":${n}}}}}`;
    expect(decoded(parseJson(text('3')))?.evidence.callSpec.parallelPolicy?.maxBranches).toBe(3);
    expect(refused(parseJson(text('3.0'))).field).toBe('evidence.callSpec.parallelPolicy.maxBranches');
    expect(refused(parseJson(text('3e0'))).field).toBe('evidence.callSpec.parallelPolicy.maxBranches');
    expect(refused(parseJson(text('9007199254740992'))).field).toBe('evidence.callSpec.parallelPolicy.maxBranches');
  });

  it('reads ratios from 0 to 1 and refuses others', () => {
    const gate = (minF1: unknown) => ({
      profile: PROFILE,
      evidence: { callSpec: { evalGatePolicy: { minPrecision: 0.9, minRecall: new JsonNumber('0.8'), minF1 } } },
    });
    expect(decoded(gate(1))?.evidence.callSpec.evalGatePolicy).toEqual({
      minPrecision: 0.9,
      minRecall: 0.8,
      minF1: 1,
      minLabeledExamples: undefined,
    });
    expect(refused(gate(1.5)).expected).toBe('expected a number from 0 to 1');
    expect(refused(gate('0.5')).field).toBe('evidence.callSpec.evalGatePolicy.minF1');
  });

  it('refuses a repeated extended field', () => {
    const text = `{"profile":"${PROFILE}","evidence":{"callSpec":{"riskTier":"low","riskTier":"high"}}}`;
    const error = refused(parseJson(text));
    expect(error.field).toBe('evidence.callSpec.riskTier');
    expect(error.expected).toBe('duplicate field `riskTier`');
  });
});
