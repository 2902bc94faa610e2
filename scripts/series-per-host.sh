#!/usr/bin/env bash
# Counts what one host costs a Prometheus with the shipped probe set: series on /metrics, bytes
# per scrape (plain and gzip), and the series of each family. Runs the agent on the sim with
# systemd/linkwatch.yaml (the packaged config: same probes, sizes, quantiles and targets) changed
# only in what does not change the series: backend sim, a loopback port, few iterations, and a
# run-time budget that lets the first runs of all probes follow each other. The schedules stay:
# every probe runs once right after start, in turn (a probe waits for the device lane up to its
# interval less its deadline), so every series exists within a few minutes.
# Usage: scripts/series-per-host.sh [SIM_PROFILE]   (default: the sim's A3, two dies)
#   e.g. scripts/series-per-host.sh native/profiles/8x910b-hccs.profile
#        BACKEND=sim-cuda scripts/series-per-host.sh   (the sim's 8 x H200, 18 NVLinks each)
#        EDIT='s/link_counters: per_link/link_counters: per_device/' scripts/series-per-host.sh
#          (a knob of docs/performance.md, "Series budget": EDIT is one more sed expression on the
#          packaged config)
# Env: JAR (default agent/target/linkwatch.jar, built if missing), BACKEND (sim or sim-cuda), EDIT,
#      SAVE (a path: the last exposition is kept there, e.g. for scripts/store-bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=${JAR:-agent/target/linkwatch.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT

sed -e 's/^listen: .*/listen: 127.0.0.1:0/' -e "s/^backend: .*/backend: ${BACKEND:-sim}/" \
    -e 's/^budget: .*/budget: 0.9/' \
    -e 's/^\(    warmup: \).*/\11/' -e 's/^\(    iterations: \).*/\12/' \
    -e 's/^\(  command: \).*/\1[false]/' ${EDIT:+-e "$EDIT"} \
    systemd/linkwatch.yaml >"$tmp/linkwatch.yaml"
if [ -n "${EDIT:-}" ] && cmp -s <(sed -e "$EDIT" systemd/linkwatch.yaml) systemd/linkwatch.yaml; then
  echo "EDIT changed nothing in systemd/linkwatch.yaml: $EDIT" >&2; exit 2
fi
${1:+export LINKWATCH_SIM_PROFILE=$(realpath "$1")}
java -jar "$jar" run --config "$tmp/linkwatch.yaml" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 60); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$tmp/out" | head -1 || true)
  [ -n "$url" ] && break
  sleep 1
done
[ -n "$url" ] || { cat "$tmp/out"; exit 1; }

# Every enabled probe has succeeded once on every target it knows: then every series exists.
enabled=$(awk '/^probes:/{p=1} p&&/^  [a-z0-9_]+:/{k=$1} p&&/enabled: true/{sub(":","",k); print k}' "$tmp/linkwatch.yaml" | sort -u)
for _ in $(seq 180); do
  curl -fsS "$url" >"$tmp/metrics"
  missing=""
  for probe in $enabled; do
    grep -q "^linkwatch_probe_last_success_timestamp_seconds{probe=\"$probe\"" "$tmp/metrics" || missing+=" $probe"
  done
  [ -z "$missing" ] && break
  sleep 5
done
[ -z "$missing" ] || { echo "probes without a success after 15 minutes:$missing" >&2; exit 1; }
sleep 5
curl -fsS "$url" >"$tmp/metrics"
curl -fsS -H 'Accept-Encoding: gzip' --output "$tmp/metrics.gz" "$url"

[ -z "${SAVE:-}" ] || cp "$tmp/metrics" "$SAVE"
series=$(grep -vc '^#' "$tmp/metrics")
echo "backend: ${BACKEND:-sim}; profile: ${1:-built-in default of the face (sim: A3, two dies; sim-cuda: 8 x H200)}"
echo "devices: $(grep -c '^linkwatch_device_info{' "$tmp/metrics"); p2p pairs: $(grep -c '^linkwatch_link_info{' "$tmp/metrics")"
echo "series: $series (linkwatch_*: $(grep -c '^linkwatch_' "$tmp/metrics"); passive, link_ pcie_ passive_: $(grep -cE '^linkwatch_(link_(up|lanes|transmit|receive|errors)|pcie_|passive_)' "$tmp/metrics"))"
echo "bytes per scrape: $(wc -c <"$tmp/metrics") plain, $(wc -c <"$tmp/metrics.gz") gzip"
echo "series per family:"
grep -v '^#' "$tmp/metrics" | sed -E 's/[{ ].*//; s/_(bucket|count|sum|created)$//' | sort | uniq -c | sort -rn | awk '{printf "  %5d %s\n", $1, $2}'
