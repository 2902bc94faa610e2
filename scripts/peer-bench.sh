#!/usr/bin/env bash
# What the probes between servers cost one host, for fleets of 16, 256 and 4,096 members: series
# on /metrics, bytes on the wire per probe, probes and bytes an hour at the default budget, and
# the agent's CPU per round beside the same agent without peers.
#
# One real agent (the jar, on the sim with every device probe off) is member 0 of N members on
# loopback addresses 127.1.x.y; the other N-1 members are answered by scripts/peer-responders.py,
# which speaks the echo protocol (docs/peers.md) from one process, because this machine cannot run
# 4,095 agents. Bytes are counted by nft on the agents' port (IP headers included). Rounds are shortened to 3 s (the
# budget raised to match) so a run takes a minute; per-probe figures do not depend on the round.
# Needs root (nft) and python3.
# Usage: scripts/peer-bench.sh [ROUNDS]   (default 20; N runs over 16 256 4096, or MEMBERS="16 64")
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${JAR:-agent/target/linkwatch.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
rounds=${1:-20}
round=3
port=10187
self=127.1.0.1
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  nft delete table inet lwbench 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

member() { # index -> address
  echo "127.1.$(($1 / 250)).$(($1 % 250 + 1))"
}

nft_bytes() { # every byte the counters of the bench's table have seen
  nft list table inet lwbench | grep -o 'bytes [0-9]*' | awk '{s += $2} END {print s + 0}'
}

cpu_ticks() { # utime + stime of a pid, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}

start_agent() { # config -> pid; waits for /metrics
  java -jar "$jar" run --config "$1" >"$1.out" 2>&1 &
  local pid=$!
  for _ in $(seq 60); do
    grep -q 'serving http' "$1.out" && { echo "$pid"; return; }
    sleep 1
  done
  cat "$1.out" >&2
  exit 1
}

base_config() {
  cat <<EOF
backend: sim
listen: $self:$port
coordination: {lock_file: $tmp/probes.lock}
passive: {enabled: false}
probes:
  p2p: {enabled: false}
  p2p_bidirectional: {enabled: false}
  allreduce: {enabled: false}
  allgather: {enabled: false}
  host_transfer: {enabled: false}
  device_memory: {enabled: false}
  topology: {enabled: false}
EOF
}

# The baseline: the same agent, no peers, for as long as a measured run.
base_config >"$tmp/idle.yaml"
pid=$(start_agent "$tmp/idle.yaml"); pids+=("$pid")
sleep 5
t0=$(cpu_ticks "$pid")
sleep $((rounds * round))
idle_ticks=$(($(cpu_ticks "$pid") - t0))
kill "$pid"; wait "$pid" 2>/dev/null || true

hz=$(getconf CLK_TCK)
printf '%-8s %-8s %-10s %-12s %-14s %-14s %-16s %-14s\n' members series peer_series bytes/probe \
  probes/h@240 bytes/h@240 cpu_ms/round cover@240
for n in ${MEMBERS:-16 256 4096}; do
  {
    base_config
    echo "peers:"
    echo "  self: \"$self:$port\""
    echo "  round: ${round}s"
    # 3 s rounds: planned meetings = budget / 4 must reach 1200 an hour.
    echo "  budget_per_hour: 4800"
    echo "  static:"
    for i in $(seq 0 $((n - 1))); do echo "    - {host: \"$(member "$i"):$port\"}"; done
  } >"$tmp/peers.yaml"
  for i in $(seq 1 $((n - 1))); do member "$i"; done >"$tmp/responders"
  python3 scripts/peer-responders.py "$port" <"$tmp/responders" &
  pids+=("$!")
  nft -f - <<EOF
table inet lwbench {
  chain out {
    type filter hook output priority 0;
    udp dport $port counter
    udp sport $port counter
    tcp dport $port counter
    tcp sport $port counter
  }
}
EOF
  pid=$(start_agent "$tmp/peers.yaml"); pids+=("$pid")
  sleep 5
  sent0=$(curl -s "http://$self:$port/metrics" | awk '/^linkwatch_peer_probes_total\{kind="sent"\}/ {print $2}')
  t0=$(cpu_ticks "$pid")
  bytes0=$(nft_bytes)
  sleep $((rounds * round))
  ticks=$(($(cpu_ticks "$pid") - t0))
  # Before the scrape below: only the probes' packets use the port in the window (the probes go
  # from the route's source address, 127.0.0.1 here, so the count is by port).
  bytes=$(($(nft_bytes) - bytes0))
  metrics=$(curl -s "http://$self:$port/metrics")
  sent1=$(awk '/^linkwatch_peer_probes_total\{kind="sent"\}/ {print $2}' <<<"$metrics")
  second=$(awk '/^linkwatch_peer_probes_total\{kind="second_pass"\}/ {print $2}' <<<"$metrics")
  series=$(grep -vc '^#' <<<"$metrics")
  peer_series=$(grep -v '^#' <<<"$metrics" | grep -c '^linkwatch_peer_' || true)
  probes=$(awk -v a="$sent0" -v b="$sent1" -v c="$second" 'BEGIN {print b - a + c}')
  kill "$pid"; wait "$pid" 2>/dev/null || true
  kill "${pids[-2]}" 2>/dev/null || true
  nft delete table inet lwbench
  # The default budget (240) plans 60 meetings an hour: each is one probe sent and one answered.
  awk -v n="$n" -v s="$series" -v ps="$peer_series" -v by="$bytes" -v p="$probes" \
      -v t="$ticks" -v it="$idle_ticks" -v hz="$hz" -v r="$rounds" '
    BEGIN {
      bpp = by / p
      cover = (n - 1) * (n % 2 == 0 ? 60 : 120)
      printf "%-8d %-8d %-10d %-12.0f %-14d %-14.0f %-16.1f %-14s\n", n, s, ps, bpp, 120,
        bpp * 60, (t - it) * 1000 / hz / r,
        (cover >= 3600 ? sprintf("%.1f h", cover / 3600) : sprintf("%d min", cover / 60))
    }'
done
echo "probes/h@240: 60 meetings an hour, each one probe sent and one answered; second passes"
echo "(after failures only) may add as many again. bytes/h@240 counts the 60 probes this host"
echo "sends (request, reply and the TCP connect of each); its 60 answers move as much again."
