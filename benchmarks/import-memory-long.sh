#!/usr/bin/env bash
# Peak memory of `stackjournal import` and `verify` on a long session: N entries (default
# 1,000,000: an export of about 290 MB) that push and pop on a stack of one or two elements,
# with a snapshot every 1,000 entries, next to the same at N / 10. Memory should follow the
# largest row, not the number of entries: the two lines should print about the same figures.
#
#   benchmarks/import-memory-long.sh [N] [DIR] [BUILD]
#
# Needs python3 and GNU time (/usr/bin/time). BUILD is `release` (default) or `debug`.
set -euo pipefail
cd "$(dirname "$0")/.."
entries=${1:-1000000}
dir=${2:-/tmp/stackjournal-import-memory}
build=${3:-release}
mkdir -p "$dir"
swift build -c "$build" --product stackjournal >/dev/null
sj=.build/$build/stackjournal

export_of() {
  python3 - "$1" "$2" <<'PY'
import json, sys
n, path, every = int(sys.argv[1]), sys.argv[2], 1000
t = "2025-01-01T00:00:00.000Z"
compact = dict(separators=(",", ":"))
def text(i): return json.dumps({"counter": {"_0": {"count": i}}}, **compact)
def snapshot(sequence, ids, next_id):
  state = {"path": {"elements": [{"id": i, "state": json.loads(text(i))} for i in ids],
    "nextID": next_id}}
  stacks = [{"elements": [{"caseName": "counter", "id": i, "state": text(i)} for i in ids],
    "nextID": next_id, "path": "path"}]
  return json.dumps({"kind": "snapshot", "sequence": sequence, "version": 1, "recordedAt": t,
    "state": state, "stacks": stacks}, **compact) + "\n"
header = {"kind": "header", "format": "stackjournal-session", "formatVersion": 1,
  "schemaVersion": 3, "exportedAt": t,
  "session": {"id": "long", "createdAt": t, "metadata": None, "forkedFrom": None,
    "forkedAt": None, "headSequence": n, "baseSequence": 0},
  "payloadVersions": {"min": 1, "max": 1}, "entries": n, "snapshots": 1 + n // every}
with open(path, "w") as f:
  f.write(json.dumps(header, **compact) + "\n" + snapshot(0, [0], 1))
  next_id = 1
  for s in range(1, n + 1):
    if s % 2:  # push the next ID onto [0]
      change = {"changed": [], "ids": [0, next_id], "nextID": next_id + 1, "path": "path",
        "popped": [], "pushed": [{"caseName": "counter", "id": next_id, "state": text(next_id)}],
        "removed": False}
      kind = "push"
      next_id += 1
    else:  # pop it
      change = {"changed": [], "ids": [0], "nextID": next_id, "path": "path",
        "popped": [next_id - 1], "pushed": [], "removed": False}
      kind = "pop"
    f.write(json.dumps({"kind": "entry", "sequence": s, "recordedAt": t, "type": kind,
      "version": 1, "payload": {kind: {}}, "delta": {"changes": [change]}}, **compact) + "\n")
    if s % every == 0:
      f.write(snapshot(s, [0, next_id - 1] if s % 2 else [0], next_id))
PY
}

# Peak RSS in KiB and elapsed seconds of a command.
measure() {
  /usr/bin/time -f "%M %e" "$@" 2>&1 >/dev/null | tail -1
}

for n in $((entries / 10)) "$entries"; do
  file="$dir/long-$n.ndjson"
  [ -f "$file" ] || export_of "$n" "$file"
  rm -f "$dir/long-$n.sqlite"*
  bytes=$(stat -c %s "$file")
  read -r import_kb import_s < <(measure "$sj" import "$file" --db "$dir/long-$n.sqlite")
  [ -f "$dir/long-$n.sqlite" ] || { echo "import of $file failed" >&2; exit 1; }
  read -r verify_kb verify_s < <(measure "$sj" verify --db "$dir/long-$n.sqlite")
  echo "$n entries, export $((bytes / 1024 / 1024)) MiB: peak RSS import" \
    "$((import_kb / 1024)) MiB (${import_s} s), verify $((verify_kb / 1024)) MiB (${verify_s} s)"
done
