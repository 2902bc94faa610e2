#!/usr/bin/env bash
# Builds linkwatch and runs the agent on the simulated Ascend runtime (no hardware needed), or
# with BACKEND=sim-cuda on the sim's 8-GPU NVIDIA face (examples/sim-cuda.yaml).
# It prints the /metrics URL; stop it with Ctrl-C. Extra arguments go to `linkwatch run`.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${BACKEND:-sim}" in
  sim) config=examples/sim.yaml ;;
  sim-cuda) config=examples/sim-cuda.yaml ;;
  *) echo "run-sim.sh: BACKEND must be sim or sim-cuda, not '${BACKEND}'" >&2; exit 2 ;;
esac
scripts/deps.sh
mvn -B -q package -DskipTests
exec java -jar agent/target/linkwatch.jar run --backend "${BACKEND:-sim}" --config "$config" --listen 127.0.0.1:10187 "$@"
