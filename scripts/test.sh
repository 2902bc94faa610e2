#!/usr/bin/env bash
# The whole test suite: C tests of the sim, Java tests (with real promtool, Prometheus, child
# processes and loopback HTTP), the packages, the dashboard and alert rules, the systemd unit,
# a .deb install round trip and a short fault soak of the packaged agent. Needs root (apt-get, dpkg).
# Ends with a "N passed, N failed" line and each suite's time.
#
#   scripts/test.sh           the whole suite (what .ci/run runs)
#   scripts/test.sh --quick   the sim's C tests and the Java unit and golden tests only, for
#                             development (agent/pom.xml, profile "quick", lists what it leaves out)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=no
case "${1:-}" in
  "") ;;
  --quick) quick=yes ;;
  *)
    echo "usage: scripts/test.sh [--quick]" >&2
    exit 2
    ;;
esac

scripts/deps.sh --test

if [ "$quick" = yes ]; then
  start=$SECONDS
  mvn -B -Pquick test
  echo "quick tests passed in $((SECONDS - start)) s"
  exit 0
fi

passed=0
failed=0
step() {
  local name=$1
  shift
  local start=$SECONDS
  echo "==> $name"
  if "$@"; then
    passed=$((passed + 1))
    echo "<== $name: passed in $((SECONDS - start)) s"
  else
    echo "FAILED: $name (after $((SECONDS - start)) s)" >&2
    failed=$((failed + 1))
  fi
}

# After the build, three groups that share nothing run at once: the rule and dashboard checks
# (promtool and python), the package checks (dpkg, rpm, the installed agent on a free port) and the
# fault soak (its own port, control file and probe lock). Each group's output is printed whole
# when it ends, so the log reads as if they ran one after another.
group() {
  local log=$1
  shift
  (
    passed=0
    failed=0
    while [ $# -gt 0 ]; do
      local name=$1 cmd=$2
      shift 2
      # shellcheck disable=SC2086 # a command line of several words
      step "$name" $cmd
    done
    echo "$passed $failed" >"$log.counts"
  ) >"$log" 2>&1
}

suite_start=$SECONDS
step "maven verify (native + agent + packages)" mvn -B verify

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
group "$logs/rules" \
  "grafana dashboard and alert rules" grafana/test/check.sh &
group "$logs/packages" \
  "systemd unit" packaging/tests/systemd-unit.sh \
  "rpm contents" packaging/tests/rpm-contents.sh \
  "tarball install.sh" packaging/tests/tarball-install.sh \
  "deb install round trip" packaging/tests/deb-roundtrip.sh &
group "$logs/soak" \
  "fault soak, 2 minutes (no growth of fds, threads, workers; RSS bounded)" \
  "scripts/fault-soak.sh 2 2 60" &
wait
for g in rules packages soak; do
  cat "$logs/$g"
  read -r p f <"$logs/$g.counts" || { p=0; f=1; }
  passed=$((passed + p))
  failed=$((failed + f))
done

echo "suites: $passed passed, $failed failed (in $((SECONDS - suite_start)) s)"
[ "$failed" -eq 0 ]
