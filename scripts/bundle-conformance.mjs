#!/usr/bin/env node
// Builds the conformance runner (conformance/runner/, tooling, not part of the package) into
// .tools/conformance.js, or into the file given (`node scripts/bundle-conformance.mjs [OUTFILE]`,
// which the runner's own test uses), straight from the TypeScript sources; dependencies stay
// imports from node_modules (yaml is a devDependency: the runner never ships).
import { resolve } from 'node:path';
import { build } from 'esbuild';

const outfile =
  process.argv[2] === undefined
    ? new URL('../.tools/conformance.js', import.meta.url).pathname
    : resolve(process.argv[2]);
await build({
  entryPoints: [new URL('../conformance/runner/main.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
