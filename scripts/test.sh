#!/usr/bin/env bash
# The whole test suite, as the README's test command runs it: format and lint (Biome); one
# TypeScript 6 program that type-checks src/, the tests, examples, type tests, the doc examples
# and the negative type tests' messages against src/, and writes the build's declarations
# (scripts/typecheck.mjs: the only TypeScript 6 pass); the build (esbuild, rollup-plugin-dts); the doc
# examples' `//=>` value claims run against dist/; unit + property tests (vitest); the PostgreSQL
# store tests and the multi-process load test when TURNGATE_PG_URL is set; type tests (tsd, on
# the declarations as shipped); TypeScript 7 over src/, type tests and examples; the packed
# package under attw; our conformance vectors (join check, extended profile, chat, transcripts),
# and the upstream suites when ../shared/upstream is present.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every temporary file of the run (the tests', the doc examples', the tools') goes under one
# folder, removed when the run ends: `npm test` leaves nothing in the system's temporary folder.
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/turngate-npm-test-XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"

node_modules/.bin/biome check .
# `npm run build`'s steps, the first one type-checking everything, not only src/.
node scripts/typecheck.mjs --declarations dist
node scripts/bundle.mjs
node scripts/bundle-types.mjs
node scripts/check-doc-claims.mjs
# The unit tests' global setup (test/setup/temp-dir.ts) removes every temporary folder they and
# their processes make, so a bare `vitest run` leaves nothing behind either: checked here.
mkdir "$run_tmp/unit"
TMPDIR="$run_tmp/unit" node_modules/.bin/vitest run
left="$(ls -A "$run_tmp/unit")"
if [ -n "$left" ]; then
  echo "the unit tests left temporary files behind: $(echo "$left" | tr '\n' ' ')" >&2
  exit 1
fi
if [ -n "${TURNGATE_PG_URL:-}" ]; then
  node_modules/.bin/vitest run --config vitest.postgres.config.ts
  node scripts/chat-load-test.mjs
  node scripts/chat-fault-test.mjs
else
  echo "TURNGATE_PG_URL is not set: ran without the PostgreSQL tests (eval \"\$(bash scripts/start-postgres.sh)\" starts a server)"
fi
node_modules/.bin/tsd
node node_modules/ts7/bin/tsc -p tsconfig.ts7.json
echo "TypeScript 7: public types, type tests and examples check"
bash scripts/attw.sh

node scripts/bundle-conformance.mjs
node .tools/conformance.js conformance/harness-typestate
node .tools/conformance.js conformance/harness-typestate-extended
node .tools/conformance.js conformance/harness-chat
node .tools/conformance.js conformance/transcripts

upstream="${TURNGATE_UPSTREAM:-../shared/upstream}"
premath="$upstream/premath"
chat="$upstream/openarmature/spec/harness-chat/conformance"
if [ -d "$premath/tests/conformance/fixtures/harness-typestate" ] && [ -d "$chat" ]; then
  node .tools/conformance.js "$premath/tests/conformance/fixtures/harness-typestate" --reference "$premath/reference-output"
  node .tools/conformance.js "$chat"
else
  echo "upstream suites not found at $upstream: ran without them (our own vectors passed)"
fi
