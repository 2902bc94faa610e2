#!/usr/bin/env bash
# What a day of linkwatch hosts costs VictoriaMetrics' disk (docs/performance.md, "Series
# budget"): bytes per sample, measured on the store itself. One host's real exposition (from
# scripts/series-per-host.sh with SAVE=...) becomes HOSTS hosts scraped every 30 s for HOURS
# hours, with the agent's own rhythm: probe figures and their timestamps change once a probe
# interval (5 minutes by default) with the run-to-run noise of a real link (0.5 %), the link
# traffic counters grow every scrape, error counters now and then, everything else stays put.
# The samples are imported into a store of their own, merged as the store merges old data, and
# its own figures (vm_data_size_bytes, vm_rows) give bytes per sample.
# Usage: scripts/store-bench.sh EXPOSITION [HOSTS] [HOURS]   (defaults 4 hosts, 24 hours)
#   e.g. SAVE=/tmp/h200.prom BACKEND=sim-cuda scripts/series-per-host.sh
#        scripts/store-bench.sh /tmp/h200.prom 4 24
# Needs victoria-metrics (Debian: victoria-metrics), curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
exposition=${1:?usage: scripts/store-bench.sh EXPOSITION [HOSTS] [HOURS]}
hosts=${2:-4}
hours=${3:-24}
command -v victoria-metrics >/dev/null || { echo "victoria-metrics not found (apt-get install victoria-metrics)" >&2; exit 2; }
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
victoria-metrics -storageDataPath="$tmp/data" -httpListenAddr=127.0.0.1:"$port" -retentionPeriod=1y \
  -loggerLevel=ERROR >"$tmp/store.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.2; done

python3 - "$exposition" "$hosts" "$hours" "http://127.0.0.1:$port" <<'PY'
import random, re, sys, time, urllib.request
path, hosts, hours, url = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
SCRAPE, PROBE = 30, 300
types, series = {}, []
for line in open(path, encoding="utf-8"):
    if line.startswith("# TYPE "):
        _, _, name, kind = line.split()
        types[name] = kind
    elif line.strip() and not line.startswith("#"):
        key, value = line.rsplit(" ", 1)
        series.append((key, float(value)))

def family(key):
    name = re.match(r"[^{ ]+", key).group(0)
    for suffix in ("_total", "_created", "_bucket", "_count", "_sum", "_info"):
        if name.endswith(suffix) and name[: -len(suffix)] in types:
            return name[: -len(suffix)], name
    return name, name

def behaviour(key):
    fam, name = family(key)
    kind = types.get(fam, "gauge")
    if name.endswith("_created"):
        return "constant"
    if "transmit_bytes" in name or "receive_bytes" in name or name.startswith("linkwatch_nic_") and kind == "counter":
        return "traffic"
    if kind in ("counter", "summary", "histogram"):
        return "events"
    if name.endswith("_timestamp_seconds"):
        return "timestamp"
    if re.search(r"bandwidth|latency|duration|ratio|seconds$", name):
        return "figure"
    return "constant"

kinds = [behaviour(k) for k, _ in series]
start = int(time.time()) // 3600 * 3600 - int(hours * 3600) - 3600
steps = int(hours * 3600 / SCRAPE)
rng = random.Random(1)
total = 0
for h in range(hosts):
    inst = f'instance="bench-{h:05d}:10187",job="linkwatch"'
    keys = [k.replace("{", "{" + inst + ",", 1) if "{" in k else k + "{" + inst + "}" for k, _ in series]
    values = [v for _, v in series]
    rates = [rng.uniform(1e6, 5e9) if kind == "traffic" else 0 for kind in kinds]
    batch = []
    for i in range(steps):
        t = start + i * SCRAPE
        new_run = t % PROBE == 0
        for j, kind in enumerate(kinds):
            if kind == "traffic":
                values[j] += rates[j] * SCRAPE * rng.uniform(0.8, 1.2)
            elif kind == "events" and rng.random() < 0.01:
                values[j] += 1
            elif kind == "figure" and new_run:
                values[j] = series[j][1] * rng.gauss(1, 0.005)
            elif kind == "timestamp" and new_run:
                values[j] = t
            batch.append(f"{keys[j]} {values[j]:.6g} {t * 1000}\n")
        if len(batch) > 500_000 or i == steps - 1:
            urllib.request.urlopen(urllib.request.Request(
                url + "/api/v1/import/prometheus", data="".join(batch).encode(), method="POST"), timeout=300).read()
            total += len(batch)
            batch = []
print(f"imported {total:,} samples: {hosts} hosts x {len(series):,} series x {steps:,} scrapes ({hours:g} h at {SCRAPE} s)")
counts = {k: kinds.count(k) for k in sorted(set(kinds))}
print("series by behaviour: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
PY

curl -fsS "http://127.0.0.1:$port/internal/force_flush" >/dev/null
# Merge every partition as the store does with data that has settled (it merges in the background).
for p in $(ls "$tmp/data/data/small" 2>/dev/null; ls "$tmp/data/data/big" 2>/dev/null); do
  curl -fsS "http://127.0.0.1:$port/internal/force_merge?partition_prefix=$p" >/dev/null || true
done
sleep 5
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/vm.metrics"
python3 - "$tmp/vm.metrics" <<'PY'
import re, sys
size = rows = index = 0
for line in open(sys.argv[1]):
    m = re.match(r'vm_data_size_bytes\{type="([^"]+)"\} (\S+)', line)
    if m:
        if m.group(1).startswith("storage/"):
            size += float(m.group(2))
        else:
            index += float(m.group(2))
    m = re.match(r'vm_rows\{type="storage/[^"]+"\} (\S+)', line)
    if m:
        rows += float(m.group(1))
print(f"store: {rows:,.0f} samples in {size / 1e6:,.1f} MB of data parts ({size / rows:.3f} bytes per sample),"
      f" {index / 1e6:,.1f} MB of index")
PY
