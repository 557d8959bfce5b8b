#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL backend's tests and benchmarks.
#
#   scripts/postgres.sh start   installs the server where missing (Debian's packages), creates a
#                               cluster in a new temporary directory, starts it on 127.0.0.1 and a
#                               free port other than 5432, and prints its URL
#   scripts/postgres.sh url     prints the URL of the cluster this script started
#   scripts/postgres.sh restart restarts that cluster at once (`pg_ctl restart -m immediate`:
#                               no checkpoint, as after a crash), for failure tests
#   scripts/postgres.sh stop    stops that cluster and deletes its directory
#
#   export STACKJOURNAL_TEST_POSTGRES_URL=$(scripts/postgres.sh start)
#
# The cluster keeps PostgreSQL's durable defaults (fsync and synchronous_commit on). Its state
# file is $STACKJOURNAL_PG_STATE (default: $TMPDIR/stackjournal-postgres.USER.state, /tmp when
# TMPDIR is unset), so two users of one machine each start, use and stop their own cluster.
set -euo pipefail

STATE=${STACKJOURNAL_PG_STATE:-${TMPDIR:-/tmp}/stackjournal-postgres.$(id -un).state}
USER_NAME=stackjournal
PASSWORD=stackjournal
DATABASE=stackjournal

fail() { echo "postgres.sh: $*" >&2; exit 1; }

bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  return 1
}

install_server() {
  bin_dir >/dev/null && return 0
  local sudo=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "PostgreSQL is not installed and there is no sudo."
    sudo=sudo
  fi
  echo "postgres.sh: installing postgresql (apt-get)…" >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
  bin_dir >/dev/null || fail "apt-get installed postgresql, but no initdb was found."
}

# Runs a command as the cluster's owner: initdb and the server refuse to run as root.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 - <<'PY'
import socket
for _ in range(100):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    if port != 5432:
        print(port)
        break
PY
}

url() {
  [ -f "$STATE" ] || fail "no cluster started by this script (no $STATE); run: $0 start"
  # shellcheck disable=SC1090
  . "$STATE"
  echo "postgres://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DATABASE"
}

start() {
  if [ -f "$STATE" ]; then
    # shellcheck disable=SC1090
    . "$STATE"
    if as_owner "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
      url
      return 0
    fi
    rm -rf "$DIR" "$STATE"
  fi
  install_server
  local bin dir port
  bin=$(bin_dir)
  dir=$(mktemp -d /tmp/stackjournal-pg.XXXXXX)
  port=$(free_port)
  [ -n "$port" ] || fail "found no free port."
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
  local pwfile="$dir/password"
  echo "$PASSWORD" >"$pwfile"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$pwfile"; fi
  as_owner "$bin/initdb" -D "$dir/data" -U "$USER_NAME" --pwfile="$pwfile" \
    --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; fail "initdb failed."; }
  rm -f "$pwfile"
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
-c max_connections=200 -c fsync=on -c synchronous_commit=on" start >&2 \
    || { cat "$dir/server.log" >&2; fail "the server did not start."; }
  printf 'BIN=%s\nDIR=%s\nPORT=%s\n' "$bin" "$dir" "$port" >"$STATE"
  PGPASSWORD=$PASSWORD "$bin/psql" -q -h 127.0.0.1 -p "$port" -U "$USER_NAME" -d postgres \
    -c "CREATE DATABASE $DATABASE" >&2
  url
}

stop() {
  [ -f "$STATE" ] || { echo "postgres.sh: no cluster to stop." >&2; return 0; }
  # shellcheck disable=SC1090
  . "$STATE"
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >&2 || true
  rm -rf "$DIR" "$STATE"
}

restart() {
  [ -f "$STATE" ] || fail "no cluster started by this script (no $STATE); run: $0 start"
  # shellcheck disable=SC1090
  . "$STATE"
  as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -m immediate -w -t 60 restart >&2
}

case "${1:-}" in
  start) start ;;
  restart) restart ;;
  stop) stop ;;
  url) url ;;
  *) echo "usage: $0 start|stop|restart|url" >&2; exit 2 ;;
esac
