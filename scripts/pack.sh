#!/usr/bin/env bash
# Packs the already built package (no second build) into the folder given, and prints the
# tarball's path: what npm would publish. Used by the checks that test the package as a user
# installs it (scripts/attw.sh, scripts/tsd-user.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
echo "$1/$(npm pack --ignore-scripts --silent --pack-destination "$1")"
