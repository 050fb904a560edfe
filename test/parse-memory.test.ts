/**
 * Memory of large parsed inputs, counted in a fresh process (the built package) with explicit
 * garbage collection: what a parsed tree keeps, and what digesting it adds at its peak. These
 * are the shapes whose peak RSS per MB of input the README states (scripts/bench-memory.mjs).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CANONICAL = JSON.stringify(join(import.meta.dirname, '..', 'dist', 'canonical', 'index.js'));

/** Runs `body` (an ES module body with `parseJson` and `digest` in scope) and returns what it printed as JSON. */
function measured(body: string): Record<string, number> {
  const script = `const { parseJson, digest } = await import(${CANONICAL});\n${body}`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('parsed trees', () => {
  it('keep arrays at their length and empty objects without room for properties', () => {
    const bytes = measured(`
      const n = 200000;
      const kept = (text) => { gc(); gc(); const before = process.memoryUsage().heapUsed; const value = parseJson(text);
        gc(); gc(); const after = process.memoryUsage().heapUsed; if (value.length !== n) throw new Error('parse'); return (after - before) / n; };
      console.log(JSON.stringify({ array: kept('[[0]' + ',[0]'.repeat(n - 1) + ']'), object: kept('[{}' + ',{}'.repeat(n - 1) + ']') }));
    `);
    // Heap bytes per element, its slot in the outer array included: now about 71 and 37. Before:
    // about 198 per [0] (an array grown by push has room for 17 elements) and 69 per {} (room
    // for 4 properties).
    expect(bytes['array']).toBeLessThan(120);
    expect(bytes['object']).toBeLessThan(50);
  }, 60_000);

  it('digest a large payload of numbers without a second tree: the peak RSS grows by little', () => {
    const grown = measured(`
      const objects = parseJson('[{"a":0}' + ',{"a":0}'.repeat(1000000) + ']');
      const arrays = parseJson('[[0]' + ',[0]'.repeat(1000000) + ']');
      gc(); gc();
      const peak = () => process.resourceUsage().maxRSS / 1024;
      const before = peak();
      const a = digest(objects);
      const middle = peak();
      const b = digest(arrays);
      console.log(JSON.stringify({ objects: middle - before, arrays: peak() - middle, same: a === digest(objects) ? 1 : 0 }));
    `);
    // MB above the high-water mark of parsing: now 0 and 0. Before: about 94 and 47 (every
    // container holding a JsonNumber was copied into one holding numbers, for the engine's
    // JSON.stringify).
    expect(grown['objects']).toBeLessThan(24);
    expect(grown['arrays']).toBeLessThan(24);
    expect(grown['same']).toBe(1);
  }, 60_000);
});
