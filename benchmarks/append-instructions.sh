#!/usr/bin/env bash
# Instructions per action of a RecordingStore at NORMAL, and what recording adds to a plain
# Store sent the same actions, counted by callgrind (stable on a noisy machine, unlike time), at
# several stack depths and for each of the bench's states.
#
#   benchmarks/append-instructions.sh [DEPTHS] [FEW] [MANY] [STATES]
#
# DEPTHS defaults to "5 20 50", STATES to "article shop" (article: the bench's own state,
# hand-written reducers; shop: a @Reducer feature with a @Reducer enum Path, nested structs).
# For each state and depth the benchmark sends FEW (default 100) and then MANY (default 400)
# actions under `valgrind --tool=callgrind`, once to a RecordingStore and once to a plain Store;
# the difference of the two instruction totals divided by MANY − FEW leaves out start-up and the
# initial state. "added" is the RecordingStore's figure minus the plain Store's: what the library
# adds to an action. Needs valgrind. Builds stackjournal-bench in release, unless BENCH names a
# binary to measure (say, one built from an earlier commit, to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
depths=${1:-"5 20 50"}
few=${2:-100}
many=${3:-400}
states=${4:-"article shop"}
if [ -z "${BENCH:-}" ]; then
  nice -n 10 swift build -c release --product stackjournal-bench >/dev/null
fi
bench=${BENCH:-.build/release/stackjournal-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

total() { # state depth count [--plain]
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    "$bench" instructions --state "$1" --depths "$2" --count "$3" ${4:-} \
    >/dev/null 2>"$out/valgrind.log"
  awk '/^(summary|totals):/ { print $2; exit }' "$out/cg.out"
}

per_action() { # state depth [--plain]
  local a b
  a=$(total "$1" "$2" "$few" ${3:-})
  b=$(total "$1" "$2" "$many" ${3:-})
  echo $(( (b - a) / (many - few) ))
}

for state in $states; do
  first=""
  for depth in $depths; do
    recording=$(per_action "$state" "$depth")
    plain=$(per_action "$state" "$depth" --plain)
    added=$(( recording - plain ))
    [ -z "$first" ] && first=$added
    printf "%-7s depth %3d: %'10d per action recorded, %'9d plain, %'10d added  (%.2f× depth %s)\n" \
      "$state" "$depth" "$recording" "$plain" "$added" \
      "$(echo "$added / $first" | bc -l)" "${depths%% *}"
  done
done
