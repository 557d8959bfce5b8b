#!/usr/bin/env bash
# Instructions per call of Timestamp's format and parse, and of Foundation's
# Date.ISO8601FormatStyle and ISO8601DateFormatter (with fractional seconds) on the same times,
# counted by callgrind (stable on a noisy machine, unlike time).
#
#   benchmarks/timestamp-instructions.sh [FEW] [MANY]
#
# Runs the bench's `timestamps` section with --count FEW (default 1000) and then MANY (default
# 5000) under `valgrind --tool=callgrind`, reads the inclusive instructions of each measured
# loop (one function each, TimestampWork.formatWith… and parseWith…), and divides the
# difference of the two runs by MANY − FEW: that leaves out start-up and a formatter's one-time
# set-up. Needs valgrind. Builds stackjournal-bench in release, unless BENCH names a binary.
set -euo pipefail
cd "$(dirname "$0")/.."
few=${1:-1000}
many=${2:-5000}
if [ -z "${BENCH:-}" ]; then
  nice -n 10 swift build -c release --product stackjournal-bench >/dev/null
fi
bench=${BENCH:-.build/release/stackjournal-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

loops() { # count: one line per measured loop, "name instructions"
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    "$bench" timestamps --count "$1" >/dev/null 2>"$out/valgrind.log"
  callgrind_annotate --inclusive=yes --threshold=100 "$out/cg.out" 2>/dev/null \
    | swift demangle --simplified \
    | awk 'match($0, /TimestampWork\.(format|parse)With[A-Za-z]+/) {
        name = substr($0, RSTART + 14, RLENGTH - 14); gsub(",", "", $1); print name, $1 }'
}

loops "$few" | sort >"$out/few"
loops "$many" | sort >"$out/many"
join "$out/few" "$out/many" | awk -v calls=$((many - few)) '
  { per[$1] = ($3 - $2) / calls }
  END {
    split("Timestamp FormatStyle DateFormatter", kinds, " ")
    split("format parse", operations, " ")
    for (o = 1; o <= 2; o++) for (k = 1; k <= 3; k++) {
      name = operations[o] "With" kinds[k]
      ours = per[operations[o] "WithTimestamp"]
      printf "%-24s %'"'"'10d instructions per call  %7.1f× Timestamp'"'"'s\n",
        name, per[name], per[name] / ours
    }
  }'
