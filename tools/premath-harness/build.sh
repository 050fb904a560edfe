#!/usr/bin/env bash
# Builds premath-harness: premath's join-check job in process (see src/main.rs, src/job.rs and
# docs/BENCHMARKS.md, "Comparing with premath"), offline, against Debian's packaged crates.
#
#   tools/premath-harness/build.sh <premath checkout> [<build dir>]
#
# Needs: cargo and rustc (edition 2024), and Debian's crates:
#   apt-get install librust-serde-json-dev librust-sha2-dev librust-serde-derive-dev librust-thiserror-dev
# Writes a cargo workspace into the build dir (default: /tmp/premath-harness-build) whose
# premath-kernel and premath-tusk packages compile premath's own source files where they are (their
# manifests name the versions Debian has: thiserror 1 where premath asks for 2), replaces crates.io
# with /usr/share/cargo/registry, and builds --release. Prints the binary's path.
# Nothing of premath's is copied into this repository or changed.
set -euo pipefail
src=$(cd "${1:?usage: build.sh <premath checkout> [<build dir>]}" && pwd)
out=${2:-/tmp/premath-harness-build}
here=$(cd "$(dirname "$0")" && pwd)
registry=${DEBIAN_CARGO_REGISTRY:-/usr/share/cargo/registry}
for f in crates/premath-kernel/src/lib.rs crates/premath-tusk/src/lib.rs crates/premath-cli/src/commands/harness_join_check.rs; do
  [ -f "$src/$f" ] || { echo "build.sh: $src/$f not found: not a premath checkout?" >&2; exit 2; }
done
[ -d "$registry" ] || { echo "build.sh: $registry not found (apt-get install librust-serde-json-dev ...)" >&2; exit 2; }
mkdir -p "$out/.cargo" "$out/premath-kernel" "$out/premath-tusk" "$out/harness"

cat > "$out/.cargo/config.toml" <<TOML
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"

[net]
offline = true

[env]
PREMATH_SRC = "$src"
TOML

cat > "$out/Cargo.toml" <<TOML
[workspace]
resolver = "2"
members = ["premath-kernel", "premath-tusk", "harness"]

[workspace.dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
sha2 = "0.10"
thiserror = "1"
TOML

cat > "$out/premath-kernel/Cargo.toml" <<TOML
[package]
name = "premath-kernel"
version = "0.1.0"
edition = "2024"

[lib]
path = "$src/crates/premath-kernel/src/lib.rs"

[dependencies]
serde = { workspace = true }
serde_json = { workspace = true }
sha2 = { workspace = true }
thiserror = { workspace = true }
TOML

cat > "$out/premath-tusk/Cargo.toml" <<TOML
[package]
name = "premath-tusk"
version = "0.1.0"
edition = "2024"

[lib]
path = "$src/crates/premath-tusk/src/lib.rs"

[dependencies]
premath-kernel = { path = "../premath-kernel" }
serde = { workspace = true }
serde_json = { workspace = true }
sha2 = { workspace = true }
TOML

cat > "$out/harness/Cargo.toml" <<TOML
[package]
name = "premath-harness"
version = "0.1.0"
edition = "2024"

[[bin]]
name = "premath-harness"
path = "$here/src/main.rs"

[dependencies]
premath-tusk = { path = "../premath-tusk" }
serde = { workspace = true }
serde_json = { workspace = true }
TOML

(cd "$out" && cargo build --release --offline -p premath-harness >&2)
echo "$out/target/release/premath-harness"
