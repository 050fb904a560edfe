#!/usr/bin/env bash
# Packs the already built package (no second build) into the folder given, and prints the
# tarball's path: what npm would publish. Used by the checks that test the package as a user
# installs it (scripts/attw.sh, scripts/tsd-user.sh). package.json is packed as `npm publish`
# packs it: without its development fields and the source export condition (clean-package, with
# clean-package.config.cjs), then restored.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node_modules/.bin/clean-package >&2
trap 'node_modules/.bin/clean-package restore >&2' EXIT
echo "$1/$(npm pack --ignore-scripts --silent --pack-destination "$1")"
