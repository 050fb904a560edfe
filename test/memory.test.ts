/**
 * Memory the canonical layer keeps between calls, counted in a fresh process with explicit
 * garbage collection: retained bytes, not time.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callSpec } from './arbitraries.ts';

describe('the canonical layer’s memory', () => {
  it('keeps no key lists of large objects: 50 checks of 20,000-key payloads leave the heap as it was', () => {
    const script = `
      const { joinCheckText } = await import(${JSON.stringify(join(import.meta.dirname, '..', 'dist', 'join-check.js'))});
      const callSpec = ${JSON.stringify(callSpec)};
      gc(); gc();
      const before = process.memoryUsage().heapUsed;
      for (let check = 0; check < 50; check++) {
        const payload = {};
        for (let k = 0; k < 20000; k++) payload['c' + check + '-key-' + k] = k;
        const outcome = joinCheckText(JSON.stringify({ evidence: { callSpec, protocolState: { stopReason: 'end_turn' },
          toolRequests: [{ toolCallId: 'a', toolName: 't' }], toolResults: [{ toolCallId: 'a', payload }],
          toolUse: [{ toolCallId: 'a', disposition: 'observed' }] } }));
        if (!outcome.ok) throw new Error(outcome.error.message);
      }
      gc(); gc();
      console.log(process.memoryUsage().heapUsed - before);
    `;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const retained = Number(run.stdout.trim());
    // Before the key-order cache was bounded by size this was about 45 MB (185 MB after 200 checks).
    expect(retained).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});
