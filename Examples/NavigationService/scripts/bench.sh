#!/usr/bin/env bash
# The load benchmark: a release build of navigation-service and navigation-bench, then, on
# SQLite and (when a URL is given) on PostgreSQL, actions/s and p50/p99 latency with 1, 8 and 64
# HTTP clients on loopback (one session and one keep-alive connection each, actions back to
# back), next to 64 sessions driven in-process through RecordingStore on the same journal in the
# same run.
#
#   Examples/NavigationService/scripts/bench.sh [SECONDS] [POSTGRES_URL] [BUILD]
#
#   export STACKJOURNAL_PG_STATE=/tmp/sj-bench-pg.state
#   Examples/NavigationService/scripts/bench.sh 5 "$(scripts/postgres.sh start)"
#
# SECONDS (default 5, at most 120) bounds each phase, and so does a cap of 20,000 actions; BUILD
# is `release` (default) or `debug`. DURABILITY (environment; default group-commit, the
# service's default) is the SQLite journal's, for the service and the in-process phase alike. The build uses the trait's scratch path (.build-pg). Traffic
# goes to 127.0.0.1 only; every service started is stopped by the benchmark itself.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
url=${2:-}
build=${3:-release}
scratch=.build-pg
swift build -c "$build" --scratch-path "$scratch" --traits PostgreSQL >/dev/null
bin=$scratch/$build
work=$(mktemp -d /tmp/sj-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

timeout 600 "$bin/navigation-bench" --db "$work/bench.sqlite" --seconds "$seconds" \
  --durability "${DURABILITY:-group-commit}"
if [ -n "$url" ]; then
  schema=bench_$(date +%s)_$$
  case "$url" in *\?*) db="$url&schema=$schema" ;; *) db="$url?schema=$schema" ;; esac
  echo
  timeout 600 "$bin/navigation-bench" --db "$db" --seconds "$seconds"
fi
