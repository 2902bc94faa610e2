#!/bin/sh
# linkwatch's check at a Slurm job boundary, shared by prolog.d/50-linkwatch.sh (quick, before a
# job) and epilog.d/50-linkwatch.sh (medium, after one); see their headers for slurm.conf.
#
#   linkwatch-job-check.sh prolog|epilog
#
# Runs `linkwatch check` on the job's devices and exits as Slurm needs it:
#   OK, WARN  0
#   FAIL      1  Slurm drains the node ("Prolog error" / "Epilog error"; a prolog's job is requeued)
#   UNKNOWN      0 unless LINKWATCH_ON_UNKNOWN=drain (then 1): the check could not judge (a device
#                busy with another process, a hung call past the timeout, no device library)
# The check's first line goes to syslog (tag linkwatch-prolog / linkwatch-epilog) and stderr
# whenever it is not OK; the verdict also stays in /run/linkwatch/last-check-<level>.json, which
# the agent publishes on /metrics.
# With SLURM_JOB_ID set (slurmd sets it), the check also keeps the job's link record beside the
# probe lock (/run/linkwatch/jobs/<id>.json): the prolog's verdict and link counters as its start,
# the epilog's as its end; `linkwatch status --job <id>` prints what the job's links did.
# In shadow mode (verdicts.enforce: false in the config) a FAIL comes back as "SHADOW FAIL - ..."
# and the script exits 0: the drain it would cause is logged as above ("shadow mode: would
# drain: ...") and counted on the agent's /metrics (linkwatch_shadow_actions_total{hook="prolog"});
# an UNKNOWN with LINKWATCH_ON_UNKNOWN=drain is logged the same way and does not drain either.
#
# Environment (slurmd passes its own; also read from /etc/default/linkwatch-slurm when present):
#   LINKWATCH              the command (default /usr/bin/linkwatch)
#   LINKWATCH_CONFIG       the config `linkwatch check` reads (verdicts.enforce, expected figures,
#                          the probe lock); default /etc/linkwatch/linkwatch.yaml
#   LINKWATCH_CHECK_ARGS   more arguments for `linkwatch check` (e.g. --backend B)
#   LINKWATCH_HTTP_CONFIG  the client config for an agent behind TLS or basic auth, passed as
#                          --http.config.file (Prometheus HTTP client format: basic_auth with a
#                          password_file, tls_config with a ca_file); unset: none
#   LINKWATCH_ON_UNKNOWN   run (default) or drain
#   LINKWATCH_DEVICES      the devices to check; default SLURM_JOB_GPUS (the job's GPUs or NPUs as
#                          gres indices), else every device
#   LINKWATCH_TIMEOUT, LINKWATCH_PROLOG_LEVEL    the prolog's limit and level (40s, quick)
#   LINKWATCH_EPILOG_TIMEOUT, LINKWATCH_EPILOG_LEVEL  the epilog's (170s, medium)
set -u
[ -r /etc/default/linkwatch-slurm ] && . /etc/default/linkwatch-slurm
hook=${1:-}
case $hook in
  prolog) level=${LINKWATCH_PROLOG_LEVEL:-quick}; timeout=${LINKWATCH_TIMEOUT:-40s} ;;
  epilog) level=${LINKWATCH_EPILOG_LEVEL:-medium}; timeout=${LINKWATCH_EPILOG_TIMEOUT:-170s} ;;
  *) echo "usage: linkwatch-job-check.sh prolog|epilog" >&2; exit 2 ;;
esac
linkwatch=${LINKWATCH:-/usr/bin/linkwatch}
devices=${LINKWATCH_DEVICES:-${SLURM_JOB_GPUS:-}}
on_unknown=${LINKWATCH_ON_UNKNOWN:-run}

say() {
  echo "linkwatch-$hook: job ${SLURM_JOB_ID:-?}: $*" >&2
  command -v logger >/dev/null 2>&1 && logger -t "linkwatch-$hook" -- "job ${SLURM_JOB_ID:-?}: $*"
  return 0
}

set -- check --level "$level" --timeout "$timeout" --format npd --hook "$hook"
[ -n "${LINKWATCH_CONFIG:-}" ] && set -- "$@" --config "$LINKWATCH_CONFIG"
# The job's link record (linkwatch status --job ID): this check is its start or its end.
[ -n "${SLURM_JOB_ID:-}" ] && set -- "$@" --job "$SLURM_JOB_ID"
[ -n "$devices" ] && set -- "$@" --devices "$devices"
# A file, never the password itself: arguments show in ps and /proc.
[ -n "${LINKWATCH_HTTP_CONFIG:-}" ] && set -- "$@" --http.config.file "$LINKWATCH_HTTP_CONFIG"
# shellcheck disable=SC2086 # LINKWATCH_CHECK_ARGS is a list of words
out=$("$linkwatch" "$@" ${LINKWATCH_CHECK_ARGS:-} 2>/dev/null)
rc=$?
line=$(printf '%s\n' "$out" | head -n 1)
shadow=false
case $line in "SHADOW "*) shadow=true ;; esac
case $rc in
  0)
    [ "$shadow" = true ] && say "shadow mode: would drain: ${line#SHADOW }; not done"
    exit 0
    ;;
  1) say "${line:-linkwatch check exited 1}"; exit 1 ;;
  *)
    say "${line:-linkwatch check exited $rc}"
    if [ "$on_unknown" = drain ]; then
      [ "$shadow" = true ] && { say "shadow mode: would drain: ${line#SHADOW }; not done"; exit 0; }
      exit 1
    fi
    exit 0
    ;;
esac
