#!/usr/bin/env bash
# The tarball's install.sh puts the same kit where the packages do, and takes it away again:
#   1. DESTDIR=ROOT ./install.sh stages the agent, the monitoring kit (dashboards, rules, the
#      Alertmanager example, gpu-check.sh), the completion script, the manual page and the docs
#      (checked as for the packages, tests/kit.sh),
#      and says it staged them under ROOT (what to do on the target host; no systemctl advice);
#   2. DESTDIR=ROOT ./install.sh --uninstall removes every one of them.
# No root needed (DESTDIR creates no user and calls no systemctl).
# Usage: tests/tarball-install.sh [TARBALL]   (default: the newest packaging/target/linkwatch-*.tar.gz; any cwd)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${LINKWATCH_TARGET:-$here/../target}
# shellcheck source=report.sh
source "$here/report.sh"

tarball=${1:-$(ls -t "$target"/linkwatch-*.tar.gz 2>/dev/null | head -1 || true)}
[ -n "$tarball" ] && [ -f "$tarball" ] || abort "no tarball found under $target (run mvn package first)"
echo "tarball: $tarball"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
unpacked=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'linkwatch-*' | head -1)
[ -n "$unpacked" ] || abort "the tarball has no linkwatch-<version>/ folder"
root=$work/root

# shellcheck source=kit.sh
source "$here/kit.sh"

if DESTDIR=$root "$unpacked/install.sh" > "$work/install.log" 2>&1; then
    pass "DESTDIR=... install.sh succeeds"
else
    fail "DESTDIR=... install.sh fails:"; sed 's/^/    /' "$work/install.log"
fi
check_kit "$root"
# A staging root is not the host that runs linkwatch: no systemctl advice for this machine
# (systemctl may only be named in what to do "On the target host").
if grep -q "^linkwatch installed" "$work/install.log" ||
    awk '/On the target host/ { target = 1 } /systemctl/ && !/no systemctl run/ && !target { found = 1 }
         END { exit !found }' "$work/install.log"; then
    fail "DESTDIR=... install.sh gives systemctl advice for the staging machine:"
    sed 's/^/    /' "$work/install.log"
else
    pass "DESTDIR=... install.sh gives no systemctl advice for the staging machine"
fi
if grep -qF "staged under $root" "$work/install.log" &&
    grep -qF "On the target host" "$work/install.log"; then
    pass "DESTDIR=... install.sh says the files were staged under DESTDIR and what to do on the target host"
else
    fail "DESTDIR=... install.sh does not say the files were staged under DESTDIR (and what to do on the target host):"
    sed 's/^/    /' "$work/install.log"
fi

if DESTDIR=$root "$unpacked/install.sh" --uninstall > "$work/uninstall.log" 2>&1; then
    pass "DESTDIR=... install.sh --uninstall succeeds"
else
    fail "DESTDIR=... install.sh --uninstall fails:"; sed 's/^/    /' "$work/uninstall.log"
fi
for p in "${kit_paths[@]}" /usr/share/linkwatch; do
    check "after --uninstall: $p is gone" test ! -e "$root$p"
done

summary
