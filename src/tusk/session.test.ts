import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJson } from '../canonical/index.ts';
import { HarnessInputError } from './errors.ts';
import { parseFeatureLedger, projectFeatures } from './feature-ledger.ts';
import {
  bootstrapSession,
  newSessionId,
  parseSession,
  renderSession,
  updateSession,
  type HarnessSession,
  type SessionUpdate,
} from './session.ts';
import { isRfc3339 } from './time.ts';

const base = {
  schema: 1,
  sessionKind: 'premath.harness.session.v1',
  sessionId: 'hs-1',
  state: 'active',
  startedAt: '2026-02-22T01:00:00Z',
  updatedAt: '2026-02-22T01:00:00Z',
};

function refused(value: unknown): HarnessInputError {
  try {
    parseSession(value);
  } catch (error) {
    if (error instanceof HarnessInputError) return error;
    throw error;
  }
  throw new Error('accepted');
}

const at = (iso: string) => new Date(iso);

describe('parseSession (the Tusk harness contract §11: required and optional fields)', () => {
  it('reads a minimal artifact', () => {
    expect(parseSession(base)).toEqual(base);
  });

  it('reads every optional field and normalizes', () => {
    const session = parseSession({
      ...base,
      state: 'stopped',
      issueId: ' bd-7 ',
      summary: '\u3000',
      nextStep: null,
      instructionRefs: ['i/b', ' i/a ', 'i/b', ''],
      witnessRefs: ['lease://handoff/bd-7/released/ab'],
      lineageRefs: ['refinement://x', 'ctx://x', 'cover://x'],
      stoppedAt: '2026-02-22T02:00:00Z',
      issuesPath: '.premath/issues.jsonl',
      issuesSnapshotRef: 'iss1_ab',
      unknownField: 'ignored, as serde ignores it',
    });
    expect(session).toEqual({
      ...base,
      state: 'stopped',
      issueId: 'bd-7',
      instructionRefs: ['i/a', 'i/b'],
      witnessRefs: ['lease://handoff/bd-7/released/ab'],
      lineageRefs: ['cover://x', 'ctx://x', 'refinement://x'],
      stoppedAt: '2026-02-22T02:00:00Z',
      issuesPath: '.premath/issues.jsonl',
      issuesSnapshotRef: 'iss1_ab',
    });
    expect(Object.isFrozen(session)).toBe(true);
  });

  it.each([
    ['a missing schema', { ...base, schema: undefined }, 'session.schema', 'required field is missing'],
    ['schema 2', { ...base, schema: 2 }, 'session.schema', 'expected 1, received the number 2'],
    [
      'another kind',
      { ...base, sessionKind: 'premath.harness.session.v2' },
      'session.sessionKind',
      'expected "premath.harness.session.v1"',
    ],
    ['a blank session id', { ...base, sessionId: '  ' }, 'session.sessionId', 'expected a non-blank string'],
    [
      'an unknown state',
      { ...base, state: 'paused' },
      'session.state',
      'expected "active" or "stopped", received "paused"',
    ],
    [
      'a malformed startedAt',
      { ...base, startedAt: '2026-02-22 1am' },
      'session.startedAt',
      'expected an RFC 3339 timestamp',
    ],
    ['a missing updatedAt', { ...base, updatedAt: undefined }, 'session.updatedAt', 'required field is missing'],
    [
      'a stopped session without stoppedAt',
      { ...base, state: 'stopped' },
      'session.stoppedAt',
      'required when state is "stopped"',
    ],
    [
      'an active session with stoppedAt',
      { ...base, stoppedAt: '2026-02-22T02:00:00Z' },
      'session.stoppedAt',
      'must be absent',
    ],
    ['a malformed stoppedAt', { ...base, state: 'stopped', stoppedAt: '02/22/2026' }, 'session.stoppedAt', 'RFC 3339'],
    ['refs that are not a list', { ...base, witnessRefs: 'a' }, 'session.witnessRefs', 'expected an array of strings'],
    ['a null refs list', { ...base, witnessRefs: null }, 'session.witnessRefs', 'received null'],
    ['a ref that is not a string', { ...base, lineageRefs: ['a', 7] }, 'session.lineageRefs[1]', 'expected a string'],
    ['a number issue id', { ...base, issueId: 7 }, 'session.issueId', 'expected a string, received the number 7'],
    ['an array', [base], 'session', 'expected a harness session artifact'],
  ])('refuses %s, naming the field', (_name, value, field, expected) => {
    const error = refused(value);
    expect(error.field).toBe(field);
    expect(error.expected).toContain(expected);
  });

  it('refuses a repeated field, as serde does', () => {
    const text =
      '{"schema":1,"sessionKind":"premath.harness.session.v1","sessionId":"a","sessionId":"b","state":"active","startedAt":"2026-02-22T01:00:00Z","updatedAt":"2026-02-22T01:00:00Z"}';
    expect(refused(parseJson(text)).field).toBe('session.sessionId');
    expect(refused(text).expected).toBe('duplicate field');
  });

  it('reads JSON text, refusing bad JSON with a field-less error', () => {
    expect(parseSession(JSON.stringify(base)).sessionId).toBe('hs-1');
    expect(refused('{"schema": 1,').expected).toMatch(/^invalid JSON: /);
  });
});

describe('updateSession (the Tusk harness contract §11: determinism rules)', () => {
  it('starts a session with a generated id, startedAt = updatedAt = now', () => {
    const session = updateSession(undefined, { state: 'active', issueId: 'BD 7/x' }, at('2026-02-22T01:02:03.456Z'));
    expect(session).toEqual({
      schema: 1,
      sessionKind: 'premath.harness.session.v1',
      sessionId: 'hs1_20260222T010203Z_bd_7_x',
      state: 'active',
      issueId: 'BD 7/x',
      startedAt: '2026-02-22T01:02:03Z',
      updatedAt: '2026-02-22T01:02:03Z',
    });
  });

  it('updates in place: keeps sessionId and startedAt, refreshes updatedAt', () => {
    const first = updateSession(undefined, { state: 'active', sessionId: 'hs-1' }, at('2026-02-22T01:00:00Z'));
    const second = updateSession(first, { state: 'active', summary: 'working' }, at('2026-02-22T03:00:00Z'));
    expect([second.sessionId, second.startedAt, second.updatedAt]).toEqual([
      'hs-1',
      '2026-02-22T01:00:00Z',
      '2026-02-22T03:00:00Z',
    ]);
    const overridden = updateSession(second, { state: 'active', sessionId: ' hs-2 ' }, at('2026-02-22T04:00:00Z'));
    expect([overridden.sessionId, overridden.startedAt]).toEqual(['hs-2', '2026-02-22T01:00:00Z']);
    expect(updateSession(second, { state: 'active', sessionId: '  ' }, at('2026-02-22T04:00:00Z')).sessionId).toBe(
      'hs-1',
    );
  });

  it('sets stoppedAt exactly when stopped', () => {
    const active = updateSession(undefined, { state: 'active', sessionId: 'hs-1' }, at('2026-02-22T01:00:00Z'));
    const stopped = updateSession(active, { state: 'stopped' }, at('2026-02-22T02:00:00Z'));
    expect(stopped.stoppedAt).toBe('2026-02-22T02:00:00Z');
    const again = updateSession(stopped, { state: 'active' }, at('2026-02-22T03:00:00Z'));
    expect('stoppedAt' in again).toBe(false);
  });

  it('keeps omitted fields, drops blank strings, replaces and normalizes ref lists', () => {
    const first = updateSession(
      undefined,
      {
        state: 'active',
        sessionId: 'hs-1',
        issueId: 'bd-7',
        summary: 's',
        witnessRefs: ['b', 'a'],
        lineageRefs: ['x'],
      },
      at('2026-02-22T01:00:00Z'),
    );
    const second = updateSession(
      first,
      { state: 'active', summary: ' \t ', witnessRefs: [' c ', 'c', ''] },
      at('2026-02-22T02:00:00Z'),
    );
    expect(second.issueId).toBe('bd-7');
    expect('summary' in second).toBe(false);
    expect(second.witnessRefs).toEqual(['c']);
    expect(second.lineageRefs).toEqual(['x']);
    expect(
      'lineageRefs' in updateSession(second, { state: 'active', lineageRefs: [] }, at('2026-02-22T03:00:00Z')),
    ).toBe(false);
  });

  it('keeps the snapshot ref unless a new one (or null) is given', () => {
    const first = updateSession(
      undefined,
      { state: 'active', sessionId: 'h', issuesPath: 'i.jsonl', issuesSnapshotRef: 'iss1_a' },
      at('2026-02-22T01:00:00Z'),
    );
    expect(updateSession(first, { state: 'active' }, at('2026-02-22T02:00:00Z')).issuesSnapshotRef).toBe('iss1_a');
    expect(
      'issuesSnapshotRef' in
        updateSession(first, { state: 'active', issuesSnapshotRef: null }, at('2026-02-22T02:00:00Z')),
    ).toBe(false);
  });

  it('refuses an unknown state', () => {
    const update: SessionUpdate = JSON.parse('{"state":"paused"}');
    expect(() => updateSession(undefined, update, at('2026-02-22T01:00:00Z'))).toThrow(HarnessInputError);
  });

  const update = fc.record(
    {
      state: fc.constantFrom('active', 'stopped'),
      sessionId: fc.option(fc.constantFrom('hs-a', ' hs-b ', ' '), { nil: undefined }),
      issueId: fc.option(fc.constantFrom('bd-1', ' bd-2', '', '  '), { nil: undefined }),
      summary: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      nextStep: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
      witnessRefs: fc.option(fc.array(fc.constantFrom('a', ' b', 'b ', '', 'c'), { maxLength: 5 }), { nil: undefined }),
      lineageRefs: fc.option(fc.array(fc.constantFrom('ctx://1', 'cover://1', ' '), { maxLength: 3 }), {
        nil: undefined,
      }),
    },
    { requiredKeys: ['state'] },
  ) as fc.Arbitrary<SessionUpdate>;

  it('keeps every invariant over any sequence of writes (property)', () => {
    fc.assert(
      fc.property(fc.array(update, { minLength: 1, maxLength: 8 }), (updates) => {
        let session: HarnessSession | undefined;
        let clock = Date.parse('2026-02-22T01:00:00Z');
        let firstId: string | undefined;
        let startedAt: string | undefined;
        for (const u of updates) {
          const now = new Date(clock);
          const next = updateSession(session, u, now);
          if (session !== undefined && (u.sessionId === undefined || u.sessionId.trim() === '')) {
            expect(next.sessionId).toBe(session.sessionId);
          }
          firstId ??= next.sessionId;
          startedAt ??= next.startedAt;
          expect(next.startedAt).toBe(startedAt);
          expect(next.updatedAt).toBe(new Date(clock).toISOString().replace('.000Z', 'Z'));
          expect(next.stoppedAt !== undefined).toBe(next.state === 'stopped');
          for (const key of ['issueId', 'summary', 'nextStep'] as const) {
            const value = next[key];
            if (value !== undefined) expect(value.trim()).toBe(value);
            if (value !== undefined) expect(value).not.toBe('');
          }
          for (const refs of [next.witnessRefs, next.lineageRefs]) {
            if (refs !== undefined) {
              expect(refs.length).toBeGreaterThan(0);
              expect([...new Set(refs)].sort()).toEqual(refs);
            }
          }
          // What is written reads back as the same artifact.
          expect(parseSession(JSON.parse(renderSession(next)))).toEqual(next);
          session = next;
          clock += 60_000;
        }
        expect(firstId).toBeDefined();
      }),
    );
  });
});

describe('renderSession', () => {
  it("writes premath's field order, two-space indent, final newline", () => {
    const session = parseSession({
      ...base,
      state: 'stopped',
      stoppedAt: '2026-02-22T02:00:00Z',
      issuesSnapshotRef: 'iss1_ab',
      witnessRefs: ['w'],
      issueId: 'bd-7',
    });
    expect(renderSession(session)).toBe(
      '{\n  "schema": 1,\n  "sessionKind": "premath.harness.session.v1",\n  "sessionId": "hs-1",\n  "state": "stopped",\n' +
        '  "issueId": "bd-7",\n  "witnessRefs": [\n    "w"\n  ],\n  "startedAt": "2026-02-22T01:00:00Z",\n' +
        '  "updatedAt": "2026-02-22T01:00:00Z",\n  "stoppedAt": "2026-02-22T02:00:00Z",\n  "issuesSnapshotRef": "iss1_ab"\n}\n',
    );
  });
});

describe('newSessionId', () => {
  it('is hs1_ plus the UTC time, plus the issue token', () => {
    expect(newSessionId(at('2026-02-22T01:02:03+01:00'))).toBe('hs1_20260222T000203Z');
    expect(newSessionId(at('2026-02-22T01:02:03Z'), '__Ü/7__')).toBe('hs1_20260222T010203Z_7');
    expect(newSessionId(at('2026-02-22T01:02:03Z'), '///')).toBe('hs1_20260222T010203Z_session');
  });
});

describe('bootstrapSession (the Tusk harness contract §11: bootstrap output)', () => {
  const refs = { sessionRef: 's.json', featureLedgerRef: 'f.json' };

  it('is resume for a stopped session and attach for an active one', () => {
    const active = parseSession(base);
    const stopped = parseSession({ ...base, state: 'stopped', stoppedAt: '2026-02-22T02:00:00Z', issueId: 'bd-7' });
    expect(bootstrapSession(active, refs).mode).toBe('attach');
    const boot = bootstrapSession(stopped, refs);
    expect(boot).toEqual({
      action: 'harness-session.bootstrap',
      bootstrapKind: 'premath.harness.bootstrap.v1',
      sessionRef: 's.json',
      sessionId: 'hs-1',
      mode: 'resume',
      resumeIssueId: 'bd-7',
      nextStep: null,
      summary: null,
      instructionRefs: [],
      witnessRefs: [],
      lineageRefs: [],
      issuesPath: null,
      issuesSnapshotRef: null,
      featureLedgerRef: 'f.json',
      nextFeatureId: null,
      featureClosureComplete: null,
      featureCount: null,
      startedAt: '2026-02-22T01:00:00Z',
      updatedAt: '2026-02-22T01:00:00Z',
      stoppedAt: '2026-02-22T02:00:00Z',
    });
  });

  it('projects the feature ledger when there is one', () => {
    const ledger = parseFeatureLedger({
      schema: 1,
      ledgerKind: 'premath.harness.feature_ledger.v1',
      updatedAt: '2026-02-22T01:00:00Z',
      features: [
        { featureId: 'f-2', status: 'pending', updatedAt: '2026-02-22T01:00:00Z' },
        { featureId: 'f-1', status: 'completed', verificationRefs: ['ci://1'], updatedAt: '2026-02-22T01:00:00Z' },
      ],
    });
    const boot = bootstrapSession(parseSession(base), { ...refs, features: projectFeatures(ledger) });
    expect([boot.nextFeatureId, boot.featureClosureComplete, boot.featureCount]).toEqual(['f-2', false, 2]);
  });

  it('writes only RFC 3339 timestamps', () => {
    const boot = bootstrapSession(updateSession(undefined, { state: 'stopped' }, at('2026-02-22T01:00:00Z')), refs);
    for (const value of [boot.startedAt, boot.updatedAt, boot.stoppedAt ?? '']) expect(isRfc3339(value)).toBe(true);
  });
});
