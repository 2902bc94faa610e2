#!/usr/bin/env bash
# The .rpm and the .deb ship the same thing: same files (the unit path normalised:
# Debian /lib/systemd/system = RPM /usr/lib/systemd/system), same modes and owners, same bytes,
# same configuration files, and the package-owned directories.
# Usage: tests/rpm-contents.sh [DEB [RPM]]   (default: the newest in packaging/target; any cwd)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=${LINKWATCH_TARGET:-$here/../target}
# shellcheck source=report.sh
source "$here/report.sh"

for tool in dpkg-deb rpm; do
    command -v "$tool" >/dev/null || abort "$tool not found (Debian: apt-get install rpm)"
done
deb=${1:-$(ls -t "$target"/linkwatch_*_*.deb 2>/dev/null | head -1 || true)}
rpmfile=${2:-$(find "$target" -name 'linkwatch-*.rpm' -printf '%T@ %p\n' 2>/dev/null | sort -rn | head -1 | cut -d' ' -f2- || true)}
[ -n "$deb" ] && [ -f "$deb" ] || abort "no .deb found under $target (run mvn package first)"
[ -n "$rpmfile" ] && [ -f "$rpmfile" ] || abort "no .rpm found under $target (was rpmbuild missing at build time?)"
echo "deb: $deb"
echo "rpm: $rpmfile"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

normalise() { sed -e 's#^/lib/systemd/system/#/usr/lib/systemd/system/#'; }

# "MODE OWNER PATH" for every non-directory entry.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { p = $6; sub(/^\./, "", p); print $1, $2, p }' |
    awk '{ print $3 "\t" $1 "\t" $2 }' | normalise | sort > "$work/deb.files"
rpm -qlvp "$rpmfile" | awk '$1 !~ /^d/ { print $9 "\t" $1 "\t" $3 "/" $4 }' | normalise | sort > "$work/rpm.files"

if [ -s "$work/deb.files" ] && [ -s "$work/rpm.files" ]; then
    pass "both packages list files ($(wc -l < "$work/deb.files") in the .deb, $(wc -l < "$work/rpm.files") in the .rpm)"
else
    fail "a package lists no files"
fi

if diff <(cut -f1 "$work/deb.files") <(cut -f1 "$work/rpm.files") > "$work/paths.diff"; then
    pass "same file paths: $(cut -f1 "$work/deb.files" | tr '\n' ' ')"
else
    fail "file paths differ (< deb, > rpm):"; sed 's/^/    /' "$work/paths.diff"
fi

if diff "$work/deb.files" "$work/rpm.files" > "$work/modes.diff"; then
    pass "same modes and owners"
else
    fail "modes/owners differ (< deb, > rpm):"; sed 's/^/    /' "$work/modes.diff"
fi

# Same bytes: unpack both payloads.
mkdir -p "$work/deb" "$work/rpm"
dpkg-deb -x "$deb" "$work/deb"
if command -v rpm2archive >/dev/null; then
    rpm2archive - < "$rpmfile" | tar -xz -C "$work/rpm"
elif command -v rpm2cpio >/dev/null && command -v cpio >/dev/null; then
    (cd "$work/rpm" && rpm2cpio "$rpmfile" | cpio -idm --quiet)
else
    abort "neither rpm2archive nor rpm2cpio+cpio found"
fi
differs=""
while IFS=$'\t' read -r path _ _; do
    debpath=$path
    [ -e "$work/deb$debpath" ] || debpath=${path/#\/usr\/lib\/systemd\//\/lib\/systemd\/}
    cmp -s "$work/deb$debpath" "$work/rpm$path" || differs="$differs $path"
done < "$work/rpm.files"
if [ -z "$differs" ]; then pass "same file contents"; else fail "contents differ:$differs"; fi

# The monitoring kit, completion script, manual page and docs, checked in each payload.
# shellcheck source=kit.sh
source "$here/kit.sh"
echo "-- the .deb's payload"
check_kit "$work/deb"
echo "-- the .rpm's payload"
check_kit "$work/rpm"

# Every directory either package brings is traversable (755): a folder that took its files'
# mode 644 would hide them from every user but root.
baddirs=$( { dpkg-deb -c "$deb" | awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" { print "deb " $1 " " $6 }'
    rpm -qlvp "$rpmfile" | awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" { print "rpm " $1 " " $9 }'; } || true)
if [ -z "$baddirs" ]; then pass "every directory in both packages is 755"; else fail "directories not 755: $baddirs"; fi

# Configuration files: deb conffiles = rpm %config.
dpkg-deb -I "$deb" conffiles | sort > "$work/deb.conf"
rpm -qcp "$rpmfile" | sort > "$work/rpm.conf"
if [ -s "$work/deb.conf" ] && diff "$work/deb.conf" "$work/rpm.conf" > "$work/conf.diff"; then
    pass "same configuration files: $(tr '\n' ' ' < "$work/deb.conf")"
else
    fail "configuration files differ (< deb conffiles, > rpm %config):"; sed 's/^/    /' "$work/conf.diff"
fi
if rpm -qp --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' "$rpmfile" | awk 'NF == 2 && $1 ~ /c/ && $1 ~ /n/ { print $2 }' | sort |
    diff -q - "$work/rpm.conf" >/dev/null; then
    pass "rpm configuration files are %config(noreplace)"
else
    fail "rpm configuration files are not all %config(noreplace)"
fi

# Directories the package owns (so removal cleans them up) must be in both.
for dir in /etc/linkwatch /usr/share/linkwatch /usr/share/doc/linkwatch /usr/share/doc/linkwatch/docs \
    /usr/share/linkwatch/slurm /usr/share/linkwatch/dashboards /usr/share/linkwatch/rules /usr/share/linkwatch/alertmanager; do
    if rpm -qlp "$rpmfile" | grep -xF "$dir" >/dev/null && dpkg-deb -c "$deb" | awk '{print $6}' | grep -xF ".$dir/" >/dev/null; then
        pass "both own $dir"
    else
        fail "$dir is not owned by both packages"
    fi
done
# ...and neither owns a shared system directory in the .rpm (rpm would remove it on erase).
shared=$(rpm -qlvp "$rpmfile" | awk '$1 ~ /^d/ { print $9 }' | grep -vE '^/(etc|usr/share|usr/share/doc)/linkwatch$|^/usr/share/doc/linkwatch/docs$|^/usr/share/linkwatch/(slurm|slurm/prolog.d|slurm/epilog.d|node-problem-detector|dashboards|rules|alertmanager)$' || true)
if [ -z "$shared" ]; then pass "the .rpm owns no shared directories"; else fail "the .rpm owns shared directories: $shared"; fi

# Java dependency on both sides.
if dpkg-deb -f "$deb" Depends | grep 'java17-runtime-headless' >/dev/null && rpm -qp --requires "$rpmfile" | grep '^java-headless >= 1:17' >/dev/null; then
    pass "both depend on a Java 17+ runtime"
else
    fail "Java dependency missing (deb: $(dpkg-deb -f "$deb" Depends); rpm: $(rpm -qp --requires "$rpmfile" | tr '\n' ' '))"
fi

summary
