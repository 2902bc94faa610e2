#!/bin/sh
# linkwatch's Slurm Prolog: a quick link check of the job's devices before the job starts.
#
#   slurm.conf:  Prolog=/etc/slurm/prolog.d/*
#                PrologFlags=Alloc            # check at allocation, before the job's first step
#   and:         ln -s /usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh /etc/slurm/prolog.d/
#   (or Prolog=/usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh when it is the only prolog)
#
# It runs `linkwatch check --level quick` (topology, link state, 256 MiB copies of every pair of
# the job's devices, 1 KiB allreduce; about 5 s on the simulated A3, under 30 s estimated on a
# 16-die A3) and exits:
#   OK, WARN  0  the job starts.
#   FAIL      1  Slurm drains the node with Reason "Prolog error" and requeues the job (held
#                unless SchedulerParameters=nohold_on_prolog_fail). The check's first line
#                (e.g. "FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s")
#                goes to syslog (tag linkwatch-prolog) and stderr, and stays in
#                /run/linkwatch/last-check-quick.json, which the agent publishes on /metrics.
#   UNKNOWN      the check could not judge: a device busy with another job, a hung call past the
#                timeout, no device library, the agent's probe holding the devices too long.
#                Default: logged, and the job starts (exit 0), since draining a node for what may
#                be a leftover process would take nodes out of service for nothing. Set
#                LINKWATCH_ON_UNKNOWN=drain to treat it as FAIL.
#
# Environment (slurmd passes its own; set them in /etc/default/linkwatch-slurm, read if present):
#   LINKWATCH              the command (default /usr/bin/linkwatch)
#   LINKWATCH_CHECK_ARGS   more arguments for `linkwatch check` (e.g. --config FILE, --backend B)
#   LINKWATCH_TIMEOUT      the whole check's limit (default 40s: a prolog should be short, and
#                          what did not fit is UNKNOWN, not FAIL)
#   LINKWATCH_ON_UNKNOWN   run (default) or drain
#   LINKWATCH_DEVICES      the devices to check; default SLURM_JOB_GPUS (the job's GPUs or NPUs as
#                          gres indices), else every device
set -u
[ -r /etc/default/linkwatch-slurm ] && . /etc/default/linkwatch-slurm
linkwatch=${LINKWATCH:-/usr/bin/linkwatch}
devices=${LINKWATCH_DEVICES:-${SLURM_JOB_GPUS:-}}
on_unknown=${LINKWATCH_ON_UNKNOWN:-run}

say() {
  echo "linkwatch-prolog: job ${SLURM_JOB_ID:-?}: $*" >&2
  command -v logger >/dev/null 2>&1 && logger -t linkwatch-prolog -- "job ${SLURM_JOB_ID:-?}: $*"
  return 0
}

set -- check --level quick --timeout "${LINKWATCH_TIMEOUT:-40s}" --format npd
[ -n "$devices" ] && set -- "$@" --devices "$devices"
# shellcheck disable=SC2086 # LINKWATCH_CHECK_ARGS is a list of words
out=$("$linkwatch" "$@" ${LINKWATCH_CHECK_ARGS:-} 2>/dev/null)
rc=$?
line=$(printf '%s\n' "$out" | head -n 1)
case $rc in
  0) exit 0 ;;
  1) say "$line"; exit 1 ;;
  *)
    say "${line:-linkwatch check exited $rc}"
    [ "$on_unknown" = drain ] && exit 1
    exit 0
    ;;
esac
