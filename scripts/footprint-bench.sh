#!/usr/bin/env bash
# The agent's footprint beside node_exporter's, in one run on this machine: the agent on the sim
# with the production config (systemd/linkwatch.yaml), started as the service starts it (the
# /usr/bin/linkwatch launcher with systemd/linkwatch.default's JVM options and MALLOC_ARENA_MAX,
# class-data-sharing archives in a directory of its own, made by a first start that is not
# measured), node_exporter with its defaults. Measures start to the first p2p series on /metrics
# and to every probe's first result, idle RSS, RSS after SCRAPES scrapes and its growth, idle CPU
# between probe runs, and /metrics at 10 connections with wrk (requests/s, p99). Prints a
# markdown table.
# Needs: agent/target/linkwatch.jar (mvn package), prometheus-node-exporter, wrk, ab
# (apache2-utils), curl, python3. Builds nothing.
# Usage: scripts/footprint-bench.sh [SCRAPES (10000)] [IDLE_SECONDS (60)] [WRK_SECONDS (20)]
#   LINKWATCH_JAVA_OPTS=... overrides the service's JVM options (to compare settings).
set -euo pipefail
cd "$(dirname "$0")/.."
scrapes=${1:-10000}
idle=${2:-60}
load=${3:-20}
agent_port=10195
ne_port=19100
jar=agent/target/linkwatch.jar
for tool in prometheus-node-exporter wrk ab curl python3; do
  command -v "$tool" >/dev/null || { echo "footprint-bench: $tool missing" >&2; exit 2; }
done
[ -f "$jar" ] || { echo "footprint-bench: $jar missing; run mvn package first" >&2; exit 2; }
if [ -z "${LINKWATCH_JAVA_OPTS+x}" ]; then
  LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
fi
export LINKWATCH_JAVA_OPTS LINKWATCH_JAR=$jar
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-$(sed -n 's/^MALLOC_ARENA_MAX=//p' systemd/linkwatch.default)}
dir=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"' EXIT

now() { date +%s.%N; }
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

prometheus-node-exporter --web.listen-address=127.0.0.1:$ne_port >"$dir/ne.log" 2>&1 &
ne=$!
pids+=("$ne")

export LINKWATCH_CDS_DIR=$dir/cds
start_agent() {
  packaging/src/bin/linkwatch run --backend sim --config systemd/linkwatch.yaml \
    --listen 127.0.0.1:$agent_port >>"$dir/agent.log" 2>&1 &
  agent=$!
  pids+=("$agent")
}
# Probes that have a result, and probes configured (each has an interval series).
probes_done() {
  curl -fs "http://127.0.0.1:$agent_port/metrics" 2>/dev/null |
    awk -F'probe="' '/^linkwatch_probe_last_success_timestamp_seconds\{/ {split($2, a, "\""); done[a[1]] = 1}
      /^linkwatch_probe_interval_seconds\{/ {split($2, a, "\""); all[a[1]] = 1}
      END {n = 0; for (p in done) n++; m = 0; for (p in all) m++; print n, m}'
}
wait_all_probes() {
  for _ in $(seq 1 2400); do
    read -r n m < <(probes_done || echo "0 1")
    if [ "$m" -gt 0 ] && [ "$n" -eq "$m" ]; then return 0; fi
    sleep 0.05
  done
  echo "footprint-bench: not every probe had a result within 120 s; see $dir/agent.log" >&2
  exit 1
}

# Unmeasured first start: the agent and its first worker write their class archives.
start_agent
wait_all_probes
kill "$agent"; wait "$agent" 2>/dev/null || true
packaging/src/bin/linkwatch --version >/dev/null # keeps the archive that start wrote

t0=$(now)
start_agent
first=""
for _ in $(seq 1 1200); do
  if curl -fs "http://127.0.0.1:$agent_port/metrics" 2>/dev/null | grep -q '^linkwatch_p2p_bandwidth_bytes_per_second{'; then
    first=$(python3 -c "print(f'{$(now) - $t0:.2f}')")
    break
  fi
  sleep 0.05
done
[ -n "$first" ] || { echo "footprint-bench: no p2p series within 60 s; see $dir/agent.log" >&2; exit 1; }
wait_all_probes
every=$(python3 -c "print(f'{$(now) - $t0:.1f}')")
archives=$(find "$dir/cds" -name '*.jsa' 2>/dev/null | wc -l)

# Idle: once no worker has run for 5 s (the first run of every probe is over), for IDLE seconds.
quiet_since=$SECONDS
until [ $((SECONDS - quiet_since)) -ge 5 ]; do
  if pgrep -P "$agent" >/dev/null; then quiet_since=$SECONDS; fi
  sleep 0.2
done
ne_t0=$(ticks $ne); a_t0=$(ticks $agent); s0=$(now)
workers_seen=0
end=$((SECONDS + idle))
while [ $SECONDS -lt $end ]; do
  if pgrep -P "$agent" >/dev/null; then workers_seen=1; fi
  sleep 0.5
done
ne_t1=$(ticks $ne); a_t1=$(ticks $agent); s1=$(now)
a_idle=$(rss_kib $agent); ne_idle=$(rss_kib $ne)

ab -q -n "$scrapes" -c 1 "http://127.0.0.1:$agent_port/metrics" >"$dir/ab-agent.txt" 2>&1
ab -q -n "$scrapes" -c 1 "http://127.0.0.1:$ne_port/metrics" >"$dir/ab-ne.txt" 2>&1
a_after=$(rss_kib $agent); ne_after=$(rss_kib $ne)

wrk -t2 -c10 -d"${load}s" --latency "http://127.0.0.1:$agent_port/metrics" >"$dir/wrk-agent.txt"
wrk -t2 -c10 -d"${load}s" --latency "http://127.0.0.1:$ne_port/metrics" >"$dir/wrk-ne.txt"
a_series=$(curl -fs "http://127.0.0.1:$agent_port/metrics" | grep -vc '^#')
ne_series=$(curl -fs "http://127.0.0.1:$ne_port/metrics" | grep -vc '^#')

python3 - "$dir" "$first" "$every" "$archives" "$a_idle" "$ne_idle" "$a_after" "$ne_after" "$a_t0" "$a_t1" "$ne_t0" "$ne_t1" "$s0" "$s1" "$hz" "$scrapes" "$workers_seen" "$a_series" "$ne_series" "$LINKWATCH_JAVA_OPTS" <<'PY'
import re, sys
(d, first, every, archives, a_idle, ne_idle, a_after, ne_after, a0, a1, n0, n1, s0, s1, hz, scrapes, workers,
 a_series, ne_series, opts) = sys.argv[1:]
secs = float(s1) - float(s0)
cpu = lambda t0, t1: (int(t1) - int(t0)) / int(hz) / secs * 100

def wrk(path):
    text = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    m = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", text, re.M)
    p99 = float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)]
    return rps, p99

ar, ap = wrk(f"{d}/wrk-agent.txt")
nr, np_ = wrk(f"{d}/wrk-ne.txt")
mib = lambda k: int(k) / 1024
print(f"JVM options: {opts}; class-data archives: {archives}")
print(f"| | linkwatch agent | node_exporter | ratio |")
print(f"|---|---|---|---|")
print(f"| start to first p2p series on /metrics | {first} s | | |")
print(f"| start to every probe's first result | {every} s | | |")
print(f"| idle RSS | {mib(a_idle):.1f} MiB | {mib(ne_idle):.1f} MiB | {int(a_idle) / int(ne_idle):.1f} |")
print(f"| RSS after {scrapes} scrapes | {mib(a_after):.1f} MiB | {mib(ne_after):.1f} MiB | |")
print(f"| growth over those scrapes | {mib(int(a_after) - int(a_idle)):+.1f} MiB | {mib(int(ne_after) - int(ne_idle)):+.1f} MiB | |")
print(f"| idle CPU over {secs:.0f} s | {cpu(a0, a1):.3f} % of a core | {cpu(n0, n1):.3f} % | |"
      + ("" if workers == "0" else " (a probe ran in the window)"))
print(f"| /metrics at 10 connections | {ar:.0f} req/s, p99 {ap:.2f} ms | {nr:.0f} req/s, p99 {np_:.2f} ms | {ar / nr:.1f}x the rate |")
print(f"| samples per scrape | {a_series} | {ne_series} | |")
PY
