#!/usr/bin/env bash
# Builds the linkwatch container image (OCI) from this checkout, with no base image from a
# registry: the root file system comes from Debian's packages (mmdebstrap), the image is made with
# umoci. Needs root (mmdebstrap's root mode) and mmdebstrap + umoci (`scripts/deps.sh --image`).
#
#   scripts/image.sh                 # -> target/image/oci (OCI layout, tag linkwatch:VERSION)
#                                    #    and target/image/linkwatch-VERSION.oci.tar (oci-archive)
#   scripts/image.sh --check         # then also: start it with podman on the sim backend and
#                                    # check that /metrics has the p2p series (or, where the
#                                    # sandbox refuses containers, run its entrypoint in a chroot)
#
# Environment: LINKWATCH_IMAGE_SUITE (default bookworm), LINKWATCH_IMAGE_MIRROR (default
# http://deb.debian.org/debian), LINKWATCH_IMAGE_ARCH (default the host's dpkg architecture),
# SOURCE_DATE_EPOCH (default: the last commit's time: every file of the layer gets that time; two
# builds of one commit then differ only in Java's trust store, whose entries ca-certificates-java
# stamps with the time it wrote them; docs/kubernetes.md).
#
# What the image holds: Debian's openjdk-17-jre-headless and what it depends on, the agent jar
# (which carries liblinkwatch-sim.so for the sim backends), the launcher /usr/bin/linkwatch
# (packaging/src/bin/linkwatch) and the shipped /etc/linkwatch/linkwatch.yaml; the user linkwatch
# (uid/gid 10187); documentation, man pages and locales are left out. No CANN and no NVIDIA
# libraries: on a node they come from the host (deploy/kubernetes, docs/kubernetes.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

check=0
[ "${1:-}" = "--check" ] && check=1

suite=${LINKWATCH_IMAGE_SUITE:-bookworm}
mirror=${LINKWATCH_IMAGE_MIRROR:-http://deb.debian.org/debian}
arch=${LINKWATCH_IMAGE_ARCH:-$(dpkg --print-architecture)}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
version=${version%-SNAPSHOT}
out=$root/target/image
jar=$root/agent/target/linkwatch.jar

for tool in mmdebstrap umoci; do
  command -v "$tool" >/dev/null || { echo "image.sh: $tool is missing (scripts/deps.sh --image)" >&2; exit 2; }
done

start=$(date +%s)
if [ ! -r "$jar" ]; then
  echo "==> building the agent jar"
  mvn -B -q -pl agent -am package -DskipTests
fi

rm -rf "$out"
mkdir -p "$out"
rootfs=$out/rootfs.tar

echo "==> root file system ($suite, $arch) with mmdebstrap"
# Hooks run outside the new root with it as $1: they copy the agent in and create its user.
# The man pages are left out, but update-alternatives (the JRE's postinst) needs man1 to exist.
# The mirror may serve an index past its Valid-Until (a snapshot): apt is told not to mind.
LW_JAR=$jar LW_LAUNCHER=$root/packaging/src/bin/linkwatch LW_CONFIG=$root/systemd/linkwatch.yaml \
  mmdebstrap --mode=root --variant=essential --architectures="$arch" \
  --include=openjdk-17-jre-headless \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
  --customize-hook='set -e
    install -D -m 0644 "$LW_JAR" "$1/usr/share/linkwatch/linkwatch.jar"
    install -D -m 0755 "$LW_LAUNCHER" "$1/usr/bin/linkwatch"
    install -D -m 0644 "$LW_CONFIG" "$1/etc/linkwatch/linkwatch.yaml"
    echo "linkwatch:x:10187:10187:linkwatch:/var/lib/linkwatch:/usr/sbin/nologin" >> "$1/etc/passwd"
    echo "linkwatch:x:10187:" >> "$1/etc/group"
    echo "linkwatch:!:19000::::::" >> "$1/etc/shadow"
    for d in /var/lib/linkwatch /var/cache/linkwatch /var/log/linkwatch /run/linkwatch; do
      install -d -m 0755 -o 10187 -g 10187 "$1$d"
    done
    # apt is not in the image (variant essential); drop the package lists and caches it used.
    rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/cache/ldconfig/aux-cache
    rm -f "$1"/var/log/*.log "$1"/var/log/apt/* "$1"/etc/machine-id
    : > "$1/etc/machine-id"' \
  "$suite" "$rootfs" "$mirror"

echo "==> OCI image with umoci"
layout=$out/oci
tag=$version
umoci init --layout "$layout"
umoci new --image "$layout:$tag"
umoci raw add-layer --image "$layout:$tag" --history.created_by "mmdebstrap $suite + linkwatch $version" "$rootfs"
java_opts=$(sed -n 's/^LINKWATCH_JAVA_OPTS="\(.*\)"$/\1/p' systemd/linkwatch.default)
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
umoci config --image "$layout:$tag" \
  --created "$created" \
  --author linkwatch \
  --architecture "$arch" --os linux \
  --config.user 10187:10187 \
  --config.workingdir /var/lib/linkwatch \
  --config.entrypoint /usr/bin/linkwatch \
  --config.cmd run --config.cmd --config --config.cmd /etc/linkwatch/linkwatch.yaml \
  --config.exposedports 10187/tcp \
  --config.env "LINKWATCH_JAVA_OPTS=$java_opts" \
  --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --config.env MALLOC_ARENA_MAX=2 \
  --config.env HOME=/var/lib/linkwatch \
  --config.env LINKWATCH_CDS_DIR=/var/cache/linkwatch/cds \
  --config.env ASCEND_PROCESS_LOG_PATH=/var/log/linkwatch/ascend \
  --config.env ASCEND_CACHE_PATH=/var/cache/linkwatch/ascend \
  --config.stopsignal SIGTERM \
  --config.label "org.opencontainers.image.title=linkwatch" \
  --config.label "org.opencontainers.image.version=$version" \
  --config.label "org.opencontainers.image.revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  --config.label "org.opencontainers.image.licenses=Apache-2.0" \
  --history.created_by "umoci config"
umoci gc --layout "$layout"
rm -f "$rootfs"
(cd "$layout" && tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
  -cf "$out/linkwatch-$version.oci.tar" .)

seconds=$(($(date +%s) - start))
layer=$(du -b "$layout"/blobs/sha256/* | sort -n | tail -1 | cut -f1)
echo "image: $layout:$tag ($out/linkwatch-$version.oci.tar)"
echo "size: $((layer / 1024 / 1024)) MiB compressed layer; built in ${seconds}s"

if [ "$check" = 1 ]; then
  exec scripts/image-check.sh "$layout" "$tag"
fi
