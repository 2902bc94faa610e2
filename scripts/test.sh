#!/usr/bin/env bash
# The whole test suite: C tests of the sim, Java tests (with real promtool, Prometheus, child
# processes and loopback HTTP), the packages, the dashboard and alert rules, the systemd unit,
# a .deb install round trip and a short fault soak of the packaged agent. Needs root (apt-get, dpkg). Ends with a "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --test

passed=0
failed=0
step() {
  local name=$1
  shift
  echo "==> $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "FAILED: $name" >&2
    failed=$((failed + 1))
  fi
}

step "maven verify (native + agent + packages)" mvn -B verify
step "grafana dashboard and alert rules" grafana/test/check.sh
step "systemd unit" packaging/tests/systemd-unit.sh
step "rpm contents" packaging/tests/rpm-contents.sh
step "tarball install.sh" packaging/tests/tarball-install.sh
step "deb install round trip" packaging/tests/deb-roundtrip.sh
step "fault soak, 2 minutes (no growth of fds, threads, workers; RSS bounded)" \
  scripts/fault-soak.sh 2 2 60

echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
