#!/usr/bin/env node
// Builds the JavaScript of the package from src/ with esbuild (no type check: `npm run build`
// type-checks and writes the declarations first; `npm run check` type-checks without writing):
//
// - every entry point of package.json's `exports` (dist/esm/<entry>.js) and the CLI
//   (dist/esm/cli.js), with the code two of them share in common chunks (dist/esm/chunks/), so a
//   class or a WeakMap has one copy whichever entries a program imports, and the CLI carries no
//   second copy of the library. Dependencies stay imports, but for the evidence decoder's few
//   valibot calls (bundled in, so the join check's path does not load valibot's module).
//   `import 'turngate'` then reads a few files instead of about a hundred modules, each
//   resolved, read and compiled on its own: docs/BENCHMARKS.md ("import cost") measures the
//   difference;
// - dist/cli/turngate.js, the `bin`: a two-line file that imports dist/esm/cli.js;
// - one module per source file (dist/<path>.js, tsc's layout), not published: the tests' child
//   processes and the benchmarks load internals from it.
//
// Types are tsc's declarations (dist/**/*.d.ts); package.json's `exports` points `types` at them,
// `default` at the bundles and `@turngate/source` (this repository's own tools) at src/.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const src = join(root, 'src');
const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = { platform: 'node', format: 'esm', target: 'node20', legalComments: 'none', logLevel: 'warning' };

/** `./dist/esm/chat/sqlite.js` -> [`chat/sqlite`, `src/chat/sqlite.ts`]: where each bundle comes from. */
const entryPoints = { cli: join(src, 'cli/main.ts') };
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  const bundled = /^\.\/dist\/esm\/(.+)\.js$/.exec(target.default);
  if (bundled === null)
    throw new Error(`package.json exports["${subpath}"].default: expected ./dist/esm/<name>.js, got ${target.default}`);
  const source = target['@turngate/source'];
  if (typeof source !== 'string' || !/^\.\/src\/.+\.ts$/.test(source))
    throw new Error(`package.json exports["${subpath}"]["@turngate/source"]: expected ./src/<name>.ts, got ${source}`);
  entryPoints[bundled[1]] = join(root, source);
}
// The evidence decoder's valibot calls are bundled in (tree-shaken: the few functions it uses,
// about a tenth of valibot's module): the join check's path (`turngate harness-join-check`,
// `turngate/join-check`) then neither resolves nor compiles valibot's 200 KB module, most of the
// CLI's start-up over bare Node. Its schemas are plain objects, so they mix with the user's own
// valibot; every other import of valibot stays an import of the installed package.
const valibotInEvidence = {
  name: 'valibot-in-evidence',
  setup(builder) {
    const evidence = `${join(src, 'evidence')}/`;
    builder.onResolve({ filter: /^valibot$/ }, (args) =>
      args.importer.startsWith(evidence)
        ? { path: join(root, 'node_modules/valibot/dist/index.mjs') }
        : { path: args.path, external: true },
    );
  },
};
rmSync(join(dist, 'esm'), { recursive: true, force: true });
await build({
  plugins: [valibotInEvidence],
  ...common,
  entryPoints,
  outdir: join(dist, 'esm'),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  packages: 'external',
});
// The bundled part of valibot keeps its license beside the chunks that carry it (MIT: the
// notice goes with every copy of a substantial portion).
const valibotPackage = JSON.parse(readFileSync(join(root, 'node_modules/valibot/package.json'), 'utf8'));
writeFileSync(
  join(dist, 'esm', 'THIRD-PARTY-LICENSES.md'),
  `# Third-party code in dist/esm\n\nThe evidence decoder's chunk carries parts of valibot ${valibotPackage.version} (https://valibot.dev), under its license:\n\n${readFileSync(join(root, 'node_modules/valibot/LICENSE.md'), 'utf8')}`,
);

const bin = join(dist, 'cli', 'turngate.js');
mkdirSync(join(dist, 'cli'), { recursive: true });
writeFileSync(bin, "#!/usr/bin/env node\nimport '../esm/cli.js';\n");
chmodSync(bin, 0o755);

/** Every module of src/ but the tests. */
function* modules(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}
// One output per module: every import stays an import, `./x.ts` written `./x.js`.
const oneModulePerFile = {
  name: 'one-module-per-file',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true },
    );
  },
};
await build({
  ...common,
  entryPoints: [...modules(src)],
  outdir: dist,
  outbase: src,
  bundle: true,
  plugins: [oneModulePerFile],
});
