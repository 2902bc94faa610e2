#!/bin/sh
# linkwatch tarball installer: puts the files where the .deb/.rpm put them.
#
#   ./install.sh              install (or update) linkwatch; creates the user; daemon-reload.
#                             Never enables or starts the service.
#   ./install.sh --uninstall  stop and disable the service, remove the program files and the
#                             unit; keep /etc/linkwatch, /etc/default/linkwatch and the user.
#   ./install.sh --purge      --uninstall, and also remove the configuration and the state,
#                             cache and log directories (the user is still kept).
#
# DESTDIR=/some/root ./install.sh  stages into a directory instead (no user, no systemctl;
# root not needed). Existing configuration files are never overwritten: a differing shipped
# version is written next to them as *.new.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
DESTDIR=${DESTDIR:-}
mode=install
case "${1:-}" in
    "") ;;
    --uninstall) mode=uninstall ;;
    --purge) mode=purge ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (or set DESTDIR to stage into a directory)" >&2
    exit 1
fi

# Do not fight a package manager over its files.
if [ -z "$DESTDIR" ]; then
    if command -v dpkg-query >/dev/null 2>&1 &&
        [ "$(dpkg-query -W -f '${Status}' linkwatch 2>/dev/null || true)" = "install ok installed" ]; then
        echo "install.sh: the linkwatch .deb is installed; use apt/dpkg instead" >&2
        exit 1
    fi
    if command -v rpm >/dev/null 2>&1 && rpm -q linkwatch >/dev/null 2>&1; then
        echo "install.sh: the linkwatch .rpm is installed; use dnf/rpm instead" >&2
        exit 1
    fi
fi

# The same unit directory the packages use: /lib/systemd/system (Debian) or /usr/lib/systemd/system.
if [ -d /lib/systemd/system ]; then
    unitdir=/lib/systemd/system
else
    unitdir=/usr/lib/systemd/system
fi

systemd_running() {
    [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]
}

install_config() { # SRC DST: keep an existing file; offer the shipped one as DST.new
    if [ -e "$DESTDIR$2" ]; then
        if ! cmp -s "$1" "$DESTDIR$2"; then
            install -m 0644 "$1" "$DESTDIR$2.new"
            echo "kept $2 (the shipped version is $2.new)"
        fi
    else
        install -D -m 0644 "$1" "$DESTDIR$2"
    fi
}

if [ "$mode" = install ]; then
    if [ -z "$DESTDIR" ]; then
        # Same user and group as the packages (see linkwatch.service, SupplementaryGroups=).
        nologin=/usr/sbin/nologin
        [ -x "$nologin" ] || nologin=/sbin/nologin
        getent group HwHiAiUser >/dev/null || groupadd -r HwHiAiUser
        getent group linkwatch >/dev/null || groupadd -r linkwatch
        getent passwd linkwatch >/dev/null ||
            useradd -r -M -g linkwatch -d /nonexistent -s "$nologin" -c "linkwatch agent" linkwatch
        if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
            echo "warning: no java on PATH: install a Java 17+ runtime (or set JAVA_HOME in /etc/default/linkwatch)" >&2
        fi
    fi
    install -D -m 0644 "$here/lib/linkwatch.jar" "$DESTDIR/usr/share/linkwatch/linkwatch.jar"
    install -D -m 0755 "$here/bin/linkwatch" "$DESTDIR/usr/bin/linkwatch"
    install -D -m 0644 "$here/systemd/linkwatch.service" "$DESTDIR$unitdir/linkwatch.service"
    install -D -m 0644 "$here/README.md" "$DESTDIR/usr/share/doc/linkwatch/README.md"
    install -D -m 0755 "$here/share/slurm/linkwatch-healthcheck.sh" \
        "$DESTDIR/usr/share/linkwatch/slurm/linkwatch-healthcheck.sh"
    install -D -m 0755 "$here/share/slurm/linkwatch-job-check.sh" \
        "$DESTDIR/usr/share/linkwatch/slurm/linkwatch-job-check.sh"
    install -D -m 0755 "$here/share/slurm/prolog.d/50-linkwatch.sh" \
        "$DESTDIR/usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh"
    install -D -m 0755 "$here/share/slurm/epilog.d/50-linkwatch.sh" \
        "$DESTDIR/usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh"
    install -D -m 0644 "$here/share/node-problem-detector/linkwatch-monitor.json" \
        "$DESTDIR/usr/share/linkwatch/node-problem-detector/linkwatch-monitor.json"
    for f in "$here"/share/dashboards/*.json; do
        install -D -m 0644 "$f" "$DESTDIR/usr/share/linkwatch/dashboards/$(basename "$f")"
    done
    install -D -m 0644 "$here/share/rules/linkwatch.rules.yml" "$DESTDIR/usr/share/linkwatch/rules/linkwatch.rules.yml"
    for f in "$here"/share/alertmanager/*; do
        install -D -m 0644 "$f" "$DESTDIR/usr/share/linkwatch/alertmanager/$(basename "$f")"
    done
    install -D -m 0755 "$here/share/gpu-check.sh" "$DESTDIR/usr/share/linkwatch/gpu-check.sh"
    install -D -m 0644 "$here/completion/linkwatch" "$DESTDIR/usr/share/bash-completion/completions/linkwatch"
    install -D -m 0644 "$here/man/linkwatch.1.gz" "$DESTDIR/usr/share/man/man1/linkwatch.1.gz"
    rm -rf "$DESTDIR/usr/share/doc/linkwatch/docs"
    install -d -m 0755 "$DESTDIR/usr/share/doc/linkwatch"
    cp -R "$here/docs" "$DESTDIR/usr/share/doc/linkwatch/docs"
    chmod -R u=rwX,go=rX "$DESTDIR/usr/share/doc/linkwatch/docs"
    install -d -m 0755 "$DESTDIR/etc/linkwatch" "$DESTDIR/etc/default"
    install_config "$here/etc/linkwatch.yaml" /etc/linkwatch/linkwatch.yaml
    install_config "$here/etc/linkwatch.default" /etc/default/linkwatch
    if systemd_running; then
        systemctl daemon-reload
    fi
    if [ -n "$DESTDIR" ]; then
        # A staging root, not the host that runs linkwatch: nothing was enabled, reloaded or
        # created here, and this machine's systemctl has no business with these files.
        echo "linkwatch staged under $DESTDIR (no user created, no systemctl run on this machine)."
        echo "On the target host, once these files are in place under /: create the system groups"
        echo "HwHiAiUser and linkwatch and the system user linkwatch (as install.sh without DESTDIR"
        echo "does: groupadd -r HwHiAiUser; groupadd -r linkwatch;"
        echo "useradd -r -M -g linkwatch -d /nonexistent -s /usr/sbin/nologin linkwatch), configure"
        echo "/etc/linkwatch/linkwatch.yaml, then: systemctl daemon-reload && systemctl enable --now linkwatch"
    else
        echo "linkwatch installed. Configure /etc/linkwatch/linkwatch.yaml, then: systemctl enable --now linkwatch"
    fi
    exit 0
fi

# uninstall / purge
if systemd_running; then
    systemctl disable --now linkwatch.service >/dev/null 2>&1 || true
fi
rm -f "$DESTDIR/usr/share/linkwatch/linkwatch.jar" "$DESTDIR/usr/bin/linkwatch" \
    "$DESTDIR$unitdir/linkwatch.service" "$DESTDIR/usr/share/doc/linkwatch/README.md"
rm -f "$DESTDIR/usr/share/linkwatch/slurm/linkwatch-healthcheck.sh" \
    "$DESTDIR/usr/share/linkwatch/slurm/linkwatch-job-check.sh" \
    "$DESTDIR/usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh" \
    "$DESTDIR/usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh" \
    "$DESTDIR/usr/share/linkwatch/node-problem-detector/linkwatch-monitor.json"
# Folders that only linkwatch writes: removed whole.
rm -rf "$DESTDIR/usr/share/linkwatch/dashboards" "$DESTDIR/usr/share/linkwatch/rules" \
    "$DESTDIR/usr/share/linkwatch/alertmanager" "$DESTDIR/usr/share/doc/linkwatch/docs"
rm -f "$DESTDIR/usr/share/linkwatch/gpu-check.sh" \
    "$DESTDIR/usr/share/bash-completion/completions/linkwatch" \
    "$DESTDIR/usr/share/man/man1/linkwatch.1.gz"
rmdir "$DESTDIR/usr/share/linkwatch/slurm/prolog.d" "$DESTDIR/usr/share/linkwatch/slurm/epilog.d" \
    2>/dev/null || true
rmdir "$DESTDIR/usr/share/linkwatch/slurm" "$DESTDIR/usr/share/linkwatch/node-problem-detector" \
    2>/dev/null || true
rmdir "$DESTDIR/usr/share/linkwatch" "$DESTDIR/usr/share/doc/linkwatch" 2>/dev/null || true
if [ "$mode" = purge ]; then
    rm -f "$DESTDIR/etc/linkwatch/linkwatch.yaml" "$DESTDIR/etc/linkwatch/linkwatch.yaml.new" \
        "$DESTDIR/etc/default/linkwatch" "$DESTDIR/etc/default/linkwatch.new"
    rmdir "$DESTDIR/etc/linkwatch" 2>/dev/null || true
    rm -rf "$DESTDIR/var/lib/linkwatch" "$DESTDIR/var/cache/linkwatch" "$DESTDIR/var/log/linkwatch"
fi
if systemd_running; then
    systemctl daemon-reload
fi
if [ "$mode" = purge ]; then
    echo "linkwatch purged (the user 'linkwatch' is kept: userdel linkwatch removes it)"
else
    echo "linkwatch uninstalled (kept: /etc/linkwatch, /etc/default/linkwatch, the user 'linkwatch')"
fi
