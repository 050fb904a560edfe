import { describe, expect, it } from 'vitest';
import { classes, specFor, tools } from '../../test/turn-fixtures.ts';
import { recordResults, recordUse, requestTools } from '../index.ts';

describe('recordResults and recordUse', () => {
  it('recordResults refuses orphans and outputs that fail their schema; recordUse refuses uses without results', () => {
    const requested = requestTools(specFor('code'), tools, [
      { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const orphan = recordResults(requested.value, [{ toolCallId: 'z', status: 'ok', output: {} }]);
    expect(classes(orphan)).toEqual(['tool.result_orphan']);
    if (!orphan.ok) expect(orphan.failures[0]?.ids).toEqual(['z']);
    expect(classes(recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 1 } }]))).toEqual([
      'tool.schema_invalid',
    ]);
    expect(
      classes(
        recordResults(requested.value, [
          { toolCallId: 'a', status: 'error', error: { errorCode: ' ', retryable: false, errorMessage: 'x' } },
        ]),
      ),
    ).toEqual(['tool.schema_invalid']);
    const resulted = recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 'x' } }]);
    if (!resulted.ok) throw new Error('setup');
    expect(classes(recordUse(resulted.value, [{ toolCallId: 'q', disposition: 'observed' }]))).toEqual([
      'tool.use_without_result',
    ]);
    expect(classes(recordUse(resulted.value, [{ toolCallId: 'a', disposition: 'discarded_with_reason' }]))).toEqual([
      'tool.schema_invalid',
    ]);
  });
});
