#!/usr/bin/env node
// node scripts/bench-memory.mjs [--mb 64] [--repeats 3] [--shapes a,b]   (after npm run build)
//
// Peak RSS of `turngate harness-join-check --json` per MB of input, for each input shape just
// under the input limit: the README's memory figures. Each run is a fresh process (the bundled
// CLI, after `npm run build`) whose peak RSS (`process.resourceUsage().maxRSS`, read at exit by a
// preloaded module) is compared with a bare Node's (`node -e 0`, measured the same way in the same
// rounds). A shape is one tool result whose payload fills the input, except `many calls`:
//
//   many calls           requests, results and uses of about 150 bytes per call (a huge turn)
//   one huge string      "xxxx..."
//   escaped strings      "\n\n\n..."
//   many distinct keys   {"k0":0,"k1":0,...}
//   many small numbers   [0,0,0,...]
//   many small objects   [{"a":0},{"a":0},...]
//   many empty objects   [{},{},...]
//   many small arrays    [[0],[0],...]
//   many short strings   ["ab","ab",...]
//
// Figures are medians over --repeats interleaved rounds; a single run on a busy machine moves by a
// few MB. NODE_EXTRA_CA_CERTS is unset in the children (it slows every start).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SHAPES, writeShape } from './bench/memory-shapes.mjs';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '64' },
    repeats: { type: 'string', default: '3' },
    shapes: { type: 'string' },
  },
});
const LIMIT_BYTES = Number(values.mb) * 1024 * 1024;
const REPEATS = Number(values.repeats);
const shapes = values.shapes ? values.shapes.split(',') : Object.keys(SHAPES);
for (const shape of shapes) if (!(shape in SHAPES)) throw new Error(`unknown shape ${shape}`);

const CLI = new URL('../dist/cli/turngate.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'turngate-bench-memory-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const childEnv = { ...process.env };
delete childEnv.NODE_EXTRA_CA_CERTS;

const preload = join(dir, 'peak-rss.mjs');
writeFileSync(
  preload,
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.TURNGATE_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);

/** Peak RSS in MB of one process running `args`; `NaN` when it did not exit 0 (its exit is kept in `failed`). */
const failed = {};
function peakRss(args, shape) {
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const run = spawnSync(process.execPath, ['--import', preload, ...args], {
    env: { ...childEnv, TURNGATE_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) {
    if (shape === undefined) throw new Error(`${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr}`);
    failed[shape] = `exit ${run.status ?? run.signal}: ${run.stderr.toString().trim().split('\n')[0]?.slice(0, 120)}`;
    return Number.NaN;
  }
  return Number(readFileSync(rssFile, 'utf8')) / 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const under = LIMIT_BYTES - 64 * 1024;
const files = Object.fromEntries(
  shapes.map((shape, i) => {
    const path = join(dir, `shape-${i}.json`);
    writeShape(path, shape, under);
    return [shape, path];
  }),
);
const bare = [];
const peaks = Object.fromEntries(shapes.map((shape) => [shape, []]));
for (let round = 0; round < REPEATS; round++) {
  bare.push(peakRss(['-e', '0']));
  for (const shape of shapes) {
    peaks[shape].push(
      peakRss(
        [CLI, 'harness-join-check', '--input', files[shape], '--json', '--max-input-bytes', String(LIMIT_BYTES)],
        shape,
      ),
    );
  }
}
const bareMb = median(bare);
console.log(
  `bench:memory  peak RSS of harness-join-check --json, input just under ${values.mb} MiB, medians of ${REPEATS} (Node ${process.version}; bare Node ${bareMb.toFixed(0)} MB)`,
);
console.log('shape                 input MB  peak RSS MB  beyond bare, per input MB');
for (const shape of shapes) {
  const inputMb = statSync(files[shape]).size / 2 ** 20;
  const peak = median(peaks[shape]);
  if (failed[shape] !== undefined) {
    console.log(`${shape.padEnd(20)} ${inputMb.toFixed(1).padStart(9)}  failed: ${failed[shape]}`);
    continue;
  }
  console.log(
    `${shape.padEnd(20)} ${inputMb.toFixed(1).padStart(9)}  ${peak.toFixed(0).padStart(11)}  ${((peak - bareMb) / inputMb).toFixed(1).padStart(26)}`,
  );
}
