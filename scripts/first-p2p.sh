#!/usr/bin/env bash
# Start to the first p2p figure on /metrics, as the service starts the agent (the packaged
# launcher, systemd/linkwatch.default's JVM options, the shipped systemd/linkwatch.yaml, class
# archives written by a first start that is not measured), STARTS times with passive watching on
# (the shipped config) and STARTS times with it off, alternating, in one run: medians and their
# ratio. The sim's 2-die A3 by default; LINKWATCH_SIM_PROFILE picks another.
# Needs agent/target/linkwatch.jar (mvn package). Usage: scripts/first-p2p.sh [STARTS (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
starts=${1:-5}
port=10196
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "first-p2p: $jar missing; run mvn package first" >&2; exit 2; }
LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
MALLOC_ARENA_MAX=$(sed -n 's/^MALLOC_ARENA_MAX=//p' systemd/linkwatch.default)
export LINKWATCH_JAVA_OPTS MALLOC_ARENA_MAX LINKWATCH_JAR=$jar
dir=$(mktemp -d)
export LINKWATCH_CDS_DIR=$dir/cds
agent=""
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; rm -rf "$dir"' EXIT
# the off config: the shipped one with passive.enabled false (its other passive keys stay)
python3 - "$dir/off.yaml" <<'PY'
import sys
p = sys.argv[1]
s = open("systemd/linkwatch.yaml").read()
s = s.replace("passive:\n  enabled: true\n", "passive:\n  enabled: false\n", 1)
assert "passive:\n  enabled: false\n" in s, "systemd/linkwatch.yaml: passive.enabled not found"
open(p, "w").write(s)
PY

# first CONFIG: seconds from start to the first p2p series
first() {
  local t0
  t0=$(date +%s.%N)
  packaging/src/bin/linkwatch run --backend sim --config "$1" --listen 127.0.0.1:$port \
    >>"$dir/agent.log" 2>&1 &
  agent=$!
  for _ in $(seq 1200); do
    if curl -fs "http://127.0.0.1:$port/metrics" 2>/dev/null |
      grep -q '^linkwatch_p2p_bandwidth_bytes_per_second{'; then
      python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')"
      kill "$agent"; wait "$agent" 2>/dev/null || true; agent=""
      return
    fi
    sleep 0.05
  done
  echo "first-p2p: no p2p series within 60 s; see $dir/agent.log" >&2
  exit 1
}

first systemd/linkwatch.yaml >/dev/null # unmeasured: writes the class archives
on=(); off=()
for _ in $(seq "$starts"); do
  on+=("$(first systemd/linkwatch.yaml)")
  off+=("$(first "$dir/off.yaml")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
m_on=$(median "${on[@]}"); m_off=$(median "${off[@]}")
echo "start to first p2p figure, $starts starts each (s): passive on ${on[*]}; off ${off[*]}"
awk -v a="$m_on" -v b="$m_off" 'BEGIN {printf "median: passive on %.2f s, off %.2f s, on/off %.2f\n", a, b, a / b}'
