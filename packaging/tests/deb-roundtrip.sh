#!/usr/bin/env bash
# Install -> run -> upgrade -> remove -> purge round trip of the linkwatch .deb (as root).
#   1. dpkg -i (a Java 17+ runtime must be present; see below), files, user and group exist,
#      the unit is installed but not enabled; the monitoring kit, the completion script (loads in
#      bash), the manual page (man -l renders it) and the docs are installed (tests/kit.sh);
#   2. the installed launcher, run AS THE SERVICE USER with the sim backend, serves
#      linkwatch_build_info on /metrics within 60 s, and exits on SIGTERM;
#   3. edited configuration survives a reinstall of the same .deb;
#   4. dpkg --remove keeps the configuration, dpkg --purge removes everything the package
#      installed. Kept on purge, as Debian does for system users: the "linkwatch" user and the
#      "HwHiAiUser" group (this script deletes them afterwards if it was the one that created them).
# Usage: tests/deb-roundtrip.sh [DEB]   (default: the newest packaging/target/linkwatch_*_*.deb; any cwd)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${LINKWATCH_TARGET:-$here/../target}
# shellcheck source=report.sh
source "$here/report.sh"

[ "$(id -u)" -eq 0 ] || abort "run as root (dpkg -i, runuser)"
for tool in dpkg dpkg-deb curl runuser getent; do
    command -v "$tool" >/dev/null || abort "$tool not found"
done
deb=${1:-$(ls -t "$target"/linkwatch_*_*.deb 2>/dev/null | head -1 || true)}
[ -n "$deb" ] && [ -f "$deb" ] || abort "no .deb found under $target (run mvn package first)"
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
echo "deb: $deb"

pkg_status() { dpkg-query -W -f '${db:Status-Abbrev}' linkwatch 2>/dev/null | tr -d ' ' || true; }
case "$(pkg_status)" in
    ""|un|pn) ;;
    *) abort "linkwatch is already installed ($(pkg_status)); purge it first: dpkg --purge linkwatch" ;;
esac

user_existed=no; getent passwd linkwatch >/dev/null && user_existed=yes
group_existed=no; getent group HwHiAiUser >/dev/null && group_existed=yes
unit=/lib/systemd/system/linkwatch.service
work=$(mktemp -d)
agent_pid=""
cleanup() {
    if [ -n "$agent_pid" ] && kill -0 "$agent_pid" 2>/dev/null; then kill -KILL "$agent_pid" 2>/dev/null || true; fi
    case "$(pkg_status)" in ""|un|pn) ;; *) dpkg --purge linkwatch >/dev/null 2>&1 || true ;; esac
    rm -rf "$work"
}
trap cleanup EXIT

# --- 1. install -------------------------------------------------------------------------------
# The Depends line asks for a Java 17+ runtime package (default-jre-headless | java17-... |
# java21-... | java-runtime-headless (>= 17)). On the CI machine openjdk-17-jre-headless is
# installed, so plain dpkg -i works. Without any Java, install Debian's default runtime first.
if ! command -v java >/dev/null 2>&1; then
    echo "no java: installing default-jre-headless"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends default-jre-headless
fi
dpkg_install() {
    if dpkg -i "$deb" </dev/null > "$work/dpkg.log" 2>&1; then
        return 0
    fi
    # Only when java exists but not as a Debian package (e.g. a JDK unpacked by hand) does the
    # dependency stay unsatisfiable; --force-depends then installs anyway. The agent only needs
    # a java 17+ binary that the launcher finds (JAVA_HOME or PATH).
    if grep -q 'dependency problems' "$work/dpkg.log" && command -v java >/dev/null 2>&1; then
        echo "note: java is not from a Debian package; retrying with --force-depends"
        dpkg -i --force-depends "$deb" </dev/null >> "$work/dpkg.log" 2>&1 && return 0
    fi
    sed 's/^/    /' "$work/dpkg.log"
    return 1
}
check "dpkg -i installs the package" dpkg_install
check "package status is installed (ii)" test "$(pkg_status)" = ii
for f in /usr/share/linkwatch/linkwatch.jar /etc/linkwatch/linkwatch.yaml /etc/default/linkwatch "$unit"; do
    check "installed: $f" test -f "$f"
done
check "installed and executable: /usr/bin/linkwatch" test -x /usr/bin/linkwatch
check "installed and executable: the Slurm health check" test -x /usr/share/linkwatch/slurm/linkwatch-healthcheck.sh
check "installed and executable: the Slurm prolog" test -x /usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh
check "installed and executable: the prolog's and epilog's check" test -x /usr/share/linkwatch/slurm/linkwatch-job-check.sh
check "installed and executable: the Slurm epilog" test -x /usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh
check "installed: the node-problem-detector monitor" test -f /usr/share/linkwatch/node-problem-detector/linkwatch-monitor.json
# shellcheck source=kit.sh
source "$here/kit.sh"
check_kit /
conffiles=$(dpkg-query -W -f '${Conffiles}' linkwatch)
check "conffiles registered: /etc/linkwatch/linkwatch.yaml, /etc/default/linkwatch" \
    bash -c '[[ "$1" == *"/etc/linkwatch/linkwatch.yaml "* && "$1" == *"/etc/default/linkwatch "* ]]' _ "$conffiles"
IFS=: read -r _ _ uid gid _ home shell < <(getent passwd linkwatch || echo "x:x:x:x:x:x:x")
check "user linkwatch exists as a system user (uid $uid < 1000)" bash -c '[[ "$1" =~ ^[0-9]+$ ]] && (( $1 < 1000 ))' _ "$uid"
check "user linkwatch: home /nonexistent, no login shell ($shell)" \
    bash -c '[ "$1" = /nonexistent ] && [ ! -e /nonexistent ] && [[ "$2" == */nologin || "$2" == /bin/false ]]' _ "$home" "$shell"
check "group linkwatch is the user's primary group" test "$(getent group linkwatch | cut -d: -f3)" = "$gid"
check "group HwHiAiUser exists (SupplementaryGroups= of the unit)" bash -c "getent group HwHiAiUser >/dev/null"
check "the unit is not enabled by the package" bash -c '! ls /etc/systemd/system/*.wants/linkwatch.service >/dev/null 2>&1'

# --- 2. run as the service user -----------------------------------------------------------------
free_port() {
    local p
    for _ in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
    done
    return 1
}
port=$(free_port)
log=$work/agent.log
touch "$log"
( cd / && exec runuser -u linkwatch -- /usr/bin/linkwatch run --backend sim --listen "127.0.0.1:$port" \
    --config /etc/linkwatch/linkwatch.yaml ) > "$log" 2>&1 &
agent_pid=$!
echo "agent: runuser pid $agent_pid, port $port"
found=no
for _ in $(seq 60); do
    if curl -fsS --max-time 2 "http://127.0.0.1:$port/metrics" > "$work/metrics" 2>/dev/null &&
        grep -q '^linkwatch_build_info' "$work/metrics"; then
        found=yes; break
    fi
    kill -0 "$agent_pid" 2>/dev/null || break
    sleep 1
done
check "linkwatch_build_info served on /metrics within 60 s" test "$found" = yes
if [ "$found" = yes ]; then
    echo "    $(grep '^linkwatch_build_info' "$work/metrics" | head -1)"
    check "build_info says backend=\"sim\"" grep -q '^linkwatch_build_info{.*backend="sim"' "$work/metrics"
    check "/healthz answers 200" curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$port/healthz"
else
    echo "    agent output:"; tail -30 "$log" | sed 's/^/    /'
fi
# The launcher execs java, so the JVM is runuser's child; it must run as the service user.
java_pid=$(pgrep -P "$agent_pid" | head -1 || true)
check "the agent JVM runs as user linkwatch" \
    bash -c '[ -n "$1" ] && [ "$(ps -o user= -p "$1" | tr -d " ")" = linkwatch ]' _ "$java_pid"
stop_agent() {
    [ -n "$java_pid" ] || return 1
    kill -TERM "$java_pid" 2>/dev/null || return 1
    local rc
    for _ in $(seq 20); do
        if ! kill -0 "$agent_pid" 2>/dev/null; then
            rc=0; wait "$agent_pid" || rc=$?
            agent_pid=""
            echo "    exit status after SIGTERM: $rc"
            # 0, or 143 (= 128 + SIGTERM) which the JVM uses after its shutdown hooks ran.
            [ "$rc" -eq 0 ] || [ "$rc" -eq 143 ]
            return
        fi
        sleep 0.5
    done
    echo "    still running 10 s after SIGTERM"
    return 1
}
check "the agent exits cleanly within 10 s of SIGTERM" stop_agent

# --- 3. reinstall keeps edited configuration -----------------------------------------------------
marker="# deb-roundtrip edit $$-$RANDOM"
echo "$marker" >> /etc/linkwatch/linkwatch.yaml
printf '%s\n' "$marker" >> /etc/default/linkwatch
check "dpkg -i of the same .deb again succeeds" dpkg_install
check "edit of /etc/linkwatch/linkwatch.yaml survived the reinstall" grep -qxF -- "$marker" /etc/linkwatch/linkwatch.yaml
check "edit of /etc/default/linkwatch survived the reinstall" grep -qxF -- "$marker" /etc/default/linkwatch
check "no .dpkg-new/.dpkg-dist/.dpkg-old left next to the configuration" \
    bash -c '! ls /etc/linkwatch/*.dpkg-* /etc/default/linkwatch.dpkg-* >/dev/null 2>&1'

# --- 4. remove, then purge --------------------------------------------------------------------------
check "dpkg --remove succeeds" bash -c 'dpkg --remove linkwatch </dev/null >/dev/null'
check "after remove: program files gone" \
    bash -c '[ ! -e /usr/bin/linkwatch ] && [ ! -e /usr/share/linkwatch ] && [ ! -e "$1" ]' _ "$unit"
check "after remove: edited configuration kept" grep -qxF -- "$marker" /etc/linkwatch/linkwatch.yaml
check "dpkg --purge succeeds" bash -c 'dpkg --purge linkwatch </dev/null >/dev/null'
for p in /usr/share/linkwatch /etc/linkwatch /usr/bin/linkwatch /etc/default/linkwatch "$unit" \
    /usr/share/doc/linkwatch /var/lib/linkwatch /var/log/linkwatch /var/cache/linkwatch "${kit_paths[@]}"; do
    check "after purge: $p is gone" test ! -e "$p"
done
check "after purge: dpkg knows nothing of linkwatch" bash -c 's=$(dpkg-query -W -f "\${db:Status-Abbrev}" linkwatch 2>/dev/null | tr -d " "); [ -z "$s" ] || [ "$s" = un ] || [ "$s" = pn ]'
check "after purge: the system user linkwatch is kept (Debian practice)" bash -c "getent passwd linkwatch >/dev/null"

# Leave the machine as found.
if [ "$user_existed" = no ]; then deluser --system --quiet linkwatch >/dev/null 2>&1 || userdel linkwatch || true; fi
if getent group linkwatch >/dev/null && [ "$user_existed" = no ]; then delgroup --system --quiet linkwatch >/dev/null 2>&1 || groupdel linkwatch || true; fi
if [ "$group_existed" = no ]; then groupdel HwHiAiUser || true; fi

summary
