#!/usr/bin/env bash
# A long soak of the packaged agent on the sim, for hours, with its memory curve (not in CI).
#
# The agent runs as the service runs it (the /usr/bin/linkwatch launcher from packaging/, the JVM
# options and MALLOC_ARENA_MAX of systemd/linkwatch.default, class archives of its own) on the
# shipped config (systemd/linkwatch.yaml) with a faster cadence: every probe every 30 s, passive
# reads every 5 s (DCMI, and the NPU ports through the sim's hccn_tool), the budget lifted so
# the schedule is not cut, and scrapes of /metrics every second. At that cadence an hour holds
# about as many probe runs, passive reads and scrapes as a day on the default schedule (printed
# at the end from the agent's own counters). The copies are 16 MiB instead of 256 MiB: the runs
# and their code paths are the same, the sim's memcpy of the bytes is not what is soaked.
# Faults from the sim's control file come and go on a cycle: 60 s on, 120 s off, one after the
# other (failing, hanging and crashing calls, a busy device, a slow link, a link with CRC errors
# and fewer lanes, an NPU port down).
#
# Every SAMPLE_SECONDS it records, at a moment when no probe worker runs (a run holds pipes and
# threads for its time): the agent's and the watcher's RSS and CPU, the agent's fds and threads,
# worker processes, and the agent's probe runs and scrapes so far. At the end it writes
# soak.csv and soak.png (gnuplot) into OUT, prints the RSS slope after the first 30 minutes (least
# squares, MiB per hour) and each other series' quietest value early and late, and exits 1 if the
# agent died, an RSS slope is 1 MiB/h or more, or fds, threads or workers grew.
#
# Needs: agent/target/linkwatch.jar and native/build (mvn package), curl, python3, gnuplot-nox.
# Usage: scripts/soak.sh HOURS [SAMPLE_SECONDS (60)]
#   HOURS may be a fraction (0.1 for a try of the script); the verdict needs more than 30 minutes.
#   OUT=dir keeps soak.csv, soak.png, summary.txt, agent.log there (default: a temporary directory);
#   LINKWATCH_SIM_PROFILE=file picks the sim's face (default: the 8 x 910B);
#   PORT=n listens elsewhere than 10193.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
  echo "usage: scripts/soak.sh HOURS [SAMPLE_SECONDS]" >&2
  exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
hours=$1
sample=${2:-60}
[[ $hours =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage
[[ $sample =~ ^[0-9]+$ ]] && [ "$sample" -ge 5 ] || { echo "soak: SAMPLE_SECONDS: a whole number >= 5" >&2; exit 2; }
seconds=$(python3 -c "print(round($hours * 3600))")
port=${PORT:-10193}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
[ -f agent/target/linkwatch.jar ] || { echo "soak: agent/target/linkwatch.jar missing; run mvn package first" >&2; exit 2; }
[ -x native/build/hccn_tool ] || { echo "soak: native/build/hccn_tool missing; run mvn package first" >&2; exit 2; }
# Copies, so that a build during the hours of the soak does not change what runs.
mkdir -p "$out/build"
cp agent/target/linkwatch.jar "$out/build/"
cp native/build/hccn_tool native/build/liblinkwatch-sim.so "$out/build/"
jar=$out/build/linkwatch.jar
tool=$out/build/hccn_tool
for t in curl python3 gnuplot; do
  command -v "$t" >/dev/null || { echo "soak: $t missing (apt-get install curl python3 gnuplot-nox)" >&2; exit 2; }
done

export LINKWATCH_JAR=$jar LINKWATCH_CDS_DIR=$out/cds
export LINKWATCH_SIM_PROFILE=${LINKWATCH_SIM_PROFILE:-$PWD/native/profiles/8x910b-hccs.profile}
export LINKWATCH_SIM_CONTROL=$out/sim-control
LINKWATCH_JAVA_OPTS=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
MALLOC_ARENA_MAX=$(sed -n 's/^MALLOC_ARENA_MAX=//p' systemd/linkwatch.default)
export LINKWATCH_JAVA_OPTS MALLOC_ARENA_MAX

# The shipped config with the soak's cadence; every other key stays as shipped.
python3 - systemd/linkwatch.yaml "$out/soak.yaml" "$out/probes.lock" "$tool" <<'PY'
import re, sys
src, dst, lock, tool = sys.argv[1:]
text = open(src).read()
subs = [
    (r"(?m)^budget: .*$", "budget: 1.0"),
    (r"(?m)^(    every: ).*$", r"\g<1>30s"),
    (r"(?m)^(    deadline: )120s$", r"\g<1>25s"),
    (r"(?m)^(  interval: )15s$", r"\g<1>5s"),
    (r"(?m)^(  deadline: )10s$", r"\g<1>4s"),
    (r"(?m)^(    sizes: )\[256MiB\]$", r"\g<1>[16MiB]"),
    (r"(?m)^(    sizes: )\[1KiB, 256MiB\]$", r"\g<1>[1KiB, 16MiB]"),
    (r"(?m)^(    sizes: )\[64MiB\]$", r"\g<1>[16MiB]"),
    (r"(?m)^(    size: )1GiB$", r"\g<1>16MiB"),
    (r"(?m)^(  lock_file: ).*$", r"\g<1>" + lock),
    (r"(?m)^(    command: )/usr/local/Ascend/driver/tools/hccn_tool$", r"\g<1>" + tool),
    (r"(?m)^(    prefer_dcmi: )true$", r"\g<1>false"),
]
for pattern, repl in subs:
    text, n = re.subn(pattern, repl, text)
    if n == 0:
        sys.exit(f"soak: {src} no longer has a line for {pattern}; update scripts/soak.sh")
open(dst, "w").write(text)
PY
packaging/src/bin/linkwatch check-config --config "$out/soak.yaml" >/dev/null

agent=""
feeder=""
cleanup() {
  [ -n "$feeder" ] && kill "$feeder" 2>/dev/null
  [ -n "$agent" ] && kill "$agent" 2>/dev/null
  wait 2>/dev/null || true
  rm -f "$LINKWATCH_SIM_CONTROL"
}
trap cleanup EXIT
packaging/src/bin/linkwatch run --backend sim --config "$out/soak.yaml" \
  --listen 127.0.0.1:$port >"$out/agent.log" 2>&1 &
agent=$!
for _ in $(seq 1 300); do
  curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && break
  sleep 0.1
done

# Scrapes every second, and the fault cycle, beside the sampler.
(
  faults=(
    "fail aclrtMemcpyAsync 507899"
    "hccs 2 3 lanes 2 crc 0.5"
    "hang aclrtSynchronizeStream"
    "link 2 5 scale 0.4"
    "crash aclrtMemcpyAsync"
    "busy 1 pid 4242 util 80 memory 1073741824"
    "nic 4 down"
    "hang HcclAllReduce"
    "fail aclInit 507899"
  )
  i=0
  tick=0
  scrapes=0
  while true; do
    curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$port/metrics" && scrapes=$((scrapes + 1))
    echo "$scrapes" >"$out/scrapes"
    case $((tick % 180)) in
      120) printf '%s\n' "${faults[$((i % ${#faults[@]}))]}" >"$LINKWATCH_SIM_CONTROL.tmp" &&
        mv "$LINKWATCH_SIM_CONTROL.tmp" "$LINKWATCH_SIM_CONTROL" ;;
      0) rm -f "$LINKWATCH_SIM_CONTROL"; [ $tick -gt 0 ] && i=$((i + 1)) ;;
    esac
    tick=$((tick + 1))
    sleep 1
  done
) &
feeder=$!

# The watcher is the agent's child that runs WatcherMain; the other children are probe workers.
watcher_pid() {
  for c in $(pgrep -P "$agent" || true); do
    if tr '\0' ' ' 2>/dev/null <"/proc/$c/cmdline" | grep -q WatcherMain; then
      echo "$c"
      return
    fi
  done
}
kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat" 2>/dev/null || echo 0; }
counter() { # the sum of a family's samples on /metrics
  curl -fs --max-time 5 "http://127.0.0.1:$port/metrics" |
    awk -v f="$1" 'index($0, f) == 1 && (substr($0, length(f) + 1, 1) == "{" || substr($0, length(f) + 1, 1) == " ") {s += $NF} END {printf "%d", s}'
}

csv=$out/soak.csv
raw=$out/samples.raw # seconds and KiB as sampled; soak.csv has minutes and MiB
echo "seconds,agent_rss_kib,watcher_rss_kib,agent_cpu_s,watcher_cpu_s,fds,threads,workers,watcher_pid,probe_runs,passive_reads,scrapes" >"$raw"
start=$SECONDS
end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ]; do
  if ! kill -0 "$agent" 2>/dev/null; then
    echo "soak: the agent died; see $out/agent.log" >&2
    exit 1
  fi
  quiet_by=$((SECONDS + 15))
  while w=$(watcher_pid) && workers=$(($(pgrep -c -P "$agent" || true) - (${w:-0} > 0))) &&
    [ "$workers" -gt 0 ] && [ $SECONDS -lt $quiet_by ]; do
    sleep 0.05
  done
  fds=$(find "/proc/$agent/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$agent/status")
  watcher_kib=0 watcher_cpu=0
  if [ -n "$w" ]; then watcher_kib=$(kib "$w") watcher_cpu=$(cpu_s "$w"); fi
  echo "$((SECONDS - start)),$(kib "$agent"),$watcher_kib,$(cpu_s "$agent"),$watcher_cpu,$fds,$threads,$workers,${w:-0},$(counter linkwatch_probe_runs_total),$(counter linkwatch_passive_reads_total),$(cat "$out/scrapes" 2>/dev/null || echo 0)" >>"$raw"
  sleep "$sample"
done

curl -fs --retry 3 --max-time 30 "http://127.0.0.1:$port/metrics" >"$out/final-metrics.txt" || true
if python3 - "$raw" "$csv" "$out/summary.txt" "$out/final-metrics.txt" systemd/linkwatch.yaml <<'PY'
import csv, re, sys
raw, path, summary, metrics, shipped = sys.argv[1:]
rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(raw))]
rows = [dict(minutes=r.pop("seconds") / 60, agent_rss_mib=r.pop("agent_rss_kib") / 1024,
             watcher_rss_mib=r.pop("watcher_rss_kib") / 1024, **r) for r in rows]
with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    for r in rows:
        w.writerow({k: (f"{v:.2f}" if k in ("minutes", "agent_rss_mib", "watcher_rss_mib") else
                        f"{v:g}") for k, v in r.items()})
out = []
def say(line=""):
    out.append(line)
    print(line)
def slope(key, rs):  # least squares, per hour
    xs = [r["minutes"] / 60 for r in rs]
    ys = [r[key] for r in rs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0
last = rows[-1]
hours = last["minutes"] / 60
say(f"soak: {hours:.2f} h, {len(rows)} samples")
say(f"probe runs {int(last['probe_runs'])}, passive reads {int(last['passive_reads'])}, "
    f"scrapes {int(last['scrapes'])}")
# The soak's equivalent in days of the shipped schedule: probe runs against what a day asks for
# (each probe's targets seen on /metrics times 86,400 s over its shipped interval), passive reads
# at the shipped 15 s, and scrapes at a Prometheus's usual 15 s.
unit = {"s": 1, "m": 60, "h": 3600}
every = {m.group(1): int(m.group(2)) * unit[m.group(3)] for m in re.finditer(
    r"(?m)^  (\w+):\n    enabled: true\n    every: (\d+)([smh])$", open(shipped).read())}
targets, runs = {}, {}
for line in open(metrics):
    m = re.match(r'linkwatch_probe_runs_total\{(.*)\} (\S+)$', line)
    if m:
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        targets.setdefault(labels["probe"], set()).add(labels["target"])
        if not labels["result"].startswith("skipped"):  # runs the lane or budget turned away
            runs[labels["probe"]] = runs.get(labels["probe"], 0) + float(m.group(2))
per_day = sum(len(t) * 86400 / every[p] for p, t in targets.items() if p in every)
done = sum(v for p, v in runs.items() if p in every)
if per_day:
    say(f"equivalent days of the shipped schedule: probe runs {done / per_day:.1f} "
        f"({int(done)} runs of {int(per_day)} a day), passive reads {hours * 3 / 24:.1f}, "
        f"scrapes {int(last['scrapes']) / 5760:.1f}")
problems = []
after = [r for r in rows if r["minutes"] >= 30]
if len(after) >= 3:
    for key, name in (("agent_rss_mib", "agent RSS"), ("watcher_rss_mib", "watcher RSS")):
        s = slope(key, after)
        say(f"{name}: {after[0][key]:.1f} MiB at 30 min, {last[key]:.1f} MiB at the end, "
            f"slope after 30 min {s:+.2f} MiB/h")
        if s >= 1.0:
            problems.append(f"{name} slope {s:+.2f} MiB/h")
    third = max(1, len(after) // 3)
    early, late = after[:third], after[-third:]
    for key in ("fds", "threads", "workers"):
        a, b = min(r[key] for r in early), min(r[key] for r in late)
        say(f"{key}: quietest {a:.0f} early, {b:.0f} late (max over the run {max(r[key] for r in rows):.0f})")
        if b > a:
            problems.append(f"{key} grew: {a:.0f} -> {b:.0f}")
    cpu = (last["agent_cpu_s"] - after[0]["agent_cpu_s"]) / ((last["minutes"] - after[0]["minutes"]) * 60) * 100
    wcpu = (last["watcher_cpu_s"] - after[0]["watcher_cpu_s"]) / ((last["minutes"] - after[0]["minutes"]) * 60) * 100
    say(f"CPU after 30 min: agent {cpu:.2f} %, watcher {wcpu:.2f} % of one core "
        f"(watcher restarts: {len(set(r['watcher_pid'] for r in rows if r['watcher_pid'])) - 1})")
else:
    say("soak: under 30 minutes of samples after the first 30: no verdict on growth")
for p in problems:
    say("GROWTH: " + p)
open(summary, "w").write("\n".join(out) + "\n")
sys.exit(1 if problems else 0)
PY
then status=0; else status=$?; fi
gnuplot <<GP
set terminal png size 1100,640 font ",10"
set output "$out/soak.png"
set datafile separator ","
set key autotitle columnhead top left
set multiplot layout 2,1 title "linkwatch soak on the sim: probes every 30 s, passive reads every 5 s, scrapes every second"
set xlabel "hours"
set ylabel "RSS (MiB)"
set yrange [0:*]
plot "$csv" using (\$1/60):2 with lines lw 2 title "agent RSS", "" using (\$1/60):3 with lines lw 2 title "watcher RSS"
set ylabel "count"
plot "$csv" using (\$1/60):6 with lines title "agent fds", "" using (\$1/60):7 with lines title "agent threads", \
  "" using (\$1/60):8 with lines title "probe workers at the sample"
unset multiplot
GP
echo "soak: $out/soak.csv, $out/soak.png, $out/summary.txt"
exit $status
