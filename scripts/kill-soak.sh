#!/usr/bin/env bash
# Kill soak: SIGKILLs processes that write a journal at random moments and checks the journal
# after each kill. Not part of `swift test`.
#
#   scripts/kill-soak.sh [KILLS] [BUILD_DIR] [SEED]
#
# KILLS (default 1000) processes are killed, each at a random moment of one of these jobs:
#   record-new  the recorder (library: RecordingStore) creating a new journal, killed in its
#               first 0-40 ms
#   record      the recorder appending to an existing journal
#   demo        `stackjournal demo` (creating a session and recording)
#   compact     `stackjournal compact`
#   prune       `stackjournal prune` of idle sessions
#   import      `stackjournal import` of a 400-action export into the journal
#   migrate     `stackjournal migrate` of a blank SQLite file (the whole schema migration)
# After each kill: the file is never empty; `stackjournal verify` is clean; SQLite's
# `PRAGMA integrity_check` says ok; for the recorder, the last sequence it acknowledged (printed
# only after `send` returned) is in the journal. Every tenth kill, a writer opens the journal
# again and no temporary file of a dead process is left after that open.
set -u
KILLS=${1:-1000}
BIN=${2:-.build/debug}
SEED=${3:-1}
SJ="$BIN/stackjournal"
REC="$BIN/stackjournal-recorder"
for tool in "$SJ" "$REC"; do
  [ -x "$tool" ] || { echo "missing $tool: run swift build first" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command-line tool" >&2; exit 2; }
RANDOM=$SEED
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/soak.sqlite"
"$SJ" demo --db "$work/source.sqlite" --actions 400 --snapshot-interval 10 >/dev/null 2>&1
"$SJ" export demo-1 --db "$work/source.sqlite" -o "$work/export.ndjson" >/dev/null
modes=(record-new record record demo compact prune import migrate)
declare -A count
failures=0
start=$(date +%s)

fail() {
  echo "FAIL at kill $i ($mode): $*"
  failures=$((failures + 1))
  keep="/tmp/kill-soak-failure-$$-$i"
  cp -r "$work" "$keep"
  echo "  files kept in $keep"
  exit 1
}

millis() { # a random delay in seconds between $1 and $2 milliseconds
  local low=$1 high=$2
  printf '0.%03d' $((low + RANDOM % (high - low + 1)))
}

for ((i = 1; i <= KILLS; i++)); do
  mode=${modes[$((RANDOM % ${#modes[@]}))]}
  acks="$work/acks"
  : >"$acks"
  session=""
  case $mode in
    record-new)
      rm -f "$db" "$db-wal" "$db-shm"
      session="s$i"
      "$REC" "$db" "$session" "$i" >"$acks" 2>/dev/null &
      delay=$(millis 0 40)
      ;;
    record)
      session="s$((i % 4))"
      "$REC" "$db" "$session" "$i" >"$acks" 2>/dev/null &
      delay=$(millis 20 400)
      ;;
    demo)
      "$SJ" demo --db "$db" --snapshot-interval 3 >/dev/null 2>&1 &
      delay=$(millis 0 300)
      ;;
    compact)
      "$SJ" compact "s$((i % 4))" --keep-snapshots 1 --db "$db" >/dev/null 2>&1 &
      delay=$(millis 0 120)
      ;;
    prune)
      "$SJ" prune --idle-since 2999-01-01 --forks --db "$db" >/dev/null 2>&1 &
      delay=$(millis 0 120)
      ;;
    import)
      "$SJ" import "$work/export.ndjson" --as "imported-$i" --db "$db" >/dev/null 2>&1 &
      delay=$(millis 0 900)
      ;;
    migrate)
      rm -f "$db" "$db-wal" "$db-shm"
      sqlite3 "$db" "CREATE TABLE t (x); DROP TABLE t;"
      "$SJ" migrate --db "$db" >/dev/null 2>&1 &
      delay=$(millis 0 60)
      ;;
  esac
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  count[$mode]=$(( ${count[$mode]:-0} + 1 ))

  if [ -e "$db" ]; then
    [ -s "$db" ] || fail "the journal is an empty file"
    out=$("$SJ" verify --db "$db" 2>&1) || {
      # A blank file whose migration was killed before it committed still needs it: running
      # `migrate` again must complete it.
      if [ "$mode" = migrate ] && echo "$out" | grep -q "needs the migrations"; then
        "$SJ" migrate --db "$db" >/dev/null 2>&1 || fail "migrate after a killed migrate"
        out=$("$SJ" verify --db "$db" 2>&1) || fail "verify after migrate: $out"
      else
        fail "verify: $out"
      fi
    }
    check=$(sqlite3 "file:$db?mode=ro" "PRAGMA integrity_check" 2>&1)
    [ "$check" = "ok" ] || fail "integrity_check: $check"
    last=$(grep '^acknowledged' "$acks" | tail -n 1 | awk '{print $2}')
    if [ -n "$session" ] && [ -n "$last" ] && [ "$last" -gt 0 ]; then
      found=$("$SJ" log "$session" --from "$last" --to "$last" --ndjson --db "$db" 2>&1) \
        || fail "acknowledged sequence $last of $session: $found"
      [ -n "$found" ] || fail "acknowledged sequence $last of $session is missing"
    fi
  fi
  # Every tenth kill, a writer opens the file (a short demo), which removes what a killed
  # creation or import left, and nothing may be left after it.
  if ((i % 10 == 0)) && [ -e "$db" ]; then
    "$SJ" demo --db "$db" --snapshot-interval 5 >/dev/null 2>&1 || fail "a writer cannot open it"
    leftovers=$(ls -A "$work" | grep -c '^\.soak\.sqlite\.\|^\.\.soak\.sqlite\.')
    [ "$leftovers" = 0 ] || fail "temporary files left after an open: $(ls -A "$work")"
  fi
  if ((i % 100 == 0)); then
    echo "$i kills, $(($(date +%s) - start)) s"
  fi
done
echo "kill soak: $KILLS kills in $(($(date +%s) - start)) s, $failures failures (seed $SEED)"
for mode in "${!count[@]}"; do echo "  $mode: ${count[$mode]}"; done | sort
