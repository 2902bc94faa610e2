#!/usr/bin/env python3
"""Write a fast copy of the linkwatch rules for a live test (real Prometheus + agent + sim).

The real rules work in hours and days; a live test has minutes. This is a plain TEXT transform
of the real rules file (no YAML library, no rule is rewritten by hand), so the test exercises
exactly the expressions that ship, only with shorter windows:

  for: <anything>          -> for: <--for>                       default 10s
  [<range>]                -> [<new>] for each --range OLD=NEW    defaults 7d=2m, 15m=30s,
                                                                  5m=30s, 10m=1m, 1d=2m
  offset <dur>             -> offset <new> for each --offset OLD=NEW  default 1h=30s
  interval: <dur> (group)  -> interval: <--group-interval>         only if given and present

So the baseline  quantile_over_time(0.5, m[7d] offset 1h)  becomes
                 quantile_over_time(0.5, m[2m] offset 30s):
the median of the samples between 2m30s and 30s ago. Ranges inside annotation templates (e.g.
the [1h] of "runs in the last hour") are left alone unless mapped. Ranges that are not mapped
are listed on stderr, so a new window in the real file is noticed.

Timeline for the live test (Prometheus scrape/evaluation every 1-2 s, defaults above):
  t0            agent starts: no baseline yet (the "first hour" is now the first 30 s) -> quiet
  t0+~90s       baseline present for every series (needs samples older than 30 s)
  t1            sim degrades link 0->1 to 0.6x
  t1+~2s..10s   LinkwatchLinkBandwidthLow{src="0",dst="1"} pending, firing after `for` (10 s);
                LinkwatchLinkAsymmetric{src="0",dst="1"} too (expected: 1->0 is not degraded);
                LinkwatchLinkBelowPeers{src="0",dst="1"} only if >= 3 pairs share the link type.
                No other pair may alert (the sim must keep its noise well under 20 %).
  t1+~80s       the degraded samples become the median of the 2 m window and the alert would
                clear by itself -> restore the link before ~t1+60s.
  t2 (restore)  the ratio returns to ~1 and the alert clears within a scrape or two.

Passive alerts (group linkwatch-passive; they need no baseline and can fire from t0):
  LinkwatchLinkDown / LinkwatchLinkDowntrained    the state must hold 10 s (`for`), so they fire
                  one read interval (the agent's passive.interval) + a scrape + 10 s after the fault.
  LinkwatchLinkErrorRate, LinkwatchPcieAerCorrectableRate, LinkwatchPcieReplays
                  rate over [30s] (was [5m]) above the threshold (link errors > 1/s summed per link;
                  AER correctable and PCIe replays > 8/min) for 10 s: inject a steady rate well
                  above it (e.g. 20/s, 1/s) and expect the alert ~30-40 s later.
  LinkwatchPcieAerUncorrectable   increase over [1m] (was [10m]) > 0, no `for`: fires at the first
                  evaluation after the counter steps up, resolves ~1 min after the last step. The
                  counter's series must exist (at 0) before the step: a series that appears at 1 has
                  no increase.
  LinkwatchPcieLinkDegraded       no range, 10 s `for`; the speed rule only while the device's
                  linkwatch_device_busy_reason{reason="utilization"} is 1.
  LinkwatchPassiveReadFailing     no range, 10 s `for` after linkwatch_passive_read_success turns 0.

Usage:
  live-config.py RULES_IN RULES_OUT [--for 10s] [--range 7d=2m] [--range 15m=30s]
                 [--offset 1h=30s] [--group-interval 2s]
Passing any --range / --offset replaces the corresponding defaults.
"""
import argparse
import re
import sys

DUR = r"(?:\d+(?:ms|[smhdwy]))+"


def mapping(values, default):
    out = {}
    for v in values or default:
        old, sep, new = v.partition("=")
        if not sep or not re.fullmatch(DUR, old) or not re.fullmatch(DUR, new):
            sys.exit(f"live-config: bad mapping {v!r}, expected OLD=NEW durations like 7d=2m")
        out[old] = new
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rules_in")
    ap.add_argument("rules_out")
    ap.add_argument("--for", dest="for_", default="10s", help="new value of every `for:` (default 10s)")
    ap.add_argument("--range", action="append", help="range mapping OLD=NEW (default 7d=2m, 15m=30s, 5m=30s, 10m=1m and 1d=2m)")
    ap.add_argument("--offset", action="append", help="offset mapping OLD=NEW (default 1h=30s)")
    ap.add_argument("--group-interval", help="new value of group `interval:` lines, if any")
    a = ap.parse_args()
    if not re.fullmatch(DUR, a.for_):
        sys.exit(f"live-config: bad --for {a.for_!r}")
    ranges = mapping(a.range, ["7d=2m", "15m=30s", "5m=30s", "10m=1m", "1d=2m"])
    offsets = mapping(a.offset, ["1h=30s"])

    text = open(a.rules_in, encoding="utf-8").read()
    unmapped = set()

    def r_range(m):
        if m.group(1) in ranges:
            return f"[{ranges[m.group(1)]}]"
        unmapped.add(m.group(1))
        return m.group(0)

    def r_offset(m):
        return f"offset {offsets.get(m.group(1), m.group(1))}"

    lines = []
    for line in text.split("\n"):
        if re.match(r"^\s*#", line):       # comments stay as they are
            lines.append(line)
            continue
        line = re.sub(r"^(\s*for:\s*)\S+", lambda m: m.group(1) + a.for_, line)
        if a.group_interval:
            line = re.sub(r"^(\s*interval:\s*)\S+", lambda m: m.group(1) + a.group_interval, line)
        line = re.sub(r"\[(" + DUR + r")\]", r_range, line)
        line = re.sub(r"\boffset\s+(" + DUR + r")", r_offset, line)
        lines.append(line)
    header = (f"# GENERATED by grafana/test/live-config.py from {a.rules_in} for a live test; do not deploy.\n"
              f"# for: -> {a.for_}; ranges {ranges}; offsets {offsets}"
              + (f"; group interval -> {a.group_interval}" if a.group_interval else "") + "\n")
    with open(a.rules_out, "w", encoding="utf-8") as f:
        f.write(header + "\n".join(lines))
    if unmapped:
        print(f"live-config: ranges left unchanged: {', '.join(sorted(unmapped))}", file=sys.stderr)


if __name__ == "__main__":
    main()
