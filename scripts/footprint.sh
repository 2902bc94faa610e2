#!/usr/bin/env bash
# The whole resident footprint of linkwatch on a host, on both of the sim's Ascend faces (the A3's
# two dies and the 8 x 910B): the agent started as the service starts it (the packaged launcher,
# systemd/linkwatch.default's JVM options and MALLOC_ARENA_MAX, the shipped systemd/linkwatch.yaml
# with passive watching on, class archives from an unmeasured first start), every probe's first
# run, then SCRAPES scrapes of /metrics. Prints per face: the agent's RSS, the passive watcher's,
# their sum, each one's PSS and the PSS summed (pages the two share, the JVM's own library and
# class archive among them, counted once: what the host really pays). Probe workers are not
# resident: each lives for its run (and on the sim holds the device memory it allocates in host
# RAM, which a real device keeps on the card), so they are left out.
# Needs: agent/target/linkwatch.jar (mvn package), curl, python3. Builds nothing.
# Usage: scripts/footprint.sh [SCRAPES (2000)]
set -euo pipefail
cd "$(dirname "$0")/.."
scrapes=${1:-2000}
port=10199
jar=$PWD/agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "footprint: $jar missing; run mvn package first" >&2; exit 2; }
LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
MALLOC_ARENA_MAX=$(sed -n 's/^MALLOC_ARENA_MAX=//p' systemd/linkwatch.default)
export LINKWATCH_JAVA_OPTS MALLOC_ARENA_MAX LINKWATCH_JAR=$jar
dir=$(mktemp -d)
agent=""
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; rm -rf "$dir"' EXIT
export LINKWATCH_CDS_DIR=$dir/cds
# The shipped config with this script's port and a probe lock of its own.
sed -e "s|^  lock_file: .*|  lock_file: $dir/probes.lock|" systemd/linkwatch.yaml >"$dir/linkwatch.yaml"

kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/${3:-status}" 2>/dev/null || echo 0; }
pss() { awk '$1 == "Pss:" {print $2}' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }
watcher_of() {
  for c in $(pgrep -P "$1" || true); do
    if tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline" | grep -q WatcherMain; then echo "$c"; fi
  done
}
start_agent() {
  packaging/src/bin/linkwatch run --backend sim --config "$dir/linkwatch.yaml" \
    --listen 127.0.0.1:$port >>"$dir/agent.log" 2>&1 &
  agent=$!
}
# Every probe configured has a result (each has an interval series, and a last run once it ran).
all_probes_ran() {
  curl -fs "http://127.0.0.1:$port/metrics" 2>/dev/null |
    awk -F'probe="' '/^linkwatch_probe_runs_total\{/ {split($2, a, "\""); ran[a[1]] = 1}
      /^linkwatch_probe_interval_seconds\{/ {split($2, a, "\""); all[a[1]] = 1}
      END {n = 0; for (p in ran) n++; m = 0; for (p in all) m++; exit !(m > 0 && n == m)}'
}

echo "| sim face | agent RSS | watcher RSS | agent + watcher RSS | agent PSS | watcher PSS | agent + watcher PSS |"
echo "|---|---|---|---|---|---|---|"
for profile in "" native/profiles/8x910b-hccs.profile; do
  name=${profile:+8 x 910B}
  export LINKWATCH_SIM_PROFILE=${profile:+$PWD/$profile}
  [ -n "$profile" ] || unset LINKWATCH_SIM_PROFILE
  rm -rf "$LINKWATCH_CDS_DIR"
  # Unmeasured first start: the agent and its first workers write their class archives.
  start_agent
  for _ in $(seq 1 600); do all_probes_ran && break; sleep 0.2; done
  kill "$agent"; wait "$agent" 2>/dev/null || true
  start_agent
  for _ in $(seq 1 900); do all_probes_ran && break; sleep 0.2; done
  all_probes_ran || { echo "footprint: not every probe ran within 180 s; see $dir/agent.log" >&2; exit 1; }
  for _ in $(seq 1 "$scrapes"); do curl -fs -o /dev/null "http://127.0.0.1:$port/metrics"; done
  # Between probe runs: no worker but the watcher (a run's worker is not what stays resident).
  for _ in $(seq 1 600); do
    [ "$(pgrep -c -P "$agent" || true)" -le 1 ] && break
    sleep 0.1
  done
  w=$(watcher_of "$agent")
  [ -n "$w" ] || { echo "footprint: no passive watcher runs; see $dir/agent.log" >&2; exit 1; }
  python3 - "${name:-A3 (2 dies)}" "$(kib "$agent" VmRSS)" "$(kib "$w" VmRSS)" "$(pss "$agent")" \
    "$(pss "$w")" <<'PY'
import sys
name, a, w, pa, pw = sys.argv[1], *map(int, sys.argv[2:])
m = lambda k: f"{k / 1024:.1f} MiB"
print(f"| {name} | {m(a)} | {m(w)} | {m(a + w)} | {m(pa)} | {m(pw)} | {m(pa + pw)} |")
PY
  kill "$agent"; wait "$agent" 2>/dev/null || true
  agent=""
done
echo "after $scrapes scrapes each, the shipped config and JVM options (passive watching on)"
