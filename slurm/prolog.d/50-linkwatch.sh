#!/bin/sh
# linkwatch's Slurm Prolog: a quick link check of the job's devices before the job starts.
#
#   slurm.conf:  Prolog=/etc/slurm/prolog.d/*
#                PrologFlags=Alloc            # check at allocation, before the job's first step
#   and:         ln -s /usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh /etc/slurm/prolog.d/
#   (or Prolog=/usr/share/linkwatch/slurm/prolog.d/50-linkwatch.sh when it is the only prolog)
#
# It runs `linkwatch check --level quick` (topology, link state, 256 MiB copies of every pair of
# the job's devices, 1 KiB allreduce; about 3 s on the simulated A3, about 25 s estimated on a
# 16-die A3) within LINKWATCH_TIMEOUT (default 40s) and exits:
#   OK, WARN  0  the job starts.
#   FAIL      1  Slurm drains the node with Reason "Prolog error" and requeues the job (held
#                unless SchedulerParameters=nohold_on_prolog_fail). The check's first line
#                (e.g. "FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 83.1 GB/s, floor 124.1 GB/s")
#                goes to syslog (tag linkwatch-prolog) and stderr, and stays in
#                /run/linkwatch/last-check-quick.json, which the agent publishes on /metrics.
#   UNKNOWN      the check could not judge: a device busy with another job, a hung call past the
#                timeout, no device library, the agent's probe holding the devices too long.
#                Default: logged, and the job starts (exit 0): draining a node for what may be a
#                leftover process would take nodes out of service for nothing. Set
#                LINKWATCH_ON_UNKNOWN=drain to treat it as FAIL.
#
# Settings: /etc/default/linkwatch-slurm; the list is in ../linkwatch-job-check.sh, which does
# the work for both this and the epilog.
exec "$(dirname "$(readlink -f "$0")")/../linkwatch-job-check.sh" prolog
