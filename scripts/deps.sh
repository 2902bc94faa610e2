#!/usr/bin/env bash
# Installs what linkwatch builds and tests with, from Debian's packages, when it is missing:
# a JDK (17+), Maven, gcc/make (native/), and for the tests promtool + Prometheus, Alertmanager + amtool, rpmbuild,
# systemd-analyze, curl, openssl, python3, wrk, kubectl (kubernetes-client), chromium, man-db, groff, Slurm (slurmctld, slurmd, the clients,
# munge), VictoriaMetrics (victoria-metrics, vmagent, vmalert), iproute2 and nftables; with --image: mmdebstrap, umoci, podman, crun, runc for scripts/image.sh. Needs root (apt-get); does nothing when all is present.
set -euo pipefail

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
if [ "${1:-}" = "--test" ]; then
  command -v promtool >/dev/null 2>&1 || need+=(prometheus)
  command -v amtool >/dev/null 2>&1 && command -v prometheus-alertmanager >/dev/null 2>&1 ||
    need+=(prometheus-alertmanager)
  command -v rpmbuild >/dev/null 2>&1 || need+=(rpm)
  command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
  command -v curl >/dev/null 2>&1 || need+=(curl)
  command -v openssl >/dev/null 2>&1 || need+=(openssl)
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  command -v runuser >/dev/null 2>&1 || need+=(util-linux)
  command -v wrk >/dev/null 2>&1 || need+=(wrk)
  # kubectl kustomize renders deploy/kubernetes for KubernetesManifestsTest.
  command -v kubectl >/dev/null 2>&1 || need+=(kubernetes-client)
  # Headless Chromium for the status page's browser tests and scripts/screenshots.sh.
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  # man -l and groff render the packaged manual page in the package tests (packaging/tests/kit.sh).
  command -v man >/dev/null 2>&1 || need+=(man-db)
  command -v groff >/dev/null 2>&1 || need+=(groff-base)
  # A real one-node Slurm for the health-check test (scripts/slurm/one-node.sh).
  command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 &&
    command -v sbatch >/dev/null 2>&1 && command -v munged >/dev/null 2>&1 ||
    need+=(slurmctld slurmd slurm-client munge)
  # VictoriaMetrics, vmagent and vmalert for the large-fleet deployment's test (deploy/large-fleet).
  command -v victoria-metrics >/dev/null 2>&1 && command -v vmagent >/dev/null 2>&1 &&
    command -v vmalert >/dev/null 2>&1 || need+=(victoria-metrics)
  # Network namespaces, veth pairs and a bridge (ip, iproute2) and packet loss (nft) for the
  # probes between servers (PeerNetnsLiveTest).
  command -v ip >/dev/null 2>&1 || need+=(iproute2)
  command -v nft >/dev/null 2>&1 || need+=(nftables)
fi
if [ "${1:-}" = "--image" ]; then
  # scripts/image.sh (root file system, OCI image) and its check with a container runtime.
  command -v mmdebstrap >/dev/null 2>&1 || need+=(mmdebstrap)
  command -v umoci >/dev/null 2>&1 || need+=(umoci)
  command -v podman >/dev/null 2>&1 || need+=(podman)
  command -v crun >/dev/null 2>&1 || need+=(crun)
  # runc: where crun refuses the machine's cgroup layout (v1/hybrid), podman --runtime runc runs.
  command -v runc >/dev/null 2>&1 || need+=(runc)
  command -v curl >/dev/null 2>&1 || need+=(curl)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}"
  # The package enables a store on :8428 for the whole machine; the tests start their own.
  if [[ " ${need[*]} " == *" victoria-metrics "* ]] && [ -d /run/systemd/system ]; then
    systemctl disable --now victoria-metrics >/dev/null 2>&1 || true
  fi
fi
