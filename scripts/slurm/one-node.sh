#!/usr/bin/env bash
# One-node Slurm (munged + slurmctld + slurmd) whose every file lives under DIR.
# Meant for integration tests of linkwatch's Prolog, Epilog and HealthCheckProgram.
#
#   one-node.sh start DIR [--prolog FILE] [--epilog FILE] [--healthcheck FILE]
#                         [--healthcheck-interval S] [--healthcheck-state STATES]
#                         [--prolog-flags FLAGS] [--no-wait-idle] [--wait-sched] [--debug]
#     waits until the node is idle (--no-wait-idle: registered in any state; --wait-sched:
#     also until slurmctld's first scheduling pass, ~3 s after start, so a job submitted
#     next starts within ~1 s), then prints "export SLURM_CONF=DIR/slurm.conf".
#     --healthcheck-interval defaults to 5, --healthcheck-state to ANY.
#   one-node.sh stop DIR
#   one-node.sh status DIR
#   one-node.sh env DIR          # prints the exports clients need
#   one-node.sh pids DIR         # live processes of this instance (empty after stop)
#
# Needs root and the Debian packages slurmctld slurmd slurm-client munge.
# Environment: SLURM_PORT_BASE (default 6817: slurmctld on it, slurmd on +1),
#              START_TIMEOUT (seconds, default 60).
#
# Each hook (prolog/epilog/healthcheck) runs through a wrapper under DIR/hooks that
# exports SLURM_CONF (slurmd does not pass it) and appends one line per start and
# end to DIR/log/hooks.log: "<epoch.millis> <hook> start|end rc=N job=J node=N".
set -u

die() { echo "one-node.sh: $*" >&2; exit 1; }
log() { echo "one-node.sh: $*" >&2; }
now_ms() { date +%s%3N; }

usage() {
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

abs_dir() {
  mkdir -p "$1" || die "cannot create $1"
  (cd "$1" && pwd -P)
}

node_name() { hostname -s; }

# ---------------------------------------------------------------------------
# processes

# Pids of processes belonging to the instance under $1, found by pid file, by a
# command line naming DIR, or (slurmstepd and job tasks) by SLURM_CONF=DIR/slurm.conf
# in their environment. Never the calling shell or its ancestors.
instance_pids() {
  local dir=$1 conf="$1/slurm.conf" pid f cmd
  local -A skip=()
  pid=$$
  while [ -n "$pid" ] && [ "$pid" -gt 1 ] 2>/dev/null; do
    skip[$pid]=1
    pid=$(awk '/^PPid:/{print $2}' /proc/"$pid"/status 2>/dev/null)
  done
  skip[$BASHPID]=1
  {
    for f in "$dir"/run/*.pid; do
      [ -f "$f" ] || continue
      pid=$(tr -dc 0-9 < "$f")
      [ -n "$pid" ] || continue
      # a stale pid file may name an unrelated process now: check its command line
      grep -qzF "$dir/" /proc/"$pid"/cmdline 2>/dev/null && echo "$pid"
    done
    # one grep over all processes (NUL-separated args and variables)
    for f in $(grep -lzE "^$(re "$dir")/slurm\.conf\$|=$(re "$dir")/munge/" /proc/[0-9]*/cmdline 2>/dev/null); do
      pid=$(echo "$f" | cut -d/ -f3)
      case "$(cat /proc/"$pid"/comm 2>/dev/null)" in slurmctld|slurmd|munged|slurmstepd|slurmscriptd) echo "$pid" ;; esac
    done
    for f in $(grep -lzxF "SLURM_CONF=$conf" /proc/[0-9]*/environ 2>/dev/null); do
      pid=$(echo "$f" | cut -d/ -f3)
      # only Slurm's step daemons and job tasks, never a client that merely exported SLURM_CONF
      case "$(cat /proc/"$pid"/comm 2>/dev/null)" in slurmstepd|slurmscriptd) echo "$pid"; continue ;; esac
      grep -qz '^SLURM_JOB_ID=' "$f" 2>/dev/null && echo "$pid"
    done
  } | sort -un | while read -r pid; do [ -z "${skip[$pid]:-}" ] && echo "$pid"; done
}

re() { printf '%s' "$1" | sed 's/[][\\.*^$+?(){}|]/\\&/g'; }

# pid of DIR's daemon NAME (munged, slurmctld, slurmd) if its pid file names a live one
pid_of() {
  local pid
  pid=$(tr -dc 0-9 2>/dev/null < "$1/run/$2.pid")
  [ -n "$pid" ] && alive_pid "$pid" && grep -qzF "$1/" /proc/"$pid"/cmdline 2>/dev/null && echo "$pid"
}

# alive and not a zombie (pid 1 here may take a second or two to reap orphans)
alive_pid() { [ -r /proc/"$1"/stat ] && [ "$(awk '{print $3}' /proc/"$1"/stat 2>/dev/null)" != Z ]; }

wait_gone() { # seconds(may be fractional) pids... ; prints the pids still alive on timeout
  local deadline p alive
  deadline=$(( $(date +%s%3N) + $(awk -v t="$1" 'BEGIN{printf "%d", t*1000}') )); shift
  while :; do
    alive=""
    for p in "$@"; do alive_pid "$p" && alive="$alive $p"; done
    [ -z "$alive" ] && return 0
    [ "$(date +%s%3N)" -ge "$deadline" ] && { echo "$alive"; return 1; }
    sleep 0.1
  done
}

cmd_stop() {
  local dir=$1 pids left munged
  [ -d "$dir" ] || return 0
  # cancel jobs while slurmctld and munged are both up (else scancel only hangs to its timeout)
  if [ -f "$dir/slurm.conf" ] && pid_of "$dir" slurmctld >/dev/null && pid_of "$dir" munged >/dev/null; then
    SLURM_CONF="$dir/slurm.conf" timeout 3 scancel --quiet --full --user=root >/dev/null 2>&1 || true
  fi
  # Slurm daemons and steps first (they authenticate through munged while shutting down):
  # SIGTERM is slurmctld's and slurmd's normal shutdown; SIGKILL whatever is left after 10 s.
  munged=$(cat "$dir/run/munged.pid" 2>/dev/null | tr -dc 0-9)
  pids=$(instance_pids "$dir" | grep -vx "${munged:-x}")
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null
    left=$(wait_gone 10 $pids) || { kill -KILL $left 2>/dev/null; wait_gone 3 $left >/dev/null; }
  fi
  # then munged: SIGTERM, SIGKILL after 3 s
  pids=$(instance_pids "$dir")
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null
    left=$(wait_gone 3 $pids) || { kill -KILL $left 2>/dev/null; wait_gone 3 $left >/dev/null; }
  fi
  pids=$(instance_pids "$dir")
  [ -z "$pids" ] || { log "still running after stop: $pids"; return 1; }
  rm -f "$dir"/run/*.pid "$dir/munge/munge.socket" "$dir/munge/munge.socket.lock"
  return 0
}

# ---------------------------------------------------------------------------
# start

write_hook() { # kind user_file wrapper_path
  local kind=$1 file=$2 out=$3
  [ -f "$file" ] || die "$kind: no such file $file"
  [ -x "$file" ] || die "$kind: not executable: $file"
  cat > "$out" <<EOF
#!/bin/sh
# generated by one-node.sh: runs $file with SLURM_CONF set and logs start/end
export SLURM_CONF='$DIR/slurm.conf'
export PATH="\${PATH:-/usr/sbin:/usr/bin:/sbin:/bin}:/usr/sbin:/usr/bin:/sbin:/bin"
echo "\$(date +%s%3N) $kind start job=\${SLURM_JOB_ID:-} node=\${SLURMD_NODENAME:-}" >> '$DIR/log/hooks.log'
'$file' "\$@"
rc=\$?
echo "\$(date +%s%3N) $kind end rc=\$rc job=\${SLURM_JOB_ID:-} node=\${SLURMD_NODENAME:-}" >> '$DIR/log/hooks.log'
exit \$rc
EOF
  chmod 755 "$out"
}

node_state() { # prints sinfo's long state of the node, e.g. idle, drained, down*
  SLURM_CONF="$DIR/slurm.conf" timeout 5 sinfo -h -N -n "$NODE" -o '%T' 2>/dev/null | head -1
}

cmd_start() {
  local prolog="" epilog="" hc="" hc_interval="" hc_state="ANY" prolog_flags="" wait_idle=1 wait_sched=0 debug=info
  while [ $# -gt 0 ]; do
    case "$1" in
      --prolog) prolog=$(readlink -f "$2"); shift 2 ;;
      --epilog) epilog=$(readlink -f "$2"); shift 2 ;;
      --healthcheck) hc=$(readlink -f "$2"); shift 2 ;;
      --healthcheck-interval) hc_interval=$2; shift 2 ;;
      --healthcheck-state) hc_state=$2; shift 2 ;;
      --prolog-flags) prolog_flags=$2; shift 2 ;;
      --no-wait-idle) wait_idle=0; shift ;;
      --wait-sched) wait_sched=1; shift ;;
      --debug) debug=debug2; shift ;;
      *) die "start: unknown option $1" ;;
    esac
  done
  [ "$(id -u)" = 0 ] || die "start needs root (slurmd runs hooks as root)"
  for b in munged slurmctld slurmd sinfo scontrol; do
    command -v "$b" >/dev/null || die "$b not found: apt-get install -y slurmctld slurmd slurm-client munge"
  done
  if [ -n "$hc" ] && [ -z "$hc_interval" ]; then hc_interval=5; fi
  local t0; t0=$(now_ms)

  cmd_stop "$DIR" || die "could not stop a previous instance under $DIR"
  # another Slurm (another DIR, or the system's) on our ports would make slurmctld exit at once
  local busy
  busy=$(ss -Hltn "( sport = :$PORT_CTLD or sport = :$PORT_SLURMD )" 2>/dev/null)
  [ -z "$busy" ] || die "port $PORT_CTLD or $PORT_SLURMD already in use (another Slurm? stop it, or set SLURM_PORT_BASE): $busy"
  rm -rf "$DIR/state" "$DIR/spool" "$DIR/run" "$DIR/munge" "$DIR/hooks" "$DIR/log"
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/run" "$DIR/munge" "$DIR/hooks" "$DIR/log" || die "mkdir under $DIR"
  chmod 755 "$DIR/munge"   # munged wants the socket's directory searchable by all
  chmod 755 "$DIR/spool" "$DIR/state" "$DIR/run" "$DIR/log"

  # munge: own key, socket, pid, log and seed under DIR
  dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none || die "munge key"
  chmod 400 "$DIR/munge/munge.key"
  munged --socket="$DIR/munge/munge.socket" --key-file="$DIR/munge/munge.key" \
         --pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" \
         --seed-file="$DIR/munge/munged.seed" --num-threads=2 \
    || die "munged failed: $(tail -3 "$DIR/log/munged.log" 2>/dev/null)"
  local i
  for i in $(seq 50); do [ -S "$DIR/munge/munge.socket" ] && break; sleep 0.1; done
  munge -n -S "$DIR/munge/munge.socket" | unmunge -S "$DIR/munge/munge.socket" >/dev/null \
    || die "munge self-test failed on $DIR/munge/munge.socket"

  local hooks=""
  if [ -n "$prolog" ]; then write_hook prolog "$prolog" "$DIR/hooks/prolog"; hooks+="Prolog=$DIR/hooks/prolog"$'\n'; fi
  if [ -n "$epilog" ]; then write_hook epilog "$epilog" "$DIR/hooks/epilog"; hooks+="Epilog=$DIR/hooks/epilog"$'\n'; fi
  [ -n "$prolog_flags" ] && hooks+="PrologFlags=$prolog_flags"$'\n'
  if [ -n "$hc" ]; then
    write_hook healthcheck "$hc" "$DIR/hooks/healthcheck"
    hooks+="HealthCheckProgram=$DIR/hooks/healthcheck"$'\n'
    hooks+="HealthCheckInterval=$hc_interval"$'\n'
    hooks+="HealthCheckNodeState=$hc_state"$'\n'
  fi

  : > "$DIR/plugstack.conf"
  cat > "$DIR/cgroup.conf" <<EOF
# not used (proctrack/linuxproc, task/none); present so nothing reads /etc/slurm/cgroup.conf
CgroupPlugin=autodetect
EOF
  cat > "$DIR/slurm.conf" <<EOF
# generated by scripts/slurm/one-node.sh
ClusterName=linkwatch
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT_CTLD
SlurmdPort=$PORT_SLURMD
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=$debug
SlurmdDebug=$debug
PlugStackConfig=$DIR/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_interval=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldTimeout=10
SlurmdTimeout=30
MessageTimeout=10
KillWait=5
InactiveLimit=0
MinJobAge=300
Waittime=0
$hooks
NodeName=$NODE NodeAddr=127.0.0.1 NodeHostname=$NODE CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

  export SLURM_CONF="$DIR/slurm.conf"
  slurmctld -f "$DIR/slurm.conf" </dev/null >>"$DIR/log/slurmctld.out" 2>&1 \
    || die "slurmctld failed: $(tail -5 "$DIR/log/slurmctld.log" "$DIR/log/slurmctld.out" 2>/dev/null)"
  for i in $(seq 100); do
    timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP' && break
    pid_of "$DIR" slurmctld >/dev/null || { sleep 0.2; pid_of "$DIR" slurmctld >/dev/null; } \
      || die "slurmctld exited: $(tail -3 "$DIR/log/slurmctld.log")"
    sleep 0.2
  done
  timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP' || die "slurmctld not answering: $(tail -5 "$DIR/log/slurmctld.log")"
  slurmd -f "$DIR/slurm.conf" </dev/null >>"$DIR/log/slurmd.out" 2>&1 \
    || die "slurmd failed: $(tail -5 "$DIR/log/slurmd.log" "$DIR/log/slurmd.out" 2>/dev/null)"

  local deadline=$(( $(date +%s) + ${START_TIMEOUT:-60} )) st=""
  while :; do
    pid_of "$DIR" slurmd >/dev/null || { sleep 0.5; pid_of "$DIR" slurmd >/dev/null; } \
      || die "slurmd exited: $(tail -3 "$DIR/log/slurmd.log")"
    st=$(node_state)
    case "$st" in
      idle) break ;;
      ""|unknown*|down*|*'*'|future*) ;;
      *) [ "$wait_idle" = 0 ] && break ;;
    esac
    [ "$(date +%s)" -lt "$deadline" ] || die "node $NODE not idle after ${START_TIMEOUT:-60}s (state '$st'); see $DIR/log"
    sleep 0.2
  done
  if [ "$wait_sched" = 1 ]; then
    # slurmctld 22.05 runs its first scheduling pass ~3 s after it starts; jobs submitted
    # earlier stay PENDING (Reason=None) until then. That pass logs "SchedulerParameters=".
    for i in $(seq 100); do grep -q 'SchedulerParameters=' "$DIR/log/slurmctld.log" && break; sleep 0.1; done
  fi
  echo "$(( $(now_ms) - t0 ))" > "$DIR/run/start-ms"
  log "node $NODE is $st after $(( $(now_ms) - t0 )) ms (slurm $(slurmctld -V | awk '{print $2}'))"
  cmd_env
}

cmd_env() {
  echo "export SLURM_CONF=$DIR/slurm.conf"
}

cmd_status() {
  SLURM_CONF="$DIR/slurm.conf" timeout 10 scontrol show node "$NODE"
}

# ---------------------------------------------------------------------------

[ $# -ge 2 ] || usage
CMD=$1; shift
DIR=$(abs_dir "$1"); shift
NODE=$(node_name)
PORT_CTLD=${SLURM_PORT_BASE:-6817}
PORT_SLURMD=$(( PORT_CTLD + 1 ))
case "$CMD" in
  start) cmd_start "$@" ;;
  stop) cmd_stop "$DIR" ;;
  status) cmd_status ;;
  env) cmd_env ;;
  pids) instance_pids "$DIR" | while read -r p; do alive_pid "$p" && echo "$p"; done ;;
  *) usage ;;
esac
