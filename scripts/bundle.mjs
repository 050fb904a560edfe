#!/usr/bin/env node
// Bundles what the package runs, from tsc's output in dist/:
//
// - the CLI, as one file (dist/cli/turngate.js) with tree-shaking, so `turngate` loads one small
//   module instead of the library's module graph and all of valibot;
// - every entry point of package.json's `exports` (dist/esm/<entry>.js), with the code two
//   entries share in common chunks (dist/esm/chunks/), so a class or a WeakMap has one copy
//   whichever entries a program imports. Dependencies stay imports. `import 'turngate'` then
//   reads a few files instead of about a hundred modules, each resolved, read and compiled on
//   its own: docs/BENCHMARKS.md ("import cost") measures the difference.
//
// Types are tsc's declarations (dist/**/*.d.ts); package.json's `exports` points `types` at them
// and `default` at the bundles.
import { build } from 'esbuild';
import { chmodSync, readFileSync, rmSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const outfile = `${dist}cli/turngate.js`;
await build({
  entryPoints: [`${dist}cli/main.js`],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);

/** `./dist/esm/chat/sqlite.js` -> [`chat/sqlite`, `dist/chat/sqlite.js`]: where each bundle comes from. */
const entryPoints = {};
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const bundled = target.default;
  const match = /^\.\/dist\/esm\/(.+)\.js$/.exec(bundled);
  if (match === null)
    throw new Error(`package.json exports["${subpath}"].default: expected ./dist/esm/<name>.js, got ${bundled}`);
  const source = target.types.replace(/\.d\.ts$/, '.js');
  entryPoints[match[1]] = new URL(`../${source}`, import.meta.url).pathname;
}
rmSync(`${dist}esm`, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: `${dist}esm`,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
});
