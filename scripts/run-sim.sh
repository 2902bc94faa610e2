#!/usr/bin/env bash
# Builds linkwatch and runs the agent on the simulated Ascend runtime (no hardware needed), or
# with BACKEND=sim-cuda on the sim's 8-GPU NVIDIA face (examples/sim-cuda.yaml).
# It prints the /metrics URL; stop it with Ctrl-C. Extra arguments go to `linkwatch run` and
# replace the script's defaults for the same option, e.g. scripts/run-sim.sh --listen 127.0.0.1:9000.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${BACKEND:-sim}" in
  sim) config=examples/sim.yaml ;;
  sim-cuda) config=examples/sim-cuda.yaml ;;
  *) echo "run-sim.sh: BACKEND must be sim or sim-cuda, not '${BACKEND}'" >&2; exit 2 ;;
esac
# The script's defaults, each left out when the arguments give that option themselves (picocli
# refuses an option given twice).
defaults=()
given() {
  local a
  for a in "${@:2}"; do
    [ "$a" = "$1" ] || [[ "$a" == "$1="* ]] && return 0
  done
  return 1
}
given --backend "$@" || defaults+=(--backend "${BACKEND:-sim}")
given --config "$@" || defaults+=(--config "$config")
given --listen "$@" || defaults+=(--listen 127.0.0.1:10187)
scripts/deps.sh
# Quiet: no compiler lines from the native build, no colour escapes from Maven.
MAKEFLAGS="--silent --no-print-directory" mvn -B -q -Dstyle.color=never package -DskipTests
# The probe lock's directory, which the installed unit makes (RuntimeDirectory=linkwatch): without
# it a `linkwatch check` beside the demo measures uncoordinated and keeps no verdict file.
[ -d /run/linkwatch ] || mkdir -p /run/linkwatch 2>/dev/null ||
  echo "run-sim.sh: cannot create /run/linkwatch (not root?): a check beside this agent will not coordinate with it" >&2
exec java -jar agent/target/linkwatch.jar run "${defaults[@]}" "$@"
