#!/usr/bin/env bash
# The package as npm would publish it, checked by @arethetypeswrong/cli under its esm-only
# profile (turngate is ESM only: CommonJS resolution is out of scope). Packs the already built
# dist/ (no second build) into a temporary folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
tarball="$(bash scripts/pack.sh "$work")"
node_modules/.bin/attw "$tarball" --profile esm-only --format table-flipped > "$work/attw.txt" || {
  cat "$work/attw.txt"
  exit 1
}
echo "attw: $(basename "$tarball") resolves cleanly for Node 16+ ESM and bundlers (esm-only profile)"
