#!/usr/bin/env bash
# Instructions per append of a RecordingStore at NORMAL, counted by callgrind (stable on a noisy
# machine, unlike time), at several stack depths.
#
#   benchmarks/append-instructions.sh [DEPTHS] [FEW] [MANY]
#
# DEPTHS defaults to "5 20 50". For each depth the benchmark records FEW (default 100) and then
# MANY (default 400) actions under `valgrind --tool=callgrind`; the difference of the two
# instruction totals divided by MANY − FEW leaves out start-up and the initial state.
# Needs valgrind. Builds stackjournal-bench in release, unless BENCH names a binary to measure
# (say, one built from an earlier commit, to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
depths=${1:-"5 20 50"}
few=${2:-100}
many=${3:-400}
if [ -z "${BENCH:-}" ]; then
  nice -n 10 swift build -c release --product stackjournal-bench >/dev/null
fi
bench=${BENCH:-.build/release/stackjournal-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

total() { # depth count
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    "$bench" instructions --depths "$1" --count "$2" >/dev/null 2>"$out/valgrind.log"
  awk '/^(summary|totals):/ { print $2; exit }' "$out/cg.out"
}

first=""
for depth in $depths; do
  a=$(total "$depth" "$few")
  b=$(total "$depth" "$many")
  per=$(( (b - a) / (many - few) ))
  [ -z "$first" ] && first=$per
  printf "depth %3d: %'12d instructions per append  (%.2f× depth %s)\n" \
    "$depth" "$per" "$(echo "$per / $first" | bc -l)" "${depths%% *}"
done
