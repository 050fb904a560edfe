import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HarnessInputError } from './errors.ts';
import {
  checkFeatureLedger,
  parseFeatureLedger,
  projectFeatures,
  renderFeatureLedger,
  upsertFeature,
  type FeatureLedger,
} from './feature-ledger.ts';

const T = '2026-02-22T01:00:00Z';
const ledger = (features: object[]) =>
  parseFeatureLedger({ schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: T, features });
const row = (featureId: string, status: string, extra: object = {}) => ({ featureId, status, updatedAt: T, ...extra });

describe('feature ledger (HARNESS-RUNTIME §5; bootstrap feature projection of the Tusk harness contract §11)', () => {
  it('parses and normalizes rows', () => {
    const parsed = ledger([row(' a ', 'pending', { verificationRefs: ['v2', 'v1', 'v1', ' '], summary: '' })]);
    expect(parsed.features).toEqual([
      { featureId: 'a', status: 'pending', verificationRefs: ['v1', 'v2'], updatedAt: T },
    ]);
  });

  it.each([
    ['a wrong kind', { schema: 1, ledgerKind: 'x', updatedAt: T, features: [] }, 'ledger.ledgerKind'],
    [
      'a malformed updatedAt',
      { schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: 'now', features: [] },
      'ledger.updatedAt',
    ],
    [
      'a row without updatedAt',
      {
        schema: 1,
        ledgerKind: 'premath.harness.feature_ledger.v1',
        updatedAt: T,
        features: [{ featureId: 'a', status: 'pending' }],
      },
      'ledger.features[0].updatedAt',
    ],
    [
      'features that are not a list',
      { schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: T, features: {} },
      'ledger.features',
    ],
  ])('refuses %s', (_name, value, field) => {
    expect(() => parseFeatureLedger(value)).toThrow(HarnessInputError);
    try {
      parseFeatureLedger(value);
    } catch (error) {
      expect((error as HarnessInputError).field).toBe(field);
    }
  });

  it('picks the smallest in_progress feature, else the smallest pending, else none', () => {
    expect(
      checkFeatureLedger(ledger([row('b', 'pending'), row('c', 'in_progress'), row('a', 'pending')])).nextFeatureId,
    ).toBe('c');
    expect(
      checkFeatureLedger(ledger([row('b', 'pending'), row('a', 'pending'), row('0', 'blocked')])).nextFeatureId,
    ).toBe('a');
    const done = checkFeatureLedger(ledger([row('a', 'completed', { verificationRefs: ['v'] }), row('b', 'blocked')]));
    expect([done.nextFeatureId, done.closureComplete, done.result]).toEqual([null, false, 'accepted']);
  });

  it('reports closure only when every feature is completed with verification', () => {
    const closed = checkFeatureLedger(ledger([row('a', 'completed', { verificationRefs: ['v'] })]), {
      requireClosure: true,
    });
    expect([closed.result, closed.closureComplete]).toEqual(['accepted', true]);
    const open = checkFeatureLedger(ledger([row('a', 'pending')]), { requireClosure: true });
    expect(open.failureClasses).toEqual(['harness_feature_ledger.closure_incomplete']);
  });

  it('finds every rule violation', () => {
    const check = checkFeatureLedger(
      ledger([row('a', 'in_progress'), row('a', 'in_progress'), row('b', 'done'), row('c', 'completed')]),
    );
    expect(check.result).toBe('rejected');
    expect(check.failureClasses).toEqual([
      'harness_feature_ledger.completed_missing_verification_ref',
      'harness_feature_ledger.feature_id.duplicate',
      'harness_feature_ledger.in_progress.non_contractible',
      'harness_feature_ledger.status.invalid',
    ]);
    expect(checkFeatureLedger(ledger([])).failureClasses).toEqual(['harness_feature_ledger.empty']);
    expect(() => projectFeatures(ledger([row('a', 'done')]))).toThrow(/harness_feature_ledger\.status\.invalid/);
  });

  it('upserts rows: keeps what is omitted, sorts by id, stamps updatedAt', () => {
    let l: FeatureLedger | undefined;
    l = upsertFeature(l, { featureId: 'b', status: 'pending', summary: 's', verificationRefs: ['v'] }, new Date(T));
    l = upsertFeature(l, { featureId: 'a', status: 'pending', sessionRef: 'session.json' }, new Date(T));
    l = upsertFeature(l, { featureId: 'b', status: 'completed' }, new Date('2026-02-22T02:00:00Z'));
    expect(l.features.map((f) => f.featureId)).toEqual(['a', 'b']);
    expect(l.features[1]).toEqual({
      featureId: 'b',
      status: 'completed',
      summary: 's',
      verificationRefs: ['v'],
      updatedAt: '2026-02-22T02:00:00Z',
    });
    expect([l.updatedAt, l.sessionRef]).toEqual(['2026-02-22T02:00:00Z', 'session.json']);
    expect(() => upsertFeature(l, { featureId: ' ', status: 'pending' }, new Date(T))).toThrow(HarnessInputError);
    expect(() => upsertFeature(l, { featureId: 'a', status: 'done' as 'pending' }, new Date(T))).toThrow(
      /update\.status/,
    );
  });

  it('writes a ledger that reads back the same (property)', () => {
    const update = fc.record({
      featureId: fc.constantFrom('a', 'b', 'c', ' d '),
      status: fc.constantFrom('pending', 'in_progress', 'blocked', 'completed' as const),
      summary: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
      verificationRefs: fc.option(fc.array(fc.constantFrom('v1', ' v2', ''), { maxLength: 3 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(update, { minLength: 1, maxLength: 6 }), (updates) => {
        let l: FeatureLedger | undefined;
        for (const u of updates) l = upsertFeature(l, u, new Date(T));
        if (l === undefined) throw new Error('no ledger');
        expect(parseFeatureLedger(JSON.parse(renderFeatureLedger(l)))).toEqual(l);
        const ids = l.features.map((f) => f.featureId);
        expect(new Set(ids).size).toBe(ids.length);
      }),
    );
  });
});
