#!/usr/bin/env bash
# A fault soak of the agent on the sim, with the shipped JVM options (systemd/linkwatch.default):
# every probe every 10 s, scrapes from wrk paced 10 ms apart (about 85/s here, the answer time
# added), and a fault from the sim's control file for 8 s of every 20 (fail, hang, crash,
# corrupt, a failing reset, a failing aclInit, a busy device).
# Every SAMPLE seconds it records the agent's RSS, open fds, threads and worker processes, at a
# moment when no worker runs (it waits up to 10 s for one: a run holds pipes, reader threads and
# its process, and a worker left behind keeps the count above 0 however long it waits). At the end
# it prints them at start, after warm-up and at the end, and exits 1 if the agent died, if fds,
# threads or workers grew after warm-up, or if RSS grew by more than 10 % + 4 MiB.
# Needs: agent/target/linkwatch.jar (mvn package), wrk, curl, python3.
# Usage: scripts/fault-soak.sh [MINUTES (60)] [SAMPLE_SECONDS (60)] [WARMUP_SECONDS (600)]
#   OUT=dir keeps samples.tsv, agent.log and wrk.txt there (default: a temporary directory);
#   JAR=path runs another build of the agent; PORT=n listens elsewhere than 10197;
#   LINKWATCH_JAVA_OPTS=... replaces the service's JVM options.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-60}
sample=${2:-60}
warmup=${3:-600}
port=${PORT:-10197}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
jar=${JAR:-agent/target/linkwatch.jar}
[ -f "$jar" ] || { echo "fault-soak: $jar missing; run mvn package first" >&2; exit 2; }
command -v wrk >/dev/null || { echo "fault-soak: wrk missing (apt-get install wrk)" >&2; exit 2; }

# The service's JVM options, as the unit's EnvironmentFile gives them, unless set.
if [ -z "${LINKWATCH_JAVA_OPTS+x}" ]; then
  LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
fi
control="$out/sim-control"
config="$out/soak.yaml"
cat >"$config" <<'YAML'
backend: sim
budget: 1.0
busy: {retry: 5s}
probes:
  p2p: {every: 10s, deadline: 8s, sizes: [4MiB], iterations: 3}
  p2p_bidirectional: {every: 10s, deadline: 8s, sizes: [4MiB], iterations: 3}
  device_memory: {every: 10s, deadline: 8s, size: 4MiB, iterations: 3}
  allreduce: {every: 10s, deadline: 8s, sizes: [1KiB, 1MiB], warmup: 1, iterations: 5}
  allgather: {every: 10s, deadline: 8s, sizes: [1KiB, 1MiB], warmup: 1, iterations: 5}
  host_transfer: {every: 10s, deadline: 8s, sizes: [4MiB], warmup: 1, iterations: 3}
  topology: {every: 10s, deadline: 8s}
YAML
# Its own probe lock: the default one (/run/linkwatch) may be another agent's on this host.
echo "coordination: {lock_file: \"$out/probes.lock\"}" >>"$config"

# shellcheck disable=SC2086 # the options are several words on purpose
LINKWATCH_SIM_CONTROL=$control java $LINKWATCH_JAVA_OPTS -jar "$jar" run --config "$config" \
  --listen 127.0.0.1:$port >"$out/agent.log" 2>&1 &
agent=$!
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  kill "$agent" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && break
  sleep 0.1
done

# Close to 100 scrapes a second: one connection, 10 ms between requests.
cat >"$out/pace.lua" <<'LUA'
function delay() return 10 end
LUA
wrk -t1 -c1 -d"$((minutes * 60))s" -s "$out/pace.lua" --latency \
  "http://127.0.0.1:$port/metrics" >"$out/wrk.txt" 2>&1 &
load=$!
pids+=($load)

faults=(
  "fail aclrtMemcpyAsync 507899"
  "hang aclrtSynchronizeStream"
  "crash aclrtMemcpyAsync"
  "corrupt aclrtMemcpy"
  "fail aclrtResetDevice 507899"
  "fail aclInit 507899"
  "hang HcclAllReduce"
  "busy 1 pid 4242 util 80 memory 1073741824"
)
(
  i=0
  while true; do
    sleep 12
    printf '%s\n' "${faults[$((i % ${#faults[@]}))]}" >"$control.tmp" && mv "$control.tmp" "$control"
    sleep 8
    rm -f "$control"
    i=$((i + 1))
  done
) &
pids+=($!)

status() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$agent/status"; }
echo -e "seconds\trss_kib\tfds\tthreads\tworkers" >"$out/samples.tsv"
start=$SECONDS
end=$((SECONDS + minutes * 60))
while [ $SECONDS -lt $end ]; do
  if ! kill -0 "$agent" 2>/dev/null; then
    echo "fault-soak: the agent died; see $out/agent.log" >&2
    exit 1
  fi
  quiet_by=$((SECONDS + 10))
  while workers=$(pgrep -c -P "$agent" || true) && [ "$workers" -gt 0 ] && [ $SECONDS -lt $quiet_by ]; do
    sleep 0.05
  done
  fds=$(find "/proc/$agent/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  echo -e "$((SECONDS - start))\t$(status VmRSS)\t$fds\t$(status Threads)\t$workers" >>"$out/samples.tsv"
  sleep "$sample"
done
wait "$load" || true
python3 - "$out/samples.tsv" "$warmup" "$out/wrk.txt" <<'PY'
import sys
path, warmup, wrk = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [list(map(int, l.split("\t"))) for l in open(path).read().splitlines()[1:]]
after = [r for r in rows if r[0] >= warmup] or rows[-1:]
first, warm, last = rows[0], after[0], rows[-1]
print("| | seconds | RSS MiB | fds | threads | workers |")
print("|---|---|---|---|---|---|")
for name, r in (("start", first), ("after warm-up", warm), ("end", last)):
    print(f"| {name} | {r[0]} | {r[1] / 1024:.1f} | {r[2]} | {r[3]} | {r[4]} |")
# Threads of the JDK's process reaper linger a while after a run: compare the quietest sample of
# the warm-up's end with the quietest of the last stretch, so one busy moment is not growth, while
# a leak raises even the quietest moments.
third = max(1, len(after) // 3)
early, late = after[:third], after[-third:]
problems = []
for i, name in ((2, "fds"), (3, "threads"), (4, "workers")):
    if min(r[i] for r in late) > min(r[i] for r in early):
        problems.append(f"{name} grew: {min(r[i] for r in early)} -> {min(r[i] for r in late)}")
rss_early, rss_late = min(r[1] for r in early), max(r[1] for r in late)
if rss_late > rss_early * 1.10 + 4096:
    problems.append(f"RSS grew: {rss_early / 1024:.1f} -> {rss_late / 1024:.1f} MiB")
print("max over the run: RSS %.1f MiB, fds %d, threads %d, workers %d"
      % (max(r[1] for r in rows) / 1024, max(r[2] for r in rows), max(r[3] for r in rows),
         max(r[4] for r in rows)))
for line in open(wrk):
    if "Requests/sec" in line or " 99%" in line:
        print("wrk: " + line.strip())
for p in problems:
    print("GROWTH: " + p)
sys.exit(1 if problems else 0)
PY
