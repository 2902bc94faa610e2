#!/usr/bin/env bash
# Proves linkwatch on another CPU architecture under emulation: scripts/arch-check.sh aarch64
#
# From a clean clone (root: installs what it needs from Debian's packages, arm64 multiarch):
#  1. builds the agent and the x86_64 sim, and cross-builds the sim and its C tests for aarch64;
#  2. runs the C tests under qemu-aarch64-static, with 4 KiB and with 64 KiB pages (-p 65536);
#  3. checks the move_pages system call number the agent uses against the aarch64 headers and qemu;
#  4. runs topo, probe p2p, probe host-transfer (also with 64 KiB pages) and probe allreduce on
#     Debian's arm64 JDK under qemu against the aarch64 sim, and prints each table beside the
#     x86_64 one; numbers must agree within ARCH_CHECK_TOLERANCE (default 0.03, relative; the sim's
#     noise is 1 %), everything else exactly;
#  5. runs the agent itself on the arm64 JDK for one probe round (its workers and its watcher
#     started through qemu too, via LINKWATCH_WORKER_JAVA) and checks what /metrics says.
# Exits non-zero on the first failed step or on any mismatch. Took 8 min 48 s on 2 shared cores
# (docs/install.md, "Supported platforms"), so it is a CI step of its own, not part of scripts/test.sh.
# ARCH_CHECK_SKIP_BUILD=1 uses the jar and native builds already there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

arch=${1:-}
if [ "$arch" != aarch64 ]; then
  echo "usage: scripts/arch-check.sh aarch64   (the one architecture checked so far)" >&2
  exit 2
fi
started=$(date +%s)
tolerance=${ARCH_CHECK_TOLERANCE:-0.03}
java64=/usr/lib/jvm/java-17-openjdk-arm64/bin/java
# Kunpeng 920's cores are ARMv8.2 without SVE; neoverse-n1 is qemu's nearest model. qemu's
# default (max, with SVE) also fails with 64 KiB pages in glibc's SVE memset.
qemu=(qemu-aarch64-static -cpu neoverse-n1 -L /)
work=$(mktemp -d /tmp/linkwatch-arch-check.XXXXXX)
agent_pid=
cleanup() {
  if [ -n "$agent_pid" ]; then kill "$agent_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== %s (%ds)\n' "$*" "$(($(date +%s) - started))"; }
fail() { echo "arch-check: FAIL: $*" >&2; exit 1; }

step "packages"
scripts/deps.sh
need=()
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64-static >/dev/null 2>&1 || need+=(qemu-user-static)
dpkg -s libc6:arm64 >/dev/null 2>&1 || need+=(libc6:arm64)
[ -x "$java64" ] || need+=(openjdk-17-jre-headless:arm64)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v zip >/dev/null 2>&1 || need+=(zip)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
command -v file >/dev/null 2>&1 || need+=(file)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # The arm64 JRE is Multi-Arch: same; apt may move the amd64 one to the same version.
  apt-get install -y -q --no-install-recommends "${need[@]}"
fi

step "build: agent + x86_64 sim, aarch64 sim + C tests"
if [ "${ARCH_CHECK_SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -q -pl agent -am package -DskipTests
fi
make -s -C native B=build-aarch64 CC=aarch64-linux-gnu-gcc all build-aarch64/sim-tests
jar=$root/agent/target/linkwatch.jar
file -L native/build-aarch64/liblinkwatch-sim.so | grep -q 'ARM aarch64' || fail "the aarch64 sim is not an aarch64 ELF"

for pages in 4096 65536; do
  step "C tests, aarch64, $((pages / 1024)) KiB pages"
  if (cd native/build-aarch64 && "${qemu[@]}" -p "$pages" ./sim-tests) >"$work/ctests.$pages" 2>&1; then
    grep -E 'nothing to check|passed' "$work/ctests.$pages"
  else
    tail -30 "$work/ctests.$pages"
    fail "C tests on aarch64 with $pages-byte pages"
  fi
done

step "move_pages: the agent's number for aarch64, the headers' and qemu's"
cat >"$work/nr.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) { printf("%d\n", SYS_move_pages); return syscall(SYS_move_pages, 0, 0, 0, 0, 0, 0) < 0 ? 0 : 0; }
EOF
aarch64-linux-gnu-gcc -O2 "$work/nr.c" -o "$work/nr"
headers=$("${qemu[@]}" "$work/nr")
named=$("${qemu[@]}" -strace "$work/nr" 2>&1 | grep -c '^[0-9]* move_pages(' || true)
agent=$(sed -n 's/.*case "aarch64", "arm64" -> OptionalLong.of(\([0-9]*\)).*/\1/p' \
  agent/src/main/java/io/linkwatch/host/SyscallNumbers.java)
echo "aarch64 headers: $headers; SyscallNumbers: $agent; qemu -strace names it move_pages: $([ "$named" -gt 0 ] && echo yes || echo no)"
[ "$headers" = "$agent" ] && [ "$named" -gt 0 ] || fail "move_pages is $headers in the headers, $agent in SyscallNumbers"

# The two sides of every comparison: the same jar, each architecture's JVM and sim.
export ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0
unset LINKWATCH_SIM_CONTROL LINKWATCH_SIM_PROFILE LINKWATCH_SIM_TIMING LINKWATCH_WORKER_JAVA
x86() { LINKWATCH_SIM_LIBRARY=$root/native/build/liblinkwatch-sim.so java -jar "$jar" "$@"; }
a64() { LINKWATCH_SIM_LIBRARY=$root/native/build-aarch64/liblinkwatch-sim.so "${qemu[@]}" "$java64" -jar "$jar" "$@"; }
a64k() { LINKWATCH_SIM_LIBRARY=$root/native/build-aarch64/liblinkwatch-sim.so "${qemu[@]}" -p 65536 "$java64" -jar "$jar" "$@"; }

cat >"$work/compare.py" <<'EOF'
"""Prints two tables side by side; numbers must agree within a relative tolerance (plus one unit
of their last printed digit), every other word exactly. Exit status 1 on any difference."""
import re, sys

NUM = re.compile(r"^([(]?)([-+]?\d+(?:\.(\d+))?)([A-Za-z/%),]*)$")

def same(a, b, tol):
    if a == b:
        return True
    ma, mb = NUM.match(a), NUM.match(b)
    if not (ma and mb) or ma.group(1) != mb.group(1) or ma.group(4) != mb.group(4):
        return False
    x, y = float(ma.group(2)), float(mb.group(2))
    unit = 10 ** -max(len(ma.group(3) or ""), len(mb.group(3) or ""))
    return abs(x - y) <= tol * max(abs(x), abs(y)) + unit

left_name, right_name, left_file, right_file, tol = sys.argv[1:6]
left = open(left_file).read().rstrip("\n").split("\n")
right = open(right_file).read().rstrip("\n").split("\n")
width = max([len(l) for l in left] + [len(left_name)])
print(f"{left_name:<{width}}  | {right_name}")
bad = 0
for i in range(max(len(left), len(right))):
    l = left[i] if i < len(left) else "<missing>"
    r = right[i] if i < len(right) else "<missing>"
    lw, rw = l.split(), r.split()
    ok = len(lw) == len(rw) and all(same(a, b, float(tol)) for a, b in zip(lw, rw))
    bad += not ok
    print(f"{l:<{width}}  {'|' if ok else '≠'} {r}")
sys.exit(1 if bad else 0)
EOF

mismatches=0
compare() { # NAME RIGHT_RUNNER ARGS...: the x86_64 table beside RIGHT_RUNNER's
  local name=$1 runner=$2
  shift 2
  step "$name: linkwatch $*"
  x86 "$@" >"$work/x86.out" 2>"$work/x86.err" || { cat "$work/x86.err"; fail "x86_64: linkwatch $*"; }
  "$runner" "$@" >"$work/a64.out" 2>"$work/a64.err" || { cat "$work/a64.err"; fail "$runner: linkwatch $*"; }
  python3 "$work/compare.py" x86_64 "$name" "$work/x86.out" "$work/a64.out" "$tolerance" ||
    { mismatches=$((mismatches + 1)); echo "arch-check: MISMATCH in $name: linkwatch $*" >&2; }
  if grep -q 'numa_maps instead' "$work/a64.err"; then
    echo "(page placement on $name from numa_maps: qemu-user does not implement move_pages)"
  fi
}

compare aarch64 a64 topo --backend sim
compare aarch64 a64 probe p2p --backend sim --sizes 1MiB,64MiB,1GiB
x86 probe p2p --backend sim --sizes 64MiB --json >"$work/p2p-x86.json" 2>/dev/null
compare aarch64 a64 probe host-transfer --backend sim
compare "aarch64 64KiB pages" a64k probe host-transfer --backend sim
compare aarch64 a64 probe allreduce --backend sim --sizes 1KiB,1MiB

step "packages: their Architecture is that of the sim inside"
# The x86_64 jar as built, and the jar an aarch64 build makes (-Dnative.build=build-aarch64
# -Dnative.cc=aarch64-linux-gnu-gcc -Djna.platform.prefix=linux-aarch64: only the sim differs),
# packaged in a copy of the tree so that packaging/target keeps this host's packages.
pk=$work/pk
mkdir -p "$pk/tree" "$pk/add/linux-aarch64"
cp "$jar" "$pk/linkwatch-aarch64.jar"
zip -q -d "$pk/linkwatch-aarch64.jar" 'linux-x86-64/*'
cp native/build-aarch64/liblinkwatch-sim.so "$pk/add/linux-aarch64/"
(cd "$pk/add" && zip -q -r "$pk/linkwatch-aarch64.jar" linux-aarch64)
tar --exclude=./.git --exclude=./agent/target --exclude=./packaging/target --exclude='./native/build*' -cf - . |
  tar -xf - -C "$pk/tree"
for side in "x86_64 amd64 $jar" "aarch64 arm64 $pk/linkwatch-aarch64.jar"; do
  read -r want_rpm want_deb side_jar <<<"$side"
  (cd "$pk/tree" && rm -rf packaging/target && mvn -B -q -pl packaging package -Dlinkwatch.jar="$side_jar") >"$pk/mvn.log" 2>&1 ||
    { tail -20 "$pk/mvn.log"; fail "packaging with the $want_rpm jar"; }
  deb=$(ls "$pk"/tree/packaging/target/linkwatch_*.deb)
  deb_arch=$(dpkg-deb -f "$deb" Architecture)
  rpm_file=$(find "$pk/tree/packaging/target" -name 'linkwatch-*.rpm' | head -1)
  rpm_arch=$([ -n "$rpm_file" ] && command -v rpm >/dev/null && rpm -qp --qf '%{ARCH}' "$rpm_file" 2>/dev/null || echo "(no rpmbuild)")
  rm -rf "$pk/x" && mkdir "$pk/x"
  dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$pk/x" ./usr/share/linkwatch/linkwatch.jar
  (cd "$pk/x" && unzip -q usr/share/linkwatch/linkwatch.jar '*/liblinkwatch-sim.so')
  sims=$(cd "$pk/x" && for f in */liblinkwatch-sim.so; do echo "$f: $(file -b "$f" | cut -d, -f2 | xargs)"; done)
  echo "$(basename "$deb"): Architecture $deb_arch; rpm $rpm_arch; inside: $sims"
  [ "$deb_arch" = "$want_deb" ] || fail "the .deb of the $want_rpm jar says Architecture $deb_arch"
  [ -z "$rpm_file" ] || [ "$rpm_arch" = "$want_rpm" ] || [ "$rpm_arch" = "(no rpmbuild)" ] ||
    fail "the .rpm of the $want_rpm jar is for $rpm_arch"
  [ "$(wc -l <<<"$sims")" = 1 ] || fail "more than one sim in the $want_deb package"
  case "$want_rpm:$sims" in
    x86_64:"linux-x86-64/liblinkwatch-sim.so: x86-64") ;;
    aarch64:"linux-aarch64/liblinkwatch-sim.so: ARM aarch64") ;;
    *) fail "the $want_deb package holds: $sims" ;;
  esac
done

step "agent: one probe round on aarch64 (workers and watcher through qemu)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/agent.yaml" <<EOF
backend: sim
listen: 127.0.0.1:$port
budget: 0.9
passive:
  interval: 2m
  deadline: 1m
probes:
  p2p: {every: 1m, deadline: 55s, sizes: [64MiB], iterations: 10}
  topology: {enabled: false}
  p2p_bidirectional: {enabled: false}
  allreduce: {enabled: false}
  allgather: {enabled: false}
  host_transfer: {enabled: false}
  device_memory: {enabled: false}
EOF
# The JDK starts children through its jspawnhelper, an aarch64 binary that the kernel cannot exec
# without binfmt_misc; with vfork the emulated JVM execs qemu (an x86_64 binary) itself.
vfork=-Djdk.lang.Process.launchMechanism=VFORK
LINKWATCH_SIM_LIBRARY=$root/native/build-aarch64/liblinkwatch-sim.so \
  LINKWATCH_WORKER_JAVA="${qemu[*]} $java64 $vfork" \
  "${qemu[@]}" "$java64" "$vfork" -jar "$jar" run --config "$work/agent.yaml" >"$work/agent.log" 2>&1 &
agent_pid=$!
metrics=
for _ in $(seq 1 80); do
  sleep 3
  kill -0 "$agent_pid" 2>/dev/null || { cat "$work/agent.log"; fail "the aarch64 agent exited"; }
  metrics=$(curl -sf "http://127.0.0.1:$port/metrics" || true)
  if [ "$(grep -c '^linkwatch_probe_runs_total{probe="p2p"' <<<"$metrics")" -ge 2 ] &&
    grep -q '^linkwatch_passive_reads_total{result=[^}]*source="dcmi"' <<<"$metrics"; then
    break
  fi
done
grep -E '^linkwatch_(build_info|probe_success|probe_runs_total|p2p_bandwidth_bytes_per_second|passive_reads_total)' <<<"$metrics" || true
grep -q '^linkwatch_probe_success' <<<"$metrics" || { tail -30 "$work/agent.log"; fail "no probe round within 4 minutes"; }
if grep -E '^linkwatch_probe_success' <<<"$metrics" | grep -qv ' 1\(\.0\)\?$'; then
  tail -30 "$work/agent.log"
  fail "a probe failed in the aarch64 agent"
fi
grep -q '^linkwatch_passive_reads_total{result="success",source="dcmi"}' <<<"$metrics" ||
  { tail -30 "$work/agent.log"; fail "the aarch64 agent's passive watcher did not read DCMI"; }
printf '%s\n' "$metrics" >"$work/metrics.txt"
python3 - "$work/p2p-x86.json" "$work/metrics.txt" "$tolerance" <<'EOF' || mismatches=$((mismatches + 1))
import json, re, sys
tol = float(sys.argv[3])
ref = {(m["src"], m["dst"]): m["bytes_per_second"]
       for t in json.load(open(sys.argv[1]))["targets"] for m in t["measurements"]}
bad, seen = 0, 0
for line in open(sys.argv[2]):
    if not line.startswith("linkwatch_p2p_bandwidth_bytes_per_second{"):
        continue
    labels = dict(re.findall(r'(\w+)="([^"]*)"', line))
    value = float(line.rsplit(" ", 1)[1])
    want = ref.get((int(labels["src"]), int(labels["dst"])))
    ok = want is not None and abs(value - want) <= tol * max(value, want)
    bad += not ok
    seen += 1
    print(f"agent p2p {labels['src']}->{labels['dst']} {labels['size_bytes']} B: aarch64 {value / 1e9:.1f} GB/s,"
          f" x86_64 one-shot {want / 1e9 if want else float('nan'):.1f} GB/s: {'ok' if ok else 'MISMATCH'}")
sys.exit(1 if bad or not seen else 0)
EOF
kill "$agent_pid" 2>/dev/null || true
wait "$agent_pid" 2>/dev/null || true
agent_pid=

step "done"
if [ "$mismatches" -gt 0 ]; then
  echo "arch-check: $mismatches table(s) differ between x86_64 and $arch" >&2
  exit 1
fi
echo "arch-check: $arch agrees with x86_64 in $(($(date +%s) - started)) s"
