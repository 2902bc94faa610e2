# shellcheck shell=bash
# The package tests' way of reporting: a PASS or FAIL line per check, then "N passed, N failed"
# (the line scripts/test.sh and CI read), exit status 1 when any failed. Sourced by each test.
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # DESCRIPTION COMMAND...
    local desc=$1
    shift
    if "$@"; then pass "$desc"; else fail "$desc"; fi
}
# A test that cannot go on counts as one more failure.
abort() { echo "ABORT: $*"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }
summary() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }
