import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromModel, specFor, Tools } from '../../test/turn-fixtures.ts';
import { joinCheck } from '../check/index.ts';
import { requestTools } from '../typestate/index.ts';
import { isBlank, trimWhiteSpace } from './index.ts';

describe('isBlank: the one blank test (Rust str::trim)', () => {
  it('is blank exactly when the Rust trim leaves nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(isBlank(s)).toBe(trimWhiteSpace(s) === '');
      }),
    );
    expect(['', ' ', '\u0085', '\u3000\t\n'].map(isBlank)).toEqual([true, true, true, true]);
    expect(['\ufeff', 'a', '\u200b'].map(isBlank)).toEqual([false, false, false]);
  });

  it('makes the typed turn agree with the join check on U+0085 and U+FEFF ids', () => {
    for (const [id, blank] of [
      ['\u0085', true],
      ['\ufeff', false],
    ] as const) {
      const typed = requestTools(
        specFor('code'),
        Tools,
        fromModel([{ toolCallId: id, toolName: 'read_file', input: { path: 'a' } }]),
      );
      const checked = joinCheck({
        evidence: {
          callSpec: specFor('code').spec,
          toolRequests: [{ toolCallId: id, toolName: 'read_file' }],
          protocolState: { stopReason: 'tool_use', continuationAllowed: true },
        },
      });
      const refusedByCheck = !checked.ok || checked.value.failures.some((f) => f.class === 'tool.schema_invalid');
      expect(refusedByCheck).toBe(blank);
      const refusedByType = !typed.ok || typed.value.refused.length > 0;
      expect(refusedByType).toBe(blank);
    }
  });
});
