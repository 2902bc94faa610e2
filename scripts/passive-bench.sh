#!/usr/bin/env bash
# What passive watching costs, in one run, on the sim: two agents side by side on the same
# 8-device profile (native/profiles/8x910b-hccs.profile: 8 x 910B, 7 HCCS ports each), one with
# passive watching on at its default interval, one with it off, no active probe in either (they
# would dominate the figures and are the same in both):
#   * cost of one read per device: the watcher's CPU time and the round's wall time over rounds
#     at a 1 s interval, divided by the devices;
#   * the agent's CPU (agent + watcher process, /proc ticks) over IDLE seconds, on vs off;
#   * /metrics at 10 connections with wrk (requests/s, p99), on vs off, one after the other.
# Usage: scripts/passive-bench.sh [IDLE_SECONDS] [WRK_SECONDS]   (default 120 15)
# Needs: agent/target/linkwatch.jar (mvn package), wrk, curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
idle=${1:-120}
load=${2:-15}
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "build first: mvn package -DskipTests" >&2; exit 2; }
for tool in wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
dir=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
export LINKWATCH_SIM_PROFILE=$PWD/native/profiles/8x910b-hccs.profile
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Ticks of a process and its children that still run (the watcher).
tree_ticks() {
  local total; total=$(ticks "$1")
  for c in $(pgrep -P "$1" || true); do total=$((total + $(ticks "$c"))); done
  echo "$total"
}

start() { # NAME PASSIVE_YAML -> URL on stdout
  local name=$1
  {
    echo "backend: sim"
    echo "listen: 127.0.0.1:0"
    echo "$2"
    echo "probes:"
    for p in p2p p2p_bidirectional allreduce allgather host_transfer device_memory topology; do
      echo "  $p: {enabled: false}"
    done
  } >"$dir/$name.yaml"
  LINKWATCH_SIM_CONTROL=$dir/$name.control java -jar "$jar" run --config "$dir/$name.yaml" \
    >"$dir/$name.out" 2>&1 &
  pids+=($!)
  echo $! >"$dir/$name.pid"
  for _ in $(seq 60); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$dir/$name.out" | head -1 || true)
    [ -n "$url" ] && { echo "$url"; return; }
    sleep 1
  done
  cat "$dir/$name.out" >&2; exit 1
}

# 1. One read per device: a 1 s interval for 30 s.
fast=$(start fast $'passive:\n  interval: 1s\n  deadline: 900ms')
sleep 5
wpid=$(pgrep -P "$(cat "$dir/fast.pid")" -f WatcherMain)
t0=$(ticks "$wpid"); r0=$(curl -fsS "$fast" | awk '/^linkwatch_passive_reads_total\{result="success",source="dcmi"\}/{print $2}')
walls=()
for _ in $(seq 30); do
  sleep 1
  walls+=("$(curl -fsS "$fast" | awk '/^linkwatch_passive_read_duration_seconds\{source="dcmi"\}/{print $2}')")
done
t1=$(ticks "$wpid"); r1=$(curl -fsS "$fast" | awk '/^linkwatch_passive_reads_total\{result="success",source="dcmi"\}/{print $2}')
kill "$(cat "$dir/fast.pid")"
python3 - "$hz" "$t0" "$t1" "$r0" "$r1" "${walls[@]}" <<'PY'
import statistics, sys
hz, t0, t1, r0, r1 = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
walls = [float(w) for w in sys.argv[6:] if w]
reads = r1 - r0
print(f"one read of one device (8 devices x 7 HCCS ports, DCMI through the sim):")
print(f"  watcher CPU {(t1 - t0) / hz / reads * 1e3:.2f} ms per device read ({int(reads)} reads)")
print(f"  round wall time median {statistics.median(walls) * 1e3:.1f} ms for 8 devices "
      f"({statistics.median(walls) / 8 * 1e3:.2f} ms per device)")
PY

# 2. Idle CPU, passive on (default 15 s) vs off, side by side.
on=$(start on "")
off=$(start off $'passive:\n  enabled: false')
sleep 20
on_pid=$(cat "$dir/on.pid"); off_pid=$(cat "$dir/off.pid")
a0=$(tree_ticks "$on_pid"); b0=$(tree_ticks "$off_pid")
sleep "$idle"
a1=$(tree_ticks "$on_pid"); b1=$(tree_ticks "$off_pid")
watcher_rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$(pgrep -P "$on_pid" -f WatcherMain)/status")

# 3. /metrics under load: both warmed up first (the serving path compiles), then off, then on.
wrk -t2 -c10 -d5s "$on" >/dev/null
wrk -t2 -c10 -d5s "$off" >/dev/null
wrk -t2 -c10 -d"${load}s" --latency "$off" >"$dir/wrk-off.txt"
wrk -t2 -c10 -d"${load}s" --latency "$on" >"$dir/wrk-on.txt"
series_on=$(curl -fsS "$on" | grep -vc '^#')
series_off=$(curl -fsS "$off" | grep -vc '^#')
bytes_on=$(curl -fsS "$on" | wc -c)
bytes_off=$(curl -fsS "$off" | wc -c)
python3 - "$dir" "$hz" "$idle" "$a0" "$a1" "$b0" "$b1" "$watcher_rss" "$series_on" "$series_off" "$bytes_on" "$bytes_off" <<'PY'
import re, sys
d, hz, idle = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a0, a1, b0, b1, rss, son, soff, bon, boff = map(int, sys.argv[4:13])
def wrk(path):
    text = open(path).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    m = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\b", text, re.M)
    p99 = float(m.group(1)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(2)]
    return rps, p99
on_cpu = (a1 - a0) / hz / idle * 100
off_cpu = (b1 - b0) / hz / idle * 100
(ron, pon), (roff, poff) = wrk(f"{d}/wrk-on.txt"), wrk(f"{d}/wrk-off.txt")
print(f"idle CPU over {idle} s (agent + watcher): passive on {on_cpu:.3f} %, off {off_cpu:.3f} %"
      f" (+{on_cpu - off_cpu:.3f} points); watcher RSS {rss / 1024:.1f} MiB")
print(f"/metrics at 10 connections: on {ron:.0f} req/s p99 {pon:.2f} ms, off {roff:.0f} req/s"
      f" p99 {poff:.2f} ms (on/off throughput {ron / roff:.2f})")
print(f"series on /metrics: on {son}, off {soff} (+{son - soff} passive series for 8 devices);"
      f" bytes per scrape {bon} vs {boff}")
PY
