#!/usr/bin/env bash
# Instructions per call of Timestamp's format and parse, and of Foundation's
# Date.ISO8601FormatStyle and ISO8601DateFormatter (with fractional seconds) on the same times,
# counted by callgrind (stable on a noisy machine, unlike time).
#
#   benchmarks/timestamp-instructions.sh [FEW] [MANY]
#
# Runs the bench's `timestamps` section with --count FEW (default 200) and then MANY (default
# 1000) under `valgrind --tool=callgrind`, once for each measured loop (a function of its own,
# TimingLoops.formatWith… or parseWith…), counting only inside that loop (--toggle-collect), and
# divides the difference of the two counts by MANY − FEW: that leaves out a formatter's one-time
# set-up. Needs valgrind. Builds stackjournal-bench in release, unless BENCH names a binary.
set -euo pipefail
cd "$(dirname "$0")/.."
few=${1:-200}
many=${2:-1000}
if [ -z "${BENCH:-}" ]; then
  nice -n 10 swift build -c release --product stackjournal-bench >/dev/null
fi
bench=${BENCH:-.build/release/stackjournal-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

inside() { # loop count: the instructions run inside TimingLoops.<loop>
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    --toggle-collect="*TimingLoops*$1*" \
    "$bench" timestamps --count "$2" >/dev/null 2>"$out/valgrind.log"
  awk '/^(summary|totals):/ { print $2; exit }' "$out/cg.out"
}

first=""
for operation in format parse; do
  for kind in Timestamp FormatStyle DateFormatter; do
    loop=${operation}With$kind
    a=$(inside "$loop" "$few")
    b=$(inside "$loop" "$many")
    per=$(( (b - a) / (many - few) ))
    [ "$kind" = Timestamp ] && first=$per
    printf "%-24s %'10d instructions per call  %7.1f× Timestamp's\n" \
      "$loop" "$per" "$(echo "$per / $first" | bc -l)"
  done
done
