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
    FuzzStackPath FuzzImport FuzzStoredJSON)
fi
mkdir -p .root
[ -L .root/StackJournal ] || ln -s ../.. .root/StackJournal
# Every module is instrumented through the frontend (`-sanitize=fuzzer` with comparison
# tracing), and every link gets libFuzzer without its `main`: the targets call
# LLVMFuzzerRunDriver from their own, and the package's macro tools keep theirs. (The driver's
# `-sanitize=fuzzer` would link libFuzzer's `main` into the macro tools too, which fails.)
RUNTIME=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/clang
RUNTIME=$(find "$RUNTIME" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -n 1)
[ -n "$RUNTIME" ] || { echo "libclang_rt.fuzzer_no_main not found in the toolchain" >&2; exit 2; }
FLAGS=(-Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer
  -Xswiftc -Xfrontend -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table
  -Xlinker "$RUNTIME" -Xlinker -lstdc++ -Xlinker -lm)
swift build "${FLAGS[@]}" >.artifacts-build.log 2>&1 || {
  echo "the fuzz targets did not build; see fuzz/.artifacts-build.log" >&2
  exit 2
}
BIN=$(swift build "${FLAGS[@]}" --show-bin-path)
mkdir -p .artifacts
total=0
status=0
for target in "${TARGETS[@]}"; do
  mkdir -p ".corpus/$target" "Corpus/$target"
  log=".artifacts/$target.log"
  result=ok
  "$BIN/$target" ".corpus/$target" "Corpus/$target" -max_total_time="$SECONDS_PER_TARGET" \
    -max_len=8192 -timeout=10 -rss_limit_mb=2048 -artifact_prefix=".artifacts/$target-" \
    -print_final_stats=1 >"$log" 2>&1 || { status=1; result=CRASH; }
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
  # After a crash there are no final statistics: take the last progress line.
  [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "$log" | tr -d '#' | tail -n 1)
  runs=${runs:-0}
  total=$((total + runs))
  echo "$target: $runs executions, ${SECONDS_PER_TARGET} s at most: $result (log: fuzz/$log)"
done
echo "total: $total executions"
exit $status
