#!/usr/bin/env bash
# What watching the ports to other servers costs one host: the wall time of one read round of 8
# ports, and the series they add to a scrape.
#
#   hccn_tool   the agent on the sim's 8 x 910B reads each NPU's port through the sim's hccn_tool
#               stand-in alone (prefer_dcmi: false: 8 calls per port, one at a time: 64 child
#               processes a round). Its round time (linkwatch_passive_read_duration_seconds
#               {source="hccn_tool"}, median of ROUNDS rounds) is set against a shell loop making
#               the same 64 calls one after the other, in the same run: the ratio is what the agent
#               adds to the tool's own cost. Then the default, with the port's counters, health and
#               address through DCMI (5 calls per port, 40 a round): its round time against the
#               tool-only one.
#   infiniband  the agent on the sim's 8 x H200 reads an 8-adapter /sys/class/infiniband tree
#               written here (one port each, the standard counters): its round time, median.
#   series      linkwatch_nic_* series on /metrics for each: the A3 (2 dies), 8 x 910B, 8 x H200
#               with 8 adapters.
#
# Usage: scripts/nic-bench.sh [ROUNDS]   (default 20; passive interval 2 s, so about ROUNDS x 2 s)
# Env: JAR (default agent/target/linkwatch.jar, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}
jar=${JAR:-agent/target/linkwatch.jar}
tool=$PWD/native/build/hccn_tool
[ -f "$jar" ] && [ -x "$tool" ] || mvn -B -q package -DskipTests
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp" 2>/dev/null || true
}
trap cleanup EXIT

# start NAME BACKEND PROFILE EXTRA_YAML: an agent with passive reads every 2 s and only the
# topology probe (it names the devices); prints its /metrics URL
start() {
  local name=$1 backend=$2 profile=$3 extra=$4
  mkdir -p "$tmp/$name"
  cat >"$tmp/$name/linkwatch.yaml" <<EOF
backend: $backend
listen: 127.0.0.1:0
passive:
  interval: 2s
  deadline: 1900ms
$extra
probes:
  p2p: {enabled: false}
  p2p_bidirectional: {enabled: false}
  allreduce: {enabled: false}
  allgather: {enabled: false}
  host_transfer: {enabled: false}
  device_memory: {enabled: false}
EOF
  : >"$tmp/$name/control"
  env LINKWATCH_SIM_CONTROL="$tmp/$name/control" ${profile:+LINKWATCH_SIM_PROFILE=$PWD/$profile} \
    java -jar "$jar" run --config "$tmp/$name/linkwatch.yaml" >"$tmp/$name/out" 2>&1 &
  pids+=($!)
  local url=""
  for _ in $(seq 60); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$tmp/$name/out" | head -1 || true)
    [ -n "$url" ] && break
    sleep 1
  done
  [ -n "$url" ] || { cat "$tmp/$name/out" >&2; exit 1; }
  echo "$url"
}

# rounds_of URL SOURCE: the round time of ROUNDS successive rounds, median, in ms
median_round_ms() {
  local url=$1 source=$2 last="" seen=0
  : >"$tmp/rounds"
  while [ "$seen" -lt "$rounds" ]; do
    local m ts
    m=$(curl -fsS "$url")
    ts=$(sed -n "s/^linkwatch_passive_last_read_timestamp_seconds{source=\"$source\"} //p" <<<"$m")
    if [ -n "$ts" ] && [ "$ts" != "$last" ]; then
      last=$ts
      seen=$((seen + 1))
      sed -n "s/^linkwatch_passive_read_duration_seconds{source=\"$source\"} //p" <<<"$m" >>"$tmp/rounds"
    fi
    sleep 0.5
  done
  sort -g "$tmp/rounds" | awk '{a[NR]=$1} END {printf "%.1f", 1000 * a[int((NR + 1) / 2)]}'
}

nic_series() { curl -fsS "$1" >"$tmp/scrape"; grep -c '^linkwatch_nic_' "$tmp/scrape" || true; }

await() { # await URL PATTERN: until /metrics has a line matching PATTERN
  for _ in $(seq 120); do curl -fsS "$1" >"$tmp/scrape" && grep -q "$2" "$tmp/scrape" && return 0; sleep 1; done
  echo "never saw $2" >&2; return 1
}

hccn="  hccn_tool:
    command: $tool
    timeout: 600ms"

# hccn_tool: 8 NPUs, everything from the tool
url=$(start npu8 sim native/profiles/8x910b-hccs.profile "$hccn
    prefer_dcmi: false")
await "$url" 'linkwatch_passive_read_success{device="7",source="hccn_tool"} 1'
agent_ms=$(median_round_ms "$url" hccn_tool)
npu8_series=$(nic_series "$url")
# the same 64 calls from a shell loop, ROUNDS times, with a control file of its own: the stand-in
# serves one call at a time host-wide (a lock beside the control file), and sharing the agent's
# would make both wait on each other
: >"$tmp/loop-control"
loop_ms=$(
  for _ in $(seq "$rounds"); do
    start_ns=$(date +%s%N)
    for d in 0 1 2 3 4 5 6 7; do
      for o in -link -speed -link_stat -stat -optical -lldp -net_health -ip; do
        LINKWATCH_SIM_CONTROL=$tmp/loop-control LINKWATCH_SIM_PROFILE=native/profiles/8x910b-hccs.profile \
          "$tool" -i "$d" "$o" -g >/dev/null
      done
    done
    echo $(( ($(date +%s%N) - start_ns) / 1000 ))
  done | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR + 1) / 2)] / 1000}'
)

kill "${pids[-1]}" 2>/dev/null || true

# the default: what DCMI gives is not asked of the tool
url_d=$(start npu8dcmi sim native/profiles/8x910b-hccs.profile "$hccn")
await "$url_d" 'linkwatch_passive_read_success{device="7",source="hccn_tool"} 1'
dcmi_ms=$(median_round_ms "$url_d" hccn_tool)
kill "${pids[-1]}" 2>/dev/null || true

# A3: 2 dies
url_a3=$(start a3 sim "" "$hccn")
await "$url_a3" 'linkwatch_passive_read_success{device="1",source="hccn_tool"} 1'
a3_series=$(nic_series "$url_a3")

# InfiniBand: 8 adapters on the 8 x H200
ib=$tmp/sys/class/infiniband
for i in 0 1 2 3 4 5 6 7; do
  p=$ib/mlx5_$i/ports/1
  mkdir -p "$p/counters"
  echo InfiniBand >"$p/link_layer"; echo "4: ACTIVE" >"$p/state"; echo "5: LinkUp" >"$p/phys_state"
  echo "400 Gb/sec (4X NDR)" >"$p/rate"
  for c in port_xmit_data port_rcv_data link_downed symbol_error port_rcv_errors link_error_recovery \
    local_link_integrity_errors excessive_buffer_overrun_errors port_xmit_discards port_rcv_remote_physical_errors; do
    echo 0 >"$p/counters/$c"
  done
done
url_ib=$(start h200 sim-cuda "" "paths:
  sysfs: $tmp/sys")
await "$url_ib" 'linkwatch_nic_ports_at_expected_speed{source="infiniband"} 8'
ib_ms=$(median_round_ms "$url_ib" infiniband)
ib_series=$(nic_series "$url_ib")

echo "rounds: $rounds (median)"
echo "hccn_tool, 8 NPU ports (64 calls): agent round ${agent_ms} ms, shell loop of the same calls ${loop_ms} ms, agent/loop $(awk -v a="$agent_ms" -v b="$loop_ms" 'BEGIN {printf "%.2f", a / b}')"
echo "hccn_tool with DCMI's counters, health and address (40 calls): agent round ${dcmi_ms} ms, $(awk -v a="$dcmi_ms" -v b="$agent_ms" 'BEGIN {printf "%.2f", a / b}') of the tool-only round"
echo "infiniband, 8 adapter ports (sysfs): agent round ${ib_ms} ms"
echo "linkwatch_nic_* series: A3 (2 dies) $a3_series, 8 x 910B $npu8_series, 8 x H200 + 8 adapters $ib_series"
