#!/usr/bin/env bash
# Peak memory of `stackjournal import` and `verify` on a session whose one snapshot holds one
# stack of N elements (default 80,000: an export of about 11 MB), next to the same at N / 8:
# memory should follow the largest row, not grow many times the file.
#
#   benchmarks/import-memory.sh [N] [DIR] [BUILD]
#
# Needs python3 and GNU time (/usr/bin/time). BUILD is `release` (default) or `debug`.
set -euo pipefail
cd "$(dirname "$0")/.."
elements=${1:-80000}
dir=${2:-/tmp/stackjournal-import-memory}
build=${3:-release}
mkdir -p "$dir"
swift build -c "$build" --product stackjournal >/dev/null
sj=.build/$build/stackjournal

export_of() {
  python3 - "$1" "$2" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
t = "2025-01-01T00:00:00.000Z"
def state(i): return {"counter": {"_0": {"count": i}}}
compact = dict(separators=(",", ":"))
header = {"kind": "header", "format": "stackjournal-session", "formatVersion": 1,
  "schemaVersion": 3, "exportedAt": t,
  "session": {"id": "big", "createdAt": t, "metadata": None, "forkedFrom": None,
    "forkedAt": None, "headSequence": 0, "baseSequence": 0},
  "payloadVersions": {"min": 1, "max": 1}, "entries": 0, "snapshots": 1}
snapshot = {"kind": "snapshot", "sequence": 0, "version": 1, "recordedAt": t,
  "state": {"path": {"elements": [{"id": i, "state": state(i)} for i in range(n)], "nextID": n}},
  "stacks": [{"elements": [{"caseName": "counter", "id": i,
    "state": json.dumps(state(i), **compact)} for i in range(n)], "nextID": n, "path": "path"}]}
with open(path, "w") as f:
  f.write(json.dumps(header, **compact) + "\n" + json.dumps(snapshot, **compact) + "\n")
PY
}

peak() {
  /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1
}

for n in $((elements / 8)) "$elements"; do
  file="$dir/stack-$n.ndjson"
  [ -f "$file" ] || export_of "$n" "$file"
  rm -f "$dir/stack-$n.sqlite"*
  bytes=$(stat -c %s "$file")
  import_kb=$(peak "$sj" import "$file" --db "$dir/stack-$n.sqlite")
  verify_kb=$(peak "$sj" verify --db "$dir/stack-$n.sqlite")
  echo "$n elements in one stack, export $((bytes / 1024)) KiB: peak RSS import" \
    "$((import_kb / 1024)) MiB, verify $((verify_kb / 1024)) MiB"
done
