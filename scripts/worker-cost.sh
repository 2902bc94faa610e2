#!/usr/bin/env bash
# CPU per worker run: the agent on the sim runs only the topology probe, whose device work is a
# few calls, every 5 s for SECONDS; the CPU its workers used (the agent's children, from
# /proc/PID/stat) over the number of runs is what starting and running a worker costs. Workers
# keep their class-data archive in a directory of their own per jar (LINKWATCH_CDS_DIR, as the
# unit sets it); the first run, which writes it, is not counted. Compare jars and worker options
# in one run: JARS="old.jar new.jar". Builds nothing.
# Usage: scripts/worker-cost.sh [SECONDS (60)]
#   JARS=...            jars to compare (default agent/target/linkwatch.jar)
#   WORKER_OPTS=...     the config's worker.java_options, as a YAML list (default [-Xmx256m])
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jars=${JARS:-agent/target/linkwatch.jar}
worker_opts=${WORKER_OPTS:-[-Xmx256m]}
port=10196
dir=$(mktemp -d)
agent=""
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; rm -rf "$dir"' EXIT
hz=$(getconf CLK_TCK)
cat >"$dir/linkwatch.yaml" <<YAML
worker:
  java_options: $worker_opts
probes:
  p2p: {enabled: false}
  p2p_bidirectional: {enabled: false}
  allreduce: {enabled: false}
  allgather: {enabled: false}
  device_memory: {enabled: false}
  host_transfer: {enabled: false}
  topology: {enabled: true, every: 5s, deadline: 4s}
YAML
runs() {
  local text
  text=$(curl -fs "http://127.0.0.1:$port/metrics" 2>/dev/null) || { echo 0; return; }
  awk '/^linkwatch_probe_runs_total\{.*probe="topology".*result="success".*target="links"|^linkwatch_probe_runs_total\{.*probe="topology".*target="links".*result="success"/ {n += $2} END {print n + 0}' <<<"$text"
}
echo "| jar | worker runs | CPU per worker run |"
echo "|---|---|---|"
n=0
for jar in $jars; do
  n=$((n + 1))
  LINKWATCH_CDS_DIR=$dir/cds-$n java -Xmx64m -XX:+UseSerialGC -jar "$jar" run --backend sim --config "$dir/linkwatch.yaml" \
    --listen 127.0.0.1:$port >"$dir/agent.log" 2>&1 &
  agent=$!
  until [ "$(runs)" -ge 1 ]; do sleep 0.2; done
  r0=$(runs); c0=$(awk '{print $16 + $17}' "/proc/$agent/stat")
  sleep "$seconds"
  r1=$(runs); c1=$(awk '{print $16 + $17}' "/proc/$agent/stat")
  kill "$agent"; wait "$agent" 2>/dev/null || true; agent=""
  python3 -c "r = $r1 - $r0; print(f'| $jar | {r} | {($c1 - $c0) / $hz / r * 1000:.0f} ms |')"
done
