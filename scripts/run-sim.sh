#!/usr/bin/env bash
# Builds linkwatch and runs the agent on the simulated Ascend runtime (no hardware needed).
# It prints the /metrics URL; stop it with Ctrl-C. Extra arguments go to `linkwatch run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
mvn -B -q package -DskipTests
exec java -jar agent/target/linkwatch.jar run --backend sim --config examples/sim.yaml --listen 127.0.0.1:10187 "$@"
