#!/usr/bin/env bash
# What the default schedule takes from each device: the agent as the service starts it (packaged
# launcher, systemd/linkwatch.default's JVM options, the shipped systemd/linkwatch.yaml) on the
# sim, until every probe has a result; then, per device, the seconds one run of each probe held it
# (linkwatch_probe_duration_seconds of every target naming the device) times the probe's runs per
# hour (3600 / linkwatch_probe_interval_seconds): device-seconds per hour, and as a share of the
# hour. The agent's own counter, linkwatch_probe_device_seconds_total, is printed beside it (what
# the first runs took). On an A3 (the sim's default, 2 dies) and on 8 x 910B.
# The sim's copies take the modeled time of its profile, so the figures are the schedule's shape
# on such a host, not a hardware measurement.
# Needs agent/target/linkwatch.jar (mvn package). Usage: scripts/probe-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
port=10197
jar=agent/target/linkwatch.jar
[ -f "$jar" ] || { echo "probe-cost: $jar missing; run mvn package first" >&2; exit 2; }
LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
export LINKWATCH_JAVA_OPTS LINKWATCH_JAR=$jar
dir=$(mktemp -d)
export LINKWATCH_CDS_DIR=$dir/cds
agent=""
trap '[ -n "$agent" ] && kill "$agent" 2>/dev/null; rm -rf "$dir"' EXIT

# cost NAME [PROFILE]
cost() {
  env ${2:+LINKWATCH_SIM_PROFILE=$PWD/$2} LINKWATCH_SIM_CONTROL="$dir/control" \
    packaging/src/bin/linkwatch run --backend sim --config systemd/linkwatch.yaml \
    --listen 127.0.0.1:$port >"$dir/$1.log" 2>&1 &
  agent=$!
  # every probe's first run, or 3 minutes (a probe that does not apply here never runs)
  for _ in $(seq 360); do
    if curl -fs "http://127.0.0.1:$port/metrics" >"$dir/m" 2>/dev/null && python3 - "$dir/m" <<'PY'
import re, sys
m = open(sys.argv[1]).read()
every = set(re.findall(r'^linkwatch_probe_interval_seconds\{probe="([^"]+)"', m, re.M))
done = set(re.findall(r'^linkwatch_probe_runs_total\{probe="([^"]+)"', m, re.M))
sys.exit(0 if every and every <= done else 1)
PY
    then break; fi
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$port/metrics" >"$dir/m"
  kill "$agent"; wait "$agent" 2>/dev/null || true; agent=""
  python3 - "$dir/m" "$1" <<'PY'
import re, sys
m = open(sys.argv[1]).read()
interval = {p: float(v) for p, v in re.findall(r'^linkwatch_probe_interval_seconds\{probe="([^"]+)"\} (\S+)', m, re.M)}
per_hour = {}
asked = 0.0
for probe, target, v in re.findall(r'^linkwatch_probe_duration_seconds\{probe="([^"]+)",target="([^"]+)"\} (\S+)', m, re.M):
    asked += float(v) * 3600 / interval[probe]
    parts = re.split(r"<->|->|,", target)
    devs = [re.fullmatch(r"(?:dev)?(\d+)(?:/node\d+)?", p) for p in parts]
    if not all(devs):
        continue  # a target naming no device (the topology's) takes none
    for d in devs:
        per_hour[int(d.group(1))] = per_hour.get(int(d.group(1)), 0) + float(v) * 3600 / interval[probe]
budget = re.search(r'^budget: (\S+)', open("systemd/linkwatch.yaml").read(), re.M)
print(f"{sys.argv[2]}: the schedule asks for {asked:.0f} s of probe runs an hour; the budget"
      f" ({budget.group(1) if budget else '?'} of the hour: {float(budget.group(1)) * 3600 if budget else 0:.0f} s)"
      " refuses runs past it (skipped_budget)")
counted = {int(d): float(v) for d, v in re.findall(r'^linkwatch_probe_device_seconds_total\{device="(\d+)"\} (\S+)', m, re.M)}
for d in sorted(per_hour):
    print(f"{sys.argv[2]} device {d}: {per_hour[d]:.1f} device-s per hour ({per_hour[d] / 36:.2f} % of it);"
          f" first runs took {counted.get(d, 0):.1f} s")
PY
}

cost "A3 (2 dies)"
cost "8 x 910B" native/profiles/8x910b-hccs.profile
