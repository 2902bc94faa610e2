#!/usr/bin/env bash
# Proves the one-node Slurm of one-node.sh behaves as linkwatch's Slurm hooks expect,
# and times each step. Needs root and the Debian packages slurmctld slurmd slurm-client munge.
#
#   scripts/slurm/demo.sh [DIR]      (default /tmp/linkwatch-slurm-demo)
#
# Scenarios:
#   1  prolog and epilog exit 0: sbatch --wrap 'echo hi' completes, node stays idle, srun true works
#   2  prolog exits 1: the batch job is requeued held, the node drains with reason "Prolog error";
#      srun against a failing prolog fails at once
#   3  epilog exits 1: the job completes, the node drains with reason "Epilog error"
#   4  HealthCheckProgram drains with reason "linkwatch: test", then resumes what it drained
# Prints one "PASS|FAIL <what> (<ms> ms)" line per check and exits 1 if any failed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ONE="$HERE/one-node.sh"
DIR=${1:-/tmp/linkwatch-slurm-demo}
HC_INTERVAL=${HC_INTERVAL:-1}
mkdir -p "$DIR/demo-hooks"
DIR=$(cd "$DIR" && pwd -P)
H="$DIR/demo-hooks"
export SLURM_CONF="$DIR/slurm.conf"
NODE=$(hostname -s)
FAILS=0

now() { date +%s%3N; }
pass() { echo "PASS $1 ($2 ms)"; }
fail() { echo "FAIL $1 ($2 ms): ${3:-}"; FAILS=$((FAILS + 1)); }

# wait_until DESCRIPTION TIMEOUT_S T0_MS COMMAND...: polls COMMAND every 0.1 s
wait_until() {
  local what=$1 timeout=$2 t0=$3; shift 3
  local deadline=$(( $(now) + timeout * 1000 ))
  while ! "$@" >/dev/null 2>&1; do
    if [ "$(now)" -ge "$deadline" ]; then fail "$what" $(( $(now) - t0 )) "timed out after ${timeout}s"; return 1; fi
    sleep 0.1
  done
  pass "$what" $(( $(now) - t0 ))
}

node_is() { [ "$(sinfo -h -N -n "$NODE" -o '%T|%E')" = "$1" ]; }   # e.g. "idle|none", "drained|Prolog error"
job_state_is() { scontrol show job -o "$1" 2>/dev/null | grep -q "JobState=$2 Reason=$3 "; }
start() { # label args...
  local label=$1 t0; shift
  t0=$(now)
  if "$ONE" start "$DIR" "$@" >/dev/null 2>"$DIR/start.err"; then pass "$label: start" $(( $(now) - t0 ));
  else fail "$label: start" $(( $(now) - t0 )) "$(cat "$DIR/start.err")"; "$ONE" stop "$DIR"; echo "== giving up"; exit 1; fi
}
show_node() { scontrol show node "$NODE" | grep -E '^ *(State|Reason)=' | sed 's/^ */    /'; }

cat > "$H/ok.sh" <<'EOF'
#!/bin/sh
exit 0
EOF
cat > "$H/fail.sh" <<'EOF'
#!/bin/sh
echo "linkwatch demo: failing on purpose" >&2
exit 1
EOF
cat > "$H/hc.sh" <<EOF
#!/bin/sh
# demo HealthCheckProgram: the action is read from $H/hc-mode (none|drain|resume)
node=\${SLURMD_NODENAME:-\$(hostname -s)}
case "\$(cat '$H/hc-mode' 2>/dev/null)" in
  drain) scontrol update nodename="\$node" state=drain reason="linkwatch: test" ;;
  resume)  # undrain only what we drained
    case "\$(sinfo -h -N -n "\$node" -o '%E')" in
      "linkwatch:"*) scontrol update nodename="\$node" state=resume ;;
    esac ;;
esac
exit 0
EOF
chmod 755 "$H"/*.sh
echo none > "$H/hc-mode"
echo "slurm $(slurmctld -V | awk '{print $2}'), node $NODE, DIR $DIR"

# --- 1 ------------------------------------------------------------------------
echo "== 1: prolog and epilog exit 0"
start "1" --prolog "$H/ok.sh" --epilog "$H/ok.sh"
t0=$(now); j=$(sbatch --parsable -o "$DIR/job-%j.out" --wrap 'echo hi')
wait_until "1: sbatch job $j COMPLETED" 30 "$t0" job_state_is "$j" COMPLETED None
[ "$(cat "$DIR/job-$j.out" 2>/dev/null)" = hi ] && pass "1: job output is 'hi'" 0 || fail "1: job output is 'hi'" 0 "$(cat "$DIR/job-$j.out" 2>&1)"
t0=$(now); wait_until "1: node idle after the job" 10 "$t0" node_is "idle|none"
t0=$(now); if out=$(timeout 30 srun true 2>&1); then pass "1: srun true" $(( $(now) - t0 )); else fail "1: srun true" $(( $(now) - t0 )) "$out"; fi
t0=$(now); wait_until "1: node idle after srun" 10 "$t0" node_is "idle|none"
echo "    hooks: $(grep -c 'prolog end rc=0' "$DIR/log/hooks.log") prolog and $(grep -c 'epilog end rc=0' "$DIR/log/hooks.log") epilog runs, all rc=0"

# --- 2 ------------------------------------------------------------------------
echo "== 2: prolog exits 1"
start "2" --prolog "$H/fail.sh"
t0=$(now); j=$(sbatch --parsable -o /dev/null --wrap 'echo hi')
wait_until "2: node drained, reason 'Prolog error'" 30 "$t0" node_is "drained|Prolog error"
wait_until "2: job $j PENDING launch_failed_requeued_held" 30 "$t0" job_state_is "$j" PENDING launch_failed_requeued_held
show_node
echo "    job: $(scontrol show job -o "$j" | grep -o 'JobState=[^ ]* Reason=[^ ]*\|Restarts=[^ ]*\|Priority=[^ ]*' | tr '\n' ' ')"
start "2b" --prolog "$H/fail.sh"
t0=$(now); out=$(timeout 30 srun true 2>&1); rc=$?
if [ "$rc" != 0 ] && echo "$out" | grep -q 'Job prolog failed'; then pass "2b: srun true fails (rc $rc, 'Job prolog failed')" $(( $(now) - t0 ));
else fail "2b: srun true fails" $(( $(now) - t0 )) "rc=$rc $out"; fi
wait_until "2b: node drained, reason 'Prolog error'" 10 "$t0" node_is "drained|Prolog error"

# --- 3 ------------------------------------------------------------------------
echo "== 3: epilog exits 1"
start "3" --epilog "$H/fail.sh"
t0=$(now); j=$(sbatch --parsable -o /dev/null --wrap 'echo hi')
wait_until "3: job $j COMPLETED" 30 "$t0" job_state_is "$j" COMPLETED None
wait_until "3: node drained, reason 'Epilog error'" 30 "$t0" node_is "drained|Epilog error"
show_node

# --- 4 ------------------------------------------------------------------------
echo "== 4: HealthCheckProgram drains and resumes (HealthCheckInterval=$HC_INTERVAL, HealthCheckNodeState=IDLE)"
echo none > "$H/hc-mode"
t0=$(now)
start "4" --healthcheck "$H/hc.sh" --healthcheck-interval "$HC_INTERVAL" --healthcheck-state IDLE
first=$(awk '/healthcheck start/{print $1; exit}' "$DIR/log/hooks.log")
echo "    first health check ran $(( first - t0 )) ms after 'start' was called (slurmd runs it before registering)"
t0=$(now); echo drain > "$H/hc-mode"
wait_until "4: node drained by health check, reason 'linkwatch: test'" 30 "$t0" node_is "drained|linkwatch: test"
show_node
t0=$(now); echo resume > "$H/hc-mode"
wait_until "4: health check resumed the node (idle, responding)" 30 "$t0" node_is "idle|none"
echo none > "$H/hc-mode"
echo "    gaps between health check runs: $(awk '/healthcheck start/{if (p) printf "%d ", $1-p; p=$1}' "$DIR/log/hooks.log" | tail -c 60)(ms)"

# --- stop ---------------------------------------------------------------------
t0=$(now)
if "$ONE" stop "$DIR"; then pass "stop" $(( $(now) - t0 )); else fail "stop" $(( $(now) - t0 )); fi
left=$("$ONE" pids "$DIR")
[ -z "$left" ] && pass "no process left under $DIR" 0 || fail "no process left" 0 "$left"

echo "== $FAILS failure(s)"
[ "$FAILS" = 0 ]
