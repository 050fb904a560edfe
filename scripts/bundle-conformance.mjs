#!/usr/bin/env node
// Builds the conformance runner (conformance/runner/, tooling, not part of the package) into
// .tools/conformance.js, straight from the TypeScript sources; dependencies stay imports from
// node_modules (yaml is a devDependency: the runner never ships).
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../conformance/runner/main.ts', import.meta.url).pathname],
  outfile: new URL('../.tools/conformance.js', import.meta.url).pathname,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
