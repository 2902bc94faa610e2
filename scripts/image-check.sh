#!/usr/bin/env bash
# Starts the image that scripts/image.sh built, on the sim backend, and checks that /metrics
# answers with the p2p series. With podman (crun, else runc: a sandbox whose cgroup layout crun
# refuses, "cgroups in hybrid mode not supported", still runs runc); where no container runtime
# can start it, the image's entrypoint is run from its unpacked root file system in a chroot
# (own mount and PID namespaces), which proves the image's contents but not the runtime.
#
#   scripts/image-check.sh [LAYOUT [TAG]]     (default target/image/oci, the version's tag)
#   LINKWATCH_CHECK_CHROOT=1 scripts/image-check.sh   (the chroot way only)
# Prints "image check: podman (RUNTIME)" or "image check: chroot", then "1 passed, 0 failed".
set -euo pipefail
cd "$(dirname "$0")/.."
layout=${1:-target/image/oci}
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
tag=${2:-${version%-SNAPSHOT}}
port=${LINKWATCH_CHECK_PORT:-18187}
name=linkwatch-image-check
image=localhost/linkwatch:$tag
work=$(mktemp -d)
how=""

cleanup() {
  podman rm -f "$name" >/dev/null 2>&1 || true
  if [ -n "${chroot_pid:-}" ]; then
    # The agent is PID 1 of its namespace, a child of unshare: stop it, and unshare ends.
    pkill -TERM -P "$chroot_pid" 2>/dev/null || true
    timeout 20 tail --pid="$chroot_pid" -f /dev/null || kill -KILL "$chroot_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

wait_for_p2p() {
  for _ in $(seq 1 60); do
    if curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" 2>/dev/null &&
      grep -q '^linkwatch_p2p_bandwidth_bytes_per_second{' "$work/metrics"; then
      return 0
    fi
    sleep 2
  done
  return 1
}

# The sandbox may forbid raising limits (no CAP_SYS_RESOURCE): ask for what this shell has.
limits=(--ulimit "nofile=$(ulimit -n):$(ulimit -Hn)" --ulimit "nproc=4096:4096")
if command -v podman >/dev/null && [ -z "${LINKWATCH_CHECK_CHROOT:-}" ]; then
  id=$(podman pull -q "oci:$layout:$tag")
  podman tag "$id" "$image"
  for runtime in crun runc; do
    command -v "$runtime" >/dev/null || continue
    podman rm -f "$name" >/dev/null 2>&1 || true
    if podman --runtime "$runtime" run -d --name "$name" "${limits[@]}" \
      -p "127.0.0.1:$port:10187" "$image" \
      run --config /etc/linkwatch/linkwatch.yaml --backend sim >"$work/out" 2>&1; then
      how="podman ($runtime)"
      break
    fi
    echo "podman with $runtime refused: $(tail -1 "$work/out")" >&2
  done
fi

if [ -z "$how" ]; then
  echo "no container runtime could start the image: running its entrypoint in a chroot" >&2
  umoci unpack --image "$layout:$tag" "$work/bundle" >/dev/null
  rootfs=$work/bundle/rootfs
  env_args=()
  while IFS= read -r e; do env_args+=("$e"); done < <(
    python3 -c 'import json,sys; [print(e) for e in json.load(open(sys.argv[1]))["process"]["env"]]' \
      "$work/bundle/config.json")
  unshare --mount --pid --fork --kill-child --mount-proc="$rootfs/proc" \
    chroot --userspec=10187:10187 "$rootfs" /usr/bin/env -i "${env_args[@]}" \
    /usr/bin/linkwatch run --config /etc/linkwatch/linkwatch.yaml --backend sim \
    --listen "127.0.0.1:$port" >"$work/out" 2>&1 &
  chroot_pid=$!
  how=chroot
fi

echo "image check: $how"
if wait_for_p2p; then
  grep -E '^linkwatch_(build_info|p2p_bandwidth_bytes_per_second)\{' "$work/metrics" | head -3
  echo "1 passed, 0 failed"
else
  echo "no p2p series on /metrics within 120 s" >&2
  if [ "$how" = chroot ]; then tail -20 "$work/out" >&2; else podman logs "$name" 2>&1 | tail -20 >&2; fi
  echo "0 passed, 1 failed"
  exit 1
fi
