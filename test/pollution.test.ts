/**
 * A polluted Object.prototype (some other bug in the host application) must not change what
 * the join check decides: for every field name the check, its schemas or its normalization
 * could read, and for values chosen to satisfy or break a turn, the report is the same as on a
 * clean prototype, whether the input is an object built in code or JSON text.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { joinCheck, joinCheckText, renderJoinCheckJson, type JoinCheckResult } from '../src/join-check.ts';
import { callSpec } from './arbitraries.ts';
import { jsonKeys } from './turn-fixtures.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples', 'evidence');

/** What an outcome says, as text: the --json bytes and the failures, or the input error. */
function verdict(outcome: JoinCheckResult): string {
  if (!outcome.ok) return `invalid ${outcome.failures[0]?.field}: ${outcome.failures[0]?.expected}`;
  return `${renderJoinCheckJson(outcome.value)}${JSON.stringify(outcome.value.failures)}`;
}

const closedTurn = {
  evidence: {
    callSpec,
    toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
    toolResults: [{ toolCallId: 'tc-1', status: 'ok', payload: { bytes: 10 } }],
    toolUse: [{ toolCallId: 'tc-1', disposition: 'observed' }],
    protocolState: { stopReason: 'end_turn' },
  },
};
const bases: Record<string, unknown> = {
  'a closed turn': closedTurn,
  'a turn without toolUse rows': { evidence: { ...closedTurn.evidence, toolUse: undefined } },
  'a turn whose handoff constraints need a packet': {
    ...closedTurn,
    handoffConstraints: { requiredArtifactRefs: ['artifact://a'], requireReturnPath: true, allowedTargets: ['t'] },
  },
  'a claimed governance profile without provenance': { ...closedTurn, governanceProfile: { claimed: true } },
  'an error row without an envelope': {
    evidence: { ...closedTurn.evidence, toolResults: [{ toolCallId: 'tc-1', status: 'error' }] },
  },
  'input missing its callSpec': { evidence: { ...closedTurn.evidence, callSpec: undefined } },
  'input with a row missing a required field': {
    evidence: { ...closedTurn.evidence, toolRequests: [{ toolCallId: 'tc-1' }] },
  },
};
for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) {
  bases[file] = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
}

/** Field names of the input, of the report, and what the schema library reads on its own objects. */
const names = new Set<string>([
  ...jsonKeys(Object.values(bases), new Set()),
  ...['handoff', 'governanceProfile', 'protocolConstraints', 'handoffConstraints', 'truncationConstraints'],
  ...['decompositionConstraints', 'policyProvenance', 'sessionRefs', 'trajectoryRefs', 'toolRender'],
  ...['reminderQueue', 'stateViews', 'status', 'errorCode', 'retryable', 'errorMessage', 'rawError', 'code'],
  ...['message', 'reasonCode', 'resultDigest', 'returnPathRef', 'requiredArtifactRefs', 'target', 'payload'],
  ...['missingResultCallIds', 'orphanResultCallIds', 'missingUseCallIds', 'unknownUseCallIds'],
  ...['missingRenderCallIds', 'handoffDigest', 'continuationAllowed', 'claimed', 'pinned', 'admissible'],
  ...['required', 'valid', 'requireReturnPath', 'allowedTargets', 'parallelTransportOrderValid'],
  ...['fallback', 'default', 'issues', 'typed', 'abortEarly', 'abortPipeEarly', 'lang', 'value'],
  ...['0', '1'],
]);
for (const outcome of Object.values(bases).map((base) => joinCheck(base))) {
  if (outcome.ok) jsonKeys(JSON.parse(renderJoinCheckJson(outcome.value)), names);
}

/** What the schema library reads from its own objects: the decode refuses to run when these are polluted. */
const VALIDATOR_READS = new Set(['issues', 'typed', 'fallback']);

/** Values meant to satisfy whatever reads them: rows, lists, flags, strings, a whole callSpec. */
const row = { toolCallId: 'tc-1', toolName: 'fs.read', disposition: 'consumed', status: 'ok', target: 't' };
const pollutants: unknown[] = [
  [row],
  { ...callSpec, stopReason: 'end_turn', target: 't', claimed: false, pinned: true },
  true,
  'error',
  [],
];

const proto: object = Object.prototype;
const arrayProto: object = Array.prototype;
const polluted: [object, string][] = [];
afterEach(() => {
  for (const [target, name] of polluted.splice(0)) Reflect.deleteProperty(target, name);
});

function pollute(target: object, name: string, value: unknown, enumerable: boolean): void {
  if (Object.hasOwn(target, name)) throw new Error(`${name} is a standard property; not polluting it`);
  Object.defineProperty(target, name, { value, enumerable, writable: true, configurable: true });
  polluted.push([target, name]);
}

describe('the join check under a polluted prototype', () => {
  // For every other name, the verdict is the one given on a clean prototype; for the three names
  // the validator reads as its own, every input is refused, naming the property.
  const texts = new Map(Object.entries(bases).map(([label, base]) => [label, JSON.stringify(base)]));
  const expected = new Map(
    Object.entries(bases).map(([label, base]) => [
      label,
      { object: verdict(joinCheck(base)), text: verdict(joinCheckText(JSON.stringify(base))) },
    ]),
  );

  it('covers at least the fields the issue names', () => {
    // capabilityClaims is the mutation gate's, not the join check's.
    for (const name of ['toolUse', 'sessionRefs', 'trajectoryRefs', 'evidence']) expect(names.has(name)).toBe(true);
    expect(names.size).toBeGreaterThan(80);
  });

  function changedVerdicts(): string[] {
    const changed: string[] = [];
    for (const [label, base] of Object.entries(bases)) {
      const want = expected.get(label);
      if (verdict(joinCheck(base)) !== want?.object) changed.push(`object: ${label}`);
      if (verdict(joinCheckText(texts.get(label) ?? '')) !== want?.text) changed.push(`text: ${label}`);
    }
    return changed;
  }

  it.each(['enumerable', 'non-enumerable'])(
    'gives the same verdict with every field name set on Object.prototype at once (%s)',
    (kind) => {
      const changed: string[] = [];
      for (const [index, value] of pollutants.entries()) {
        for (const name of names) if (!VALIDATOR_READS.has(name)) pollute(proto, name, value, kind === 'enumerable');
        try {
          changed.push(...changedVerdicts().map((what) => `pollutant ${index}, ${what}`));
        } finally {
          for (const [target, name] of polluted.splice(0)) Reflect.deleteProperty(target, name);
        }
      }
      expect(changed).toEqual([]);
    },
  );

  it.each(['toolUse', 'toolResults', 'sessionRefs', 'trajectoryRefs', 'evidence', 'handoff', 'returnPathRef'])(
    'gives the same verdict with Object.prototype.%s alone polluted',
    (name) => {
      for (const value of pollutants) {
        pollute(proto, name, value, true);
        try {
          expect(changedVerdicts()).toEqual([]);
        } finally {
          for (const [target, added] of polluted.splice(0)) Reflect.deleteProperty(target, added);
        }
      }
    },
  );

  it.each([...VALIDATOR_READS])('refuses every input, naming it, while Object.prototype.%s is set', (name) => {
    pollute(proto, name, [row], false);
    const refusal = `Object.prototype holds \`${name}\``;
    for (const [label, base] of Object.entries(bases)) {
      for (const outcome of [joinCheck(base), joinCheckText(texts.get(label) ?? '')]) {
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) {
          expect(outcome.failures[0]?.field).toBe('');
          expect(outcome.failures[0]?.message).toContain(refusal);
        }
      }
    }
  });

  it('reads no array element through a hole: Array.prototype[1] does not fill one', () => {
    pollute(arrayProto, '1', { toolCallId: 'tc-1', disposition: 'observed' }, false);
    // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
    const holey = [{ toolCallId: 'tc-1', disposition: 'observed' }, , { toolCallId: 'tc-1', disposition: 'observed' }];
    const outcome = joinCheck({ evidence: { ...closedTurn.evidence, toolUse: holey } });
    expect(outcome.ok ? 'accepted' : outcome.failures[0]?.field).toBe('evidence.toolUse[1]');
  });

  it('hands back a report whose objects have no prototype while Object.prototype is polluted', () => {
    pollute(proto, 'unrelated', 1, false);
    const outcome = joinCheck(closedTurn);
    if (!outcome.ok) throw outcome.failures[0];
    const { value: report } = outcome;
    for (const value of [
      report,
      report.witness,
      report.witness.joinInput,
      report.witness.mutationInput,
      report.normalized,
    ]) {
      expect(Object.getPrototypeOf(value)).toBeNull();
    }
    // A reader of the report (the mutation gate) sees no inherited witness field either.
    pollute(proto, 'handoffDigest', 'sha256:forged', true);
    expect(report.witness.joinInput.handoffDigest).toBeUndefined();
  });

  it('spends nothing on a clean prototype: the report is made of ordinary objects', () => {
    const outcome = joinCheck(closedTurn);
    expect(outcome.ok && Object.getPrototypeOf(outcome.value)).toBe(Object.prototype);
  });
});
