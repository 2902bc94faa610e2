#!/bin/sh
# linkwatch's Slurm Epilog: a medium link check of the job's devices after the job, before the node
# takes the next one (it stays COMPLETING meanwhile).
#
#   slurm.conf:  Epilog=/etc/slurm/epilog.d/*
#                EpilogTimeout=240            # above the check's own limit (default 170s)
#   and:         ln -s /usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh /etc/slurm/epilog.d/
#   (or Epilog=/usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh when it is the only epilog)
#
# It runs `linkwatch check --level medium` (the quick check's parts, plus 256 MiB and 1 GiB copies,
# both directions at once, host transfer from every NUMA node and a large allreduce; about 25 s on
# the simulated A3, about 2 minutes estimated on a 16-die A3) and exits:
#   OK, WARN  0  the node takes the next job.
#   FAIL      1  Slurm drains the node with Reason "Epilog error". The check's first line goes to
#                syslog (tag linkwatch-epilog) and stderr, and stays in
#                /run/linkwatch/last-check-medium.json, which the agent publishes on /metrics.
#   UNKNOWN      logged, exit 0 (LINKWATCH_ON_UNKNOWN=drain: exit 1). After a job, a device still
#                busy is usually the job's own process on its way out.
#
# Environment (also read from /etc/default/linkwatch-slurm when present): LINKWATCH,
# LINKWATCH_CHECK_ARGS, LINKWATCH_ON_UNKNOWN and LINKWATCH_DEVICES as for the prolog;
# LINKWATCH_EPILOG_TIMEOUT (default 170s) and LINKWATCH_EPILOG_LEVEL (default medium; quick for
# clusters whose jobs are too short to pay a medium check after each).
set -u
[ -r /etc/default/linkwatch-slurm ] && . /etc/default/linkwatch-slurm
linkwatch=${LINKWATCH:-/usr/bin/linkwatch}
devices=${LINKWATCH_DEVICES:-${SLURM_JOB_GPUS:-}}
on_unknown=${LINKWATCH_ON_UNKNOWN:-run}

say() {
  echo "linkwatch-epilog: job ${SLURM_JOB_ID:-?}: $*" >&2
  command -v logger >/dev/null 2>&1 && logger -t linkwatch-epilog -- "job ${SLURM_JOB_ID:-?}: $*"
  return 0
}

set -- check --level "${LINKWATCH_EPILOG_LEVEL:-medium}" --timeout "${LINKWATCH_EPILOG_TIMEOUT:-170s}" --format npd
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
