#!/usr/bin/env bash
# The user-project type tests (examples/tsd-user): pack the built package, install the tarball in
# a copy of the example project (from the npm cache when it can), and run the project's own tsd
# suite with the tsd this repository already has. Build first (npm test does).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
tarball="$(bash scripts/pack.sh "$work")"
cp -R examples/tsd-user "$work/project"
cd "$work/project"
npm install --no-audit --no-fund --prefer-offline --no-package-lock --silent "$tarball"
# tsd recognizes its assertions by the `tsd` module the tests import: the repository's own.
ln -s "$root/node_modules/tsd" node_modules/tsd
node "$root/node_modules/tsd/dist/cli.js"
echo "tsd-user: a project installing $(basename "$tarball") passes its own tsd suite"
