#!/usr/bin/env bash
# The service's resident memory while it takes actions back to back: starts navigation-service on
# SQLite and (when a URL is given) on PostgreSQL, drives N actions (default 50,000) over a few
# sessions through HTTP (one client, one keep-alive connection), and prints the service's VmRSS
# (/proc/PID/status) every 5,000 actions, for each backend.
#
#   Examples/NavigationService/scripts/rss.sh [N] [POSTGRES_URL] [BUILD] [BACKENDS]
#
#   export STACKJOURNAL_PG_STATE=/tmp/sj-rss-pg.state
#   Examples/NavigationService/scripts/rss.sh 50000 "$(scripts/postgres.sh start)" debug
#
# BUILD is `debug` (default) or `release`; the build uses the trait's scratch path (.build-pg).
# BACKENDS is `sqlite postgres` (default; postgres only with a URL), or one of them.
# Linux only (/proc). Each service run is bounded by a timeout; the service is stopped after.
set -euo pipefail
cd "$(dirname "$0")/.."
actions=${1:-50000}
url=${2:-}
build=${3:-debug}
backends=${4:-sqlite postgres}
scratch=.build-pg
swift build -c "$build" --scratch-path "$scratch" --traits PostgreSQL \
  --product navigation-service >/dev/null
bin=$scratch/$build/navigation-service
work=$(mktemp -d /tmp/sj-rss.XXXXXX)
service=

stop_service() {
  if [ -n "$service" ] && kill -0 "$service" 2>/dev/null; then
    kill -TERM "$service" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$service" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$service" 2>/dev/null || true
  fi
  service=
}
trap 'stop_service; rm -rf "$work"' EXIT

run() {  # run LABEL DB
  local label=$1 db=$2
  timeout 1800 "$bin" --db "$db" --port 0 >"$work/$label.out" 2>"$work/$label.err" &
  service=$!
  local port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on .*:\([0-9][0-9]*\).*/\1/p' "$work/$label.out" | head -1)
    [ -n "$port" ] && break
    sleep 0.2
  done
  [ -n "$port" ] || { echo "rss.sh: $label did not start"; cat "$work/$label.err"; exit 1; }
  # The service is `timeout`'s child; its RSS is the child's.
  local pid
  pid=$(pgrep -P "$service" -x navigation-serv || echo "$service")
  echo "== $label ($build build), $actions actions"
  timeout 1800 python3 - "$port" "$pid" "$actions" "$label" <<'PY'
import http.client, json, sys, time
port, pid, total, label = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
def post(path, body):
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status not in (200, 201):
        sys.exit(f"{path}: {response.status} {data[:200]!r}")
    return json.loads(data)
sessions = [f"rss-{label}-{int(time.time())}-{i}" for i in range(5)]
for s in sessions: post("/sessions", {"id": s})
per = total // len(sessions)
start, done = time.time(), 0
print(f"{0:>7} actions  RSS {rss():>4} MB", flush=True)
def act(s, body):
    global done
    post(f"/sessions/{s}/actions", body)
    done += 1
    if done % 5000 == 0:
        print(f"{done:>7} actions  RSS {rss():>4} MB  ({done / (time.time() - start):.0f}/s)",
              flush=True)
def name(id, action): return {"path": {"_0": {"element": {"id": id, "action": {"name": {"_0": action}}}}}}
for s in sessions:
    n, next_id = 0, 0
    while n < per:
        # One cycle: push the name step, type in it, cancel (pops it): 10 actions.
        act(s, {"startTapped": {}})
        for k in range(8):
            act(s, name(next_id, {"nameChanged": {"name": f"user {k}"}}))
        act(s, {"cancelTapped": {}})
        next_id += 1
        n += 10
print(f"{done:>7} actions  RSS {rss():>4} MB  (end)", flush=True)
time.sleep(35)  # past the journal's operation timeout (30 s)
print(f"{done:>7} actions  RSS {rss():>4} MB  (35 s idle)", flush=True)
PY
  stop_service
}

case " $backends " in *" sqlite "*) run sqlite "$work/rss.sqlite" ;; esac
case " $backends " in *" postgres "*) [ -n "$url" ] && run postgres "$url" ;; esac
exit 0
