#!/usr/bin/env bash
# Measures `stackjournal log` on a journal of a million entries: the time to its first line and
# its peak memory, next to the same command on a ten-entry journal.
#
#   benchmarks/log-at-scale.sh [DIR] [ACTIONS]
#
# Needs python3 and GNU time (/usr/bin/time). The journal is generated once into DIR (default
# /tmp/stackjournal-log-bench) and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/stackjournal-log-bench}
actions=${2:-1000000}
mkdir -p "$dir"
swift build -c release --product stackjournal >/dev/null
sj=.build/release/stackjournal

if [ ! -f "$dir/big.sqlite" ]; then
  echo "generating $actions actions into $dir/big.sqlite (durability normal; takes minutes)"
  "$sj" demo --db "$dir/big.sqlite" --actions "$actions" --durability normal >/dev/null
fi
rm -f "$dir/small.sqlite"*
"$sj" demo --db "$dir/small.sqlite" >/dev/null

first_line() {
  python3 - "$@" <<'PY'
import subprocess, sys, time
start = time.monotonic()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
process.stdout.readline()
header = time.monotonic() - start
process.stdout.readline()
entry = time.monotonic() - start
lines = 2 + sum(1 for _ in process.stdout)
process.wait()
print(f"  first entry after {entry * 1000:.0f} ms (header {header * 1000:.0f} ms); "
      f"{lines} lines in {time.monotonic() - start:.1f} s")
PY
}

peak_rss() {
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {
    printf "  peak RSS %.1f MiB\n", $2 / 1024 }'
}

entries=$("$sj" sessions --db "$dir/big.sqlite" --json | python3 -c \
  'import json,sys; print(sum(s["entries"] for s in json.load(sys.stdin)["sessions"]))')
echo "log on $dir/big.sqlite ($entries entries):"
first_line "$sj" log demo-1 --db "$dir/big.sqlite"
peak_rss "$sj" log demo-1 --db "$dir/big.sqlite"
echo "log --ndjson on the same file:"
peak_rss "$sj" log demo-1 --ndjson --db "$dir/big.sqlite"
echo "log on a 10-entry journal:"
peak_rss "$sj" log demo-1 --db "$dir/small.sqlite"
