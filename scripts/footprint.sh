#!/usr/bin/env bash
# The agent's own footprint on the sim: resident memory and CPU of the agent process alone
# (idle between probe runs, averaged over a window) and the largest worker seen during runs.
# Usage: scripts/footprint.sh [SECONDS] [CONFIG]   (builds nothing: run mvn package first)
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-120}
config=${2:-systemd/linkwatch.yaml}
port=10199
java ${LINKWATCH_JAVA_OPTS:-} -jar agent/target/linkwatch.jar run --backend sim --config "$config" --listen 127.0.0.1:$port >/tmp/linkwatch-footprint.log 2>&1 &
agent=$!
trap 'kill $agent 2>/dev/null || true' EXIT
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
max_worker=0
sample_workers() {
  for w in $(pgrep -P $agent || true); do
    r=$(awk '/VmRSS/ {print $2}' /proc/$w/status 2>/dev/null || echo 0)
    if [ "${r:-0}" -gt "$max_worker" ]; then max_worker=$r; fi
  done
}
# Start-up and the first run of every probe: watch the workers.
end=$((SECONDS + 30))
while [ $SECONDS -lt $end ]; do sample_workers; sleep 0.2; done
t0=$(ticks $agent); s0=$(date +%s.%N)
end=$((SECONDS + window))
while [ $SECONDS -lt $end ]; do
  sample_workers
  curl -s -o /dev/null localhost:$port/metrics
  sleep 1
done
t1=$(ticks $agent); s1=$(date +%s.%N)
rss=$(awk '/VmRSS/ {print $2}' /proc/$agent/status)
python3 - "$t0" "$t1" "$s0" "$s1" "$hz" "$rss" "$max_worker" "$window" <<'PY'
import sys
t0, t1, s0, s1, hz, rss, worker, window = sys.argv[1:]
cpu = (int(t1) - int(t0)) / int(hz) / (float(s1) - float(s0)) * 100
print(f"agent process over {window}s (scraped every second): RSS {int(rss)/1024:.0f} MiB, CPU {cpu:.2f} % of one core")
print(f"largest worker seen: RSS {int(worker)/1024:.0f} MiB")
PY
