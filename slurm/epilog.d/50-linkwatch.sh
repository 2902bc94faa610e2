#!/bin/sh
# linkwatch's Slurm Epilog: a medium link check of the job's devices after the job, before the node
# takes the next one (it stays COMPLETING meanwhile).
#
#   slurm.conf:  Epilog=/etc/slurm/epilog.d/*
#                EpilogTimeout=240            # above the check's own limit (default 170s)
#   and:         ln -s /usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh /etc/slurm/epilog.d/
#   (or Epilog=/usr/share/linkwatch/slurm/epilog.d/50-linkwatch.sh when it is the only epilog)
#
# It runs `linkwatch check --level medium` (the quick check's parts, plus 256 MiB and 1 GiB copies,
# both directions at once, host transfer from every NUMA node and a large allreduce; about 25 s on
# the simulated A3, about 2 minutes estimated on a 16-die A3) within LINKWATCH_EPILOG_TIMEOUT
# (default 170s) and exits:
#   OK, WARN  0  the node takes the next job.
#   FAIL      1  Slurm drains the node with Reason "Epilog error". The check's first line goes to
#                syslog (tag linkwatch-epilog) and stderr, and stays in
#                /run/linkwatch/last-check-medium.json, which the agent publishes on /metrics.
#   UNKNOWN      logged, exit 0 (LINKWATCH_ON_UNKNOWN=drain: exit 1). After a job, a device still
#                busy is usually the job's own process on its way out.
# LINKWATCH_EPILOG_LEVEL=quick suits clusters whose jobs are too short to pay a medium check after
# each.
#
# Settings: /etc/default/linkwatch-slurm; the list is in ../linkwatch-job-check.sh, which does
# the work for both this and the prolog.
exec "$(dirname "$(readlink -f "$0")")/../linkwatch-job-check.sh" epilog
