#!/usr/bin/env bash
# Starts a PostgreSQL server for turngate's PostgreSQL tests and benchmarks, and prints the line
# that points them at it:
#
#   eval "$(bash scripts/start-postgres.sh)"   # sets TURNGATE_PG_URL
#   npm test                                   # now runs the PostgreSQL store tests and the load test
#   bash scripts/start-postgres.sh --stop      # stops it
#
# - Installs Debian's `postgresql` package when no PostgreSQL is installed (needs root and apt).
# - Runs a cluster of its own: data directory $TURNGATE_PG_DIR (default /tmp/turngate-postgres),
#   port $TURNGATE_PG_PORT (default 54329), listening on 127.0.0.1 only, no Unix socket, password
#   authentication (scram-sha-256) for the role `turngate`, database `turngate`. The password is
#   made up on first start and kept in the data directory's parent, readable by its owner only.
# - PostgreSQL refuses to run as root: as root the server runs as the `postgres` user.
# - TURNGATE_PG_OPTIONS adds server options (e.g. "-c shared_preload_libraries=pg_stat_statements").
# - Running it again while the server is up only prints the line again.
# Everything but the `export` line goes to stderr.
set -euo pipefail

dir="${TURNGATE_PG_DIR:-/tmp/turngate-postgres}"
port="${TURNGATE_PG_PORT:-54329}"
data="$dir/data"
log="$dir/server.log"
secret="$dir/password"

say() { echo "start-postgres: $*" >&2; }

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$found" ] && [ -x "$found/pg_ctl" ]; then
    echo "$found"
  elif command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  fi
}

bin="$(bindir)"
if [ -z "$bin" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "PostgreSQL is not installed; install it (Debian: apt-get install -y postgresql) and run this again"
    exit 1
  fi
  say "installing PostgreSQL from Debian's packages"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
  bin="$(bindir)"
fi

# As root, run the server (and the tools that touch its files) as the postgres user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "${1:-}" = "--stop" ]; then
  if [ -f "$data/PG_VERSION" ]; then
    as_owner "$bin/pg_ctl" -D "$data" -m fast stop >&2 || true
  fi
  exit 0
fi

if [ ! -f "$data/PG_VERSION" ]; then
  mkdir -p "$dir"
  chmod 755 "$dir"
  if [ ! -s "$secret" ]; then
    (umask 077 && od -An -N18 -tx1 /dev/urandom | tr -d ' \n' >"$secret")
  fi
  mkdir -p "$data"
  [ "$(id -u)" = 0 ] && chown postgres: "$data"
  # Beside the data directory, not in $TMPDIR: the server's user must read it, and `npm test`'s
  # temporary folder is its owner's alone.
  pwfile="$(mktemp "$dir/initdb-password.XXXXXX")"
  cp "$secret" "$pwfile"
  [ "$(id -u)" = 0 ] && chown postgres: "$pwfile"
  say "creating a cluster in $data"
  as_owner "$bin/initdb" -D "$data" -U turngate --pwfile="$pwfile" --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >&2
  rm -f "$pwfile"
fi

if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] && touch "$log" && chown postgres: "$log"
  say "starting PostgreSQL on 127.0.0.1:$port"
  as_owner "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='' -c max_connections=200 -c fsync=on ${TURNGATE_PG_OPTIONS:-}" \
    start >&2 || {
    say "the server did not start; its log:"
    tail -n 20 "$log" >&2
    exit 1
  }
fi

password="$(cat "$secret")"
export PGPASSWORD="$password"
if ! "$bin/psql" -h 127.0.0.1 -p "$port" -U turngate -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'turngate'" | grep -q 1; then
  "$bin/psql" -h 127.0.0.1 -p "$port" -U turngate -d postgres -qc "CREATE DATABASE turngate" >&2
fi
echo "export TURNGATE_PG_URL=postgres://turngate:$password@127.0.0.1:$port/turngate"
