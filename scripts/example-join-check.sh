#!/usr/bin/env bash
# The main job on the bundled real inputs: the join check over every turn in examples/evidence/.
set -euo pipefail
cd "$(dirname "$0")/.."
for turn in examples/evidence/*.json; do
  node dist/cli/turngate.js harness-join-check --input "$turn"
  echo
done
echo "Byte-for-byte premath report of one turn: node dist/cli/turngate.js harness-join-check --input examples/evidence/handoff-turn.json --json"
