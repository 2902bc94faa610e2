#!/usr/bin/env bash
# What the device activity checks cost per probe run, on the sim, for each source:
# DCMI, npu-smi (DCMI failing), device memory (DCMI failing, no npu-smi), then DCMI on an
# 8-device profile. Runs `linkwatch probe p2p` (every ordered pair; each pair reads both devices
# before and after it) ROUNDS times per source with debug logs and prints the median milliseconds
# per run and per read. Needs a built jar (mvn package).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
jar=agent/target/linkwatch.jar
ctl=$(mktemp)
trap 'rm -f "$ctl"' EXIT
measure() { # NAME CONTROL-LINE PATH-PREFIX [PROFILE]
  local name=$1 line=$2 prefix=$3 profile=${4:-} ms=()
  printf '%s\n' "$line" > "$ctl"
  for _ in $(seq "$rounds"); do
    # ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0: no 2 s wait for device logs at each exit (see native/README.md)
    out=$(PATH="$prefix$PATH" LINKWATCH_SIM_CONTROL="$ctl" LINKWATCH_LOG_LEVEL=debug ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0 \
      LINKWATCH_SIM_PROFILE="$profile" \
      java -jar "$jar" probe p2p --backend sim --sizes 16MiB --iterations 3 2>&1 \
      | grep 'device activity checks' || true)
    [ -n "$out" ] || { echo "$name: no cost line" >&2; exit 1; }
    ms+=("$(sed -E 's/.*: ([0-9]+) device reads, ([0-9.]+) ms.*/\2 \1/' <<<"$out")")
  done
  printf '%s\n' "${ms[@]}" | sort -n | awk -v n="$name" '{a[NR]=$1; r=$2} END {m=a[int((NR+1)/2)]; printf "%-8s %6.1f ms per run (%d reads), %5.1f ms per read\n", n, m, r, m/r}'
}
measure dcmi "" ""
measure npu-smi "fail dcmi_init -8013" "$PWD/native/build:"
measure memory "fail dcmi_init -8013" "/nonexistent:"
# 8 devices, 56 pairs: the steady cost of one read, once the DCMI binding is loaded
measure dcmi-8 "" "" "$PWD/native/profiles/8x910b-hccs.profile"
