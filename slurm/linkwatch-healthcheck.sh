#!/bin/sh
# linkwatch's Slurm HealthCheckProgram: drains this node when the running agent's link verdict is
# FAIL, resumes it when the verdict is OK again, and touches nothing else.
#
#   slurm.conf:  HealthCheckProgram=/usr/share/linkwatch/slurm/linkwatch-healthcheck.sh
#                HealthCheckInterval=300
#                HealthCheckNodeState=IDLE,CYCLE
#
# IDLE, not NONDRAINED_IDLE: the program must also run on a node it drained, or it could never
# resume it (Slurm 22.05's IDLE includes drained idle nodes; 22.05 has no NONDRAINED_IDLE and
# ignores it with a log line).
#
# It asks `linkwatch status` (instant: the agent's last results, no device work):
#   FAIL     (exit 1)  drain with Reason="linkwatch: <what>: <code> <detail>", unless the node is
#                      already drained or down for another reason (another tool's, an operator's):
#                      that reason is left as it is.
#   OK/WARN  (exit 0)  resume the node only if its reason starts with "linkwatch:" (a drain of
#                      this script's); a node drained for anything else stays drained.
#   UNKNOWN  (exit 2)  nothing changes: an agent that cannot be asked (stopped, restarting) says
#                      nothing about the links. Said on stderr, which slurmd logs.
# In shadow mode (verdicts.enforce: false in the config) a FAIL comes back as "SHADOW FAIL - ..."
# with exit 0: the drain it would do is said on stderr and to syslog (tag linkwatch-healthcheck),
# counted on the agent's /metrics (linkwatch_shadow_actions_total{hook="healthcheck"}), and not
# done; a node drained by this script before stays drained until the verdict is OK.
# It always exits 0: Slurm does nothing with the program's exit status, the actions are its own.
#
# Environment: LINKWATCH (the command, default /usr/bin/linkwatch), LINKWATCH_CONFIG (the config
# `linkwatch status` reads, for verdicts.enforce and the expected figures; default
# /etc/linkwatch/linkwatch.yaml), LINKWATCH_URL (the agent;
# default: what `linkwatch status` finds in the agent's config, 127.0.0.1 on its listen port,
# https when it serves TLS), LINKWATCH_HTTP_CONFIG
# (for an agent behind TLS or basic auth: the client config passed as --http.config.file, in the
# Prometheus HTTP client format; unset: none), SCONTROL and SINFO (default scontrol, sinfo),
# SLURMD_NODENAME (set by slurmd; else the short host name). Also read from
# /etc/default/linkwatch-slurm when present, as the prolog and epilog do.
set -u
[ -r /etc/default/linkwatch-slurm ] && . /etc/default/linkwatch-slurm
linkwatch=${LINKWATCH:-/usr/bin/linkwatch}
scontrol=${SCONTROL:-scontrol}
sinfo=${SINFO:-sinfo}
node=${SLURMD_NODENAME:-$(hostname -s)}
prefix="linkwatch:"

set -- status --hook healthcheck
[ -n "${LINKWATCH_CONFIG:-}" ] && set -- "$@" --config "$LINKWATCH_CONFIG"
[ -n "${LINKWATCH_URL:-}" ] && set -- "$@" --url "$LINKWATCH_URL"
set -- "$@" --format npd
# A file, never the password itself: arguments show in ps and /proc.
[ -n "${LINKWATCH_HTTP_CONFIG:-}" ] && set -- "$@" --http.config.file "$LINKWATCH_HTTP_CONFIG"
verdict=$("$linkwatch" "$@" 2>/dev/null)
rc=$?
line=$(printf '%s\n' "$verdict" | head -n 1)

# The node's state and reason ("none" when it has none), as sinfo prints them.
info=$("$sinfo" -h -N -n "$node" -o '%T|%E' 2>/dev/null | head -n 1)
if [ -z "$info" ]; then
  echo "linkwatch-healthcheck: sinfo knows no node $node; nothing done" >&2
  exit 0
fi
state=${info%%|*}
reason=${info#*|}
[ "$reason" = none ] && reason=""
ours=false
case "$reason" in "$prefix"*) ours=true ;; esac

case $rc in
  1)
    msg="$prefix ${line#FAIL - }"
    if [ -n "$reason" ] && [ "$ours" = false ]; then
      echo "linkwatch-healthcheck: $line; $node is already $state for: $reason (left alone)" >&2
    elif [ "$reason" != "$msg" ]; then
      "$scontrol" update NodeName="$node" State=DRAIN Reason="$msg"
    fi
    ;;
  0)
    case $line in
      "SHADOW FAIL - "*)
        said="shadow mode (verdicts.enforce: false): would drain $node with Reason=\"$prefix ${line#SHADOW FAIL - }\"; not done"
        echo "linkwatch-healthcheck: $said" >&2
        command -v logger >/dev/null 2>&1 && logger -t linkwatch-healthcheck -- "$said"
        ;;
      *)
        if [ "$ours" = true ]; then
          "$scontrol" update NodeName="$node" State=RESUME
        fi
        ;;
    esac
    ;;
  *)
    echo "linkwatch-healthcheck: ${line:-no verdict} (rc $rc); nothing done" >&2
    ;;
esac
exit 0
