#!/usr/bin/env bash
# The passive watcher's resident memory after ROUNDS read rounds of the 8 x 910B sim (links and
# NPU ports), driven as the agent drives it (one request line per round on stdin), with the JVM
# options the agent gives it now and with those it gave before its heap was set (the workers'
# options alone): the same rounds, in one run. At the default 15 s interval, 5,760 rounds are a
# day.
# Usage: scripts/watcher-rss.sh [ROUNDS (3000)]   Needs agent/target/linkwatch.jar (mvn package).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3000}
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "watcher-rss: $jar missing; run mvn package first" >&2; exit 2; }
# JavaCommand.childJvmOptions, the shipped worker.java_options, and WatcherProcess.HEAP
child="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:-UsePerfData -XX:+UseSerialGC"
worker="-Xmx256m"
heap="-Xms8m -Xmn2m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rss OPTIONS...: VmRSS in KiB after the rounds
rss() {
  mkfifo "$tmp/in"
  LINKWATCH_SIM_LIBRARY=$PWD/native/build/liblinkwatch-sim.so ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0 \
    LINKWATCH_SIM_CONTROL=$tmp/control LINKWATCH_SIM_PROFILE=$PWD/native/profiles/8x910b-hccs.profile \
    java "$@" -cp "$jar" io.linkwatch.passive.WatcherMain sim <"$tmp/in" >"$tmp/out" 2>/dev/null &
  local pid=$!
  exec 3>"$tmp/in"
  # one round at a time, as the agent asks: the next request once the answer is in
  for i in $(seq "$rounds"); do
    echo '{"skip":[],"npuPorts":true}' >&3
    while [ "$(wc -l <"$tmp/out")" -le "$i" ]; do sleep 0.001; done
  done
  awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"
  exec 3>&-
  wait "$pid" 2>/dev/null || true
  rm -f "$tmp/in" "$tmp/out"
}

# shellcheck disable=SC2086
before=$(rss $child $worker)
# shellcheck disable=SC2086
now=$(rss $child $heap $worker)
awk -v r="$rounds" -v b="$before" -v n="$now" 'BEGIN {
  printf "watcher RSS after %d rounds: %.1f MiB with its heap options, %.1f MiB without (now/before %.2f)\n",
    r, n / 1024, b / 1024, n / b }'
