#!/usr/bin/env bash
# /metrics throughput and latency with the status page closed and then open (the page and its
# charts' history fetched every second, five times its default refresh rate), from the same agent in one run: wrk on /metrics
# for DURATION (10s) each time. Needs the built jar and wrk (scripts/deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=agent/target/linkwatch.jar
port=${PORT:-10293}
duration=${DURATION:-10s}
work=$(mktemp -d)
poller=""
LINKWATCH_SIM_CONTROL="$work/control" java -jar "$jar" run --backend sim --config examples/sim.yaml \
  --listen "127.0.0.1:$port" >"$work/agent.log" 2>&1 &
agent=$!
trap 'kill $agent 2>/dev/null; [ -n "$poller" ] && kill $poller 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/metrics" 2>/dev/null | grep -q '^linkwatch_link_info' && break
  sleep 1
done
# Warm the JIT on both paths.
wrk -t1 -c4 -d5s "http://127.0.0.1:$port/metrics" >/dev/null
for _ in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$port/"; done
run() {
  wrk -t1 -c4 -d"$duration" --latency "http://127.0.0.1:$port/metrics" |
    awk -v what="$1" '/Requests\/sec/ {rps=$2} /^ +99%/ {p99=$2} END {printf "%-24s %10s req/s  p99 %s\n", what, rps, p99}'
}
run "page closed"
# The page's script also fetches /api/v1/history when a run was recorded; fetching it on every
# refresh here is more than a real page asks.
( while :; do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/?refresh=1"
    curl -fsS -o /dev/null "http://127.0.0.1:$port/api/v1/history"
    sleep 1
  done ) &
poller=$!
run "page open (1 s refresh)"
kill $poller; poller=""
run "page closed again"
echo "page size: $(curl -fsS "http://127.0.0.1:$port/" | wc -c) bytes," \
  "history: $(curl -fsS "http://127.0.0.1:$port/api/v1/history" | wc -c) bytes"
