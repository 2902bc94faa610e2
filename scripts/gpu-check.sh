#!/usr/bin/env bash
# linkwatch's one-shot probes on an NVIDIA host, printed next to NVIDIA's published H200 figures
# for context. Builds nothing: it runs the jar's probes on the cuda backend (the driver's
# libcuda.so.1 and NVML; NCCL where installed), once each, with --json, and summarises them.
# On one GPU, host_transfer runs per NUMA node, device_memory and topology per device, and the
# pair and collective probes report "not applicable"; on more, they measure too.
# A probe that fails is shown with its first error line; the script's status is 1 then, 2 when
# the jar or java is missing, 0 when every probe ran (or was not applicable).
# Usage: scripts/gpu-check.sh [JAR (agent/target/linkwatch.jar)]
#   BACKEND=sim-cuda scripts/gpu-check.sh   runs the same on the simulator (no GPU needed)
# The packages install it as /usr/share/linkwatch/gpu-check.sh, beside the jar it then uses.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/linkwatch.jar" ]; then
  default_jar=$here/linkwatch.jar
else
  cd "$here/.."
  default_jar=agent/target/linkwatch.jar
fi
jar=${1:-$default_jar}
backend=${BACKEND:-cuda}
command -v java >/dev/null || { echo "gpu-check: java missing" >&2; exit 2; }
command -v python3 >/dev/null || { echo "gpu-check: python3 missing" >&2; exit 2; }
[ -f "$jar" ] || { echo "gpu-check: $jar missing (build it with mvn package)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

probe() { # NAME ARGS...: one probe's JSON, stderr and exit status under $out
  local name=$1
  shift
  echo "gpu-check: probe $name ..." >&2
  java -jar "$jar" probe "$@" --backend "$backend" --json >"$out/$name.json" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}

probe topology topology
probe device_memory device-memory --size 1GiB --iterations 20
probe host_transfer host-transfer --sizes 256MiB --iterations 20
probe p2p p2p --sizes 256MiB
probe p2p_bidirectional p2p-bidirectional --sizes 256MiB
probe allreduce allreduce

python3 - "$out" "$backend" <<'PY'
import json, os, sys

out, backend = sys.argv[1], sys.argv[2]
# NVIDIA's H200 figures (product brief / datasheet), for context, not as pass marks: an H200 SXM
# has 4.8 TB/s of HBM3e, NVLink 4 at 900 GB/s (both directions, all links), PCIe Gen5 x16 at
# 128 GB/s (both directions, 64 each way before protocol overhead).
PUBLISHED = {
    "device_memory": (2.4e12, "HBM3e 4.8 TB/s counts reads and writes; a copy moves each byte"
                      " twice, so 2.4 TB/s copied is the ceiling"),
    "h2d": (64e9, "PCIe Gen5 x16, one direction, before protocol overhead (~55 typical)"),
    "d2h": (64e9, "PCIe Gen5 x16, one direction, before protocol overhead (~55 typical)"),
    "p2p": (450e9, "NVLink 4: 900 GB/s both directions, 450 one way"),
    "p2p_bidirectional": (900e9, "NVLink 4, both directions"),
}
rows, failures = [], 0

def load(name):
    rc = int(open(os.path.join(out, name + ".rc")).read().strip() or 1)
    try:
        run = json.load(open(os.path.join(out, name + ".json")))
    except (OSError, ValueError):
        run = None
    err = open(os.path.join(out, name + ".err")).read().strip().splitlines()
    return rc, run, err

def gbps(v):
    return "%.1f GB/s" % (v / 1e9)

for name in ["topology", "device_memory", "host_transfer", "p2p", "p2p_bidirectional", "allreduce"]:
    rc, run, err = load(name)
    if run is None:
        failures += 1
        rows.append((name, "-", "failed: " + (err[-1] if err else "exit %d" % rc), "", ""))
        continue
    if run.get("skipped_because"):
        rows.append((name, "-", "not applicable: " + run["skipped_because"], "", ""))
        continue
    for t in run["targets"]:
        if t["result"] != "success":
            failures += t["result"] == "error"
            rows.append((name, t["target"], t["result"] + ": " + t["error"], "", ""))
            continue
        for m in t["measurements"]:
            kind = m["type"]
            if kind == "DeviceInfo":
                rows.append((name, t["target"], "%s, %.0f GiB, NUMA node %s, CPUs %s" % (
                    m["name"], m["memory_total_bytes"] / 2**30, "?" if m["numa_node"] is None else m["numa_node"],
                    m["cpu_affinity"] or "?"), "", ""))
            elif kind == "LinkInfo":
                rows.append((name, "%d->%d" % (m["src"], m["dst"]), m["link"], "", ""))
            elif kind == "DeviceMemoryBandwidth":
                ref, note = PUBLISHED["device_memory"]
                rows.append((name, t["target"], gbps(m["bytes_per_second"]), gbps(ref), note))
            elif kind == "HostTransferBandwidth":
                ref, note = PUBLISHED[m["direction"]]
                what = "%s %s node %s (pages on %s)" % (
                    m["direction"], m["memory"], m["cpu_node"], m["mem_node"])
                rows.append((name, t["target"] + " " + what, gbps(m["bytes_per_second"]),
                             gbps(ref) if m["memory"] == "pinned" else "", note
                             if m["memory"] == "pinned" else "pageable: no published figure"))
            elif kind in ("P2pBandwidth", "P2pBidirectionalBandwidth"):
                ref, note = PUBLISHED[name]
                rows.append((name, t["target"] + " " + m["link"], gbps(m["bytes_per_second"]),
                             gbps(ref) if m["link"] == "NVLINK" else "", note))
            elif kind == "AllreduceLatency":
                rows.append((name, "%s %dB" % (t["target"], m["size_bytes"]),
                             "p50 %.1f us" % (m["p50_seconds"] * 1e6), "", ""))
            elif kind == "AllreduceBusBandwidth":
                rows.append((name, "%s %dB" % (t["target"], m["size_bytes"]),
                             "busbw " + gbps(m["bus_bytes_per_second"]), "", ""))

print("linkwatch on backend %s, next to NVIDIA's published H200 figures" % backend)
widths = [max(len(str(r[i])) for r in rows + [("probe", "target", "linkwatch", "published", "note")])
          for i in range(5)]
for r in [("probe", "target", "linkwatch", "published", "note")] + rows:
    print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
sys.exit(1 if failures else 0)
PY
