#!/usr/bin/env bash
# The agent's own overhead on a p2p measurement: with the sim in pass-through mode (events time
# the real memcpy), compare the bandwidth the agent reports (JNA binding, Java probe) with what
# p2p-loop reports (the same sim calls from C). Runs both alternately ROUNDS times and prints each
# pair and the ratio of the medians. Usage: native/bench/compare.sh [SIZE] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-256MiB}
rounds=${2:-5}
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "build first: mvn -q package -DskipTests" >&2; exit 2; }
make -s -C native >/dev/null
export LINKWATCH_SIM_TIMING=passthrough
# Both processes call aclInit: no 2 s exit hold for device logs per round (native/README.md).
export ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0
unset LINKWATCH_SIM_CONTROL
agent=()
native=()
for i in $(seq "$rounds"); do
  n=$(native/build/p2p-loop --sizes "$size" --warmup 5 --iterations 20 | sed -n 's/.*median_gbps=\([0-9.]*\).*/\1/p' | tail -1)
  a=$(java -jar "$jar" probe p2p --backend sim --pairs '0->1' --sizes "$size" --warmup 5 --iterations 20 --json \
      | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["targets"][0]["measurements"][0]["bytes_per_second"]/1e9)')
  native+=("$n")
  agent+=("$a")
  printf 'round %d: native %.2f GB/s, agent %.2f GB/s\n' "$i" "$n" "$a"
done
python3 - "${native[*]}" "${agent[*]}" <<'PY'
import statistics, sys
n = [float(x) for x in sys.argv[1].split()]
a = [float(x) for x in sys.argv[2].split()]
print(f"median native {statistics.median(n):.2f} GB/s, agent {statistics.median(a):.2f} GB/s, "
      f"agent/native = {statistics.median(a) / statistics.median(n):.3f}")
PY
