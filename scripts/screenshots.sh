#!/usr/bin/env bash
# Writes screenshots of the agent's status page (/) on both faces of the sim into docs/:
# docs/status-page-a3.png (Atlas 800T A3, 2 dies, examples/sim.yaml) and
# docs/status-page-8gpu.png (8 x H200, examples/sim-cuda.yaml). Each agent runs until every probe
# has a result and a p2p chart has three points (the history steps every second here instead of
# every 5 minutes, so its window is under 5 minutes and a few runs make a line), then headless Chromium loads the page from it,
# lets its script draw the charts, and the agent is stopped.
# Needs the built jar (mvn -q package -DskipTests) and chromium (scripts/deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "screenshots.sh: build $jar first (mvn -q package -DskipTests)" >&2; exit 2; }
command -v chromium >/dev/null || { echo "screenshots.sh: chromium is missing (scripts/deps.sh --test)" >&2; exit 2; }
mkdir -p docs
work=$(mktemp -d)
agent=""
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; rm -rf "$work"' EXIT

shoot() { # backend config port output height
  local backend=$1 config=$2 port=$3 out=$4 height=$5
  { cat "$config"; printf 'web:\n  history_step: 1s\n'; } >"$work/config-$backend.yaml"
  LINKWATCH_SIM_CONTROL="$work/control-$backend" \
    java -jar "$jar" run --backend "$backend" --config "$work/config-$backend.yaml" --listen "127.0.0.1:$port" \
    >"$work/agent-$backend.log" 2>&1 &
  agent=$!
  # Every enabled probe's first figures (the agent starts them at once, one at a time).
  local need=(linkwatch_p2p_bandwidth linkwatch_p2p_bidirectional_bandwidth
    linkwatch_allreduce_latency linkwatch_host_transfer_bandwidth linkwatch_device_memory_bandwidth
    linkwatch_link_info)
  for _ in $(seq 1 240); do
    metrics=$(curl -fsS "http://127.0.0.1:$port/metrics" 2>/dev/null || true)
    missing=0
    for n in "${need[@]}"; do grep -q "^$n" <<<"$metrics" || missing=1; done
    [ $missing = 0 ] && break
    sleep 1
  done
  [ $missing = 0 ] || { echo "screenshots.sh: $backend never showed every probe" >&2; cat "$work/agent-$backend.log" >&2; exit 1; }
  # A p2p series with three points or more in /api/v1/history: "points":[[t,v],[t,v],[t,v]...
  for _ in $(seq 1 240); do
    curl -fsS "http://127.0.0.1:$port/api/v1/history" 2>/dev/null \
      | grep -q '"probe":"p2p"[^}]*"points":\[\[[^]]*\],\[[^]]*\],\[' && break
    sleep 1
  done
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --user-data-dir="$work/profile" \
    --window-size="1280,$height" --virtual-time-budget=5000 --screenshot="$out" \
    "http://127.0.0.1:$port/?refresh=600" >"$work/chromium.log" 2>&1
  kill "$agent"; wait "$agent" 2>/dev/null || true; agent=""
  echo "wrote $out"
}

shoot sim examples/sim.yaml 10291 docs/status-page-a3.png 1500
shoot sim-cuda examples/sim-cuda.yaml 10292 docs/status-page-8gpu.png 2600
