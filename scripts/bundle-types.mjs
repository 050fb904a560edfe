#!/usr/bin/env node
// Bundles the declarations tsc wrote (dist/**/*.d.ts, one per source file) into one file per entry
// point of package.json's `exports` (dist/types/<entry>.d.ts), with the declarations two entries
// share in common chunks (dist/types/chunks/), as scripts/bundle.mjs does for the JavaScript:
// rollup with rollup-plugin-dts. What no entry point reaches (the CLI's modules, internal
// helpers) is left out; dependencies stay imports. package.json's `types` conditions point here.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = new URL('..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `./dist/types/chat/sqlite.d.ts` -> [`chat/sqlite`, `dist/chat/sqlite.d.ts`]: where each bundle comes from. */
const input = {};
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const bundled = /^\.\/dist\/types\/(.+)\.d\.ts$/.exec(target.types);
  if (bundled === null)
    throw new Error(`package.json exports["${subpath}"].types: expected ./dist/types/<name>.d.ts, got ${target.types}`);
  const source = target['@turngate/source'].replace(/^\.\/src\//, 'dist/').replace(/\.ts$/, '.d.ts');
  input[bundled[1]] = join(root, source);
}
rmSync(join(root, 'dist', 'types'), { recursive: true, force: true });
const bundle = await rollup({
  input,
  plugins: [dts({ respectExternal: false })],
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  onwarn(warning, warn) {
    if (warning.code === 'CIRCULAR_DEPENDENCY') return; // type-only circles are fine in declarations
    warn(warning);
  },
});
await bundle.write({
  dir: join(root, 'dist', 'types'),
  format: 'es',
  entryFileNames: '[name].d.ts',
  chunkFileNames: 'chunks/[name]-[hash].d.ts',
});
await bundle.close();
