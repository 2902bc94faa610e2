#!/usr/bin/env bash
# A healthy soak: the agent on the sim (examples/sim.yaml: every probe) under a real Prometheus
# that evaluates the shipped rules with their windows shortened by live-config.py (baselines over
# 2 minutes, `for` 10s), for MINUTES (default 10). Every 5 s it lists the pending or firing
# alerts; any alert after the first minute (Prometheus' own start) fails the soak.
# Needs: agent/target/linkwatch.jar (mvn package), prometheus, python3, curl.
# Usage: grafana/test/soak.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes=${1:-10}
dir=$(mktemp -d)
trap 'kill $agent $prom 2>/dev/null || true; rm -rf "$dir"' EXIT
agent_port=10189
prom_port=19190
python3 grafana/test/live-config.py grafana/alerts/linkwatch.rules.yml "$dir/rules.yml"
cat > "$dir/prometheus.yml" <<YAML
global: {scrape_interval: 2s, evaluation_interval: 2s}
rule_files: [$dir/rules.yml]
scrape_configs:
  - job_name: linkwatch
    static_configs: [{targets: ['127.0.0.1:$agent_port']}]
YAML
java -jar agent/target/linkwatch.jar run --config examples/sim.yaml --listen 127.0.0.1:$agent_port >"$dir/agent.log" 2>&1 &
agent=$!
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
  --web.listen-address=127.0.0.1:$prom_port --log.level=warn >"$dir/prometheus.log" 2>&1 &
prom=$!
start=$SECONDS
end=$((SECONDS + minutes * 60))
bad=0
while [ $SECONDS -lt $end ]; do
  sleep 5
  alerts=$(curl -s "127.0.0.1:$prom_port/api/v1/alerts" | python3 -c \
    'import json,sys; d=json.load(sys.stdin); print(" ".join(a["labels"]["alertname"]+"/"+a["state"] for a in d["data"]["alerts"]))' 2>/dev/null || echo "")
  if [ -n "$alerts" ] && [ $((SECONDS - start)) -gt 60 ]; then
    echo "t=$((SECONDS - start))s alerts: $alerts"
    bad=$((bad + 1))
  fi
done
runs=$(curl -s "127.0.0.1:$agent_port/metrics" | grep '^linkwatch_probe_runs_total' || true)
echo "$runs"
echo "soak of ${minutes}m: $bad samples with alerts"
[ "$bad" -eq 0 ]
