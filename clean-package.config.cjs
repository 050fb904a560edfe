// What package.json loses in the published package (clean-package: `npm pack` and `npm publish`
// run it as `prepack`, and `postpack` restores the file; scripts/pack.sh runs the same pair):
// the development fields, and the `@turngate/source` export condition, which points at src/, a
// folder the package does not ship (this repository's tools resolve `turngate` to src/ with it).
const manifest = require('./package.json');

const SOURCE_CONDITION = '@turngate/source';

/** package.json's `exports`, every entry without the source condition. */
const publishedExports = Object.fromEntries(
  Object.entries(manifest.exports).map(([subpath, target]) => [
    subpath,
    typeof target === 'string'
      ? target
      : Object.fromEntries(Object.entries(target).filter(([condition]) => condition !== SOURCE_CONDITION)),
  ]),
);

module.exports = {
  remove: ['scripts', 'devDependencies', 'tsd', 'allowScripts'],
  replace: { exports: publishedExports },
};
