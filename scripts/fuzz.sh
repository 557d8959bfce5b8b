#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ and runs each for a given time. Not part of `swift test`.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Each target starts from its seed corpus in fuzz/Corpus/<target> (small, committed) and grows a
# working corpus in fuzz/.corpus/<target> (not committed). A crash stops that target and leaves
# the input in fuzz/.artifacts/. The last line of each run gives its executions.
set -u
cd "$(dirname "$0")/../fuzz"
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(FuzzExportReader FuzzJSONScanner FuzzJSONValue FuzzStackCoding FuzzTimeExpression
    FuzzStackPath)
fi
mkdir -p .root
[ -L .root/StackJournal ] || ln -s ../.. .root/StackJournal
swift build -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library >/dev/null || {
  echo "the fuzz targets did not build" >&2
  exit 2
}
BIN=$(swift build -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library --show-bin-path)
mkdir -p .artifacts
total=0
status=0
for target in "${TARGETS[@]}"; do
  mkdir -p ".corpus/$target" "Corpus/$target"
  log=".artifacts/$target.log"
  "$BIN/$target" ".corpus/$target" "Corpus/$target" -max_total_time="$SECONDS_PER_TARGET" \
    -max_len=8192 -timeout=10 -rss_limit_mb=2048 -artifact_prefix=".artifacts/$target-" \
    -print_final_stats=1 >"$log" 2>&1 || status=1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
  runs=${runs:-0}
  total=$((total + runs))
  result=$(grep -q 'ERROR: libFuzzer\|==ERROR\|Fatal error\|SUMMARY:' "$log" && echo CRASH || echo ok)
  echo "$target: $runs executions in ${SECONDS_PER_TARGET} s: $result (log: fuzz/$log)"
done
echo "total: $total executions"
exit $status
