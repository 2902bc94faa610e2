#!/usr/bin/env python3
"""Offline checks of grafana/dashboards/linkwatch.json (called by check.sh).

What it checks, per panel (every problem names the panel):
  structure   __inputs (DS_PROMETHEUS), __requires, the template variables datasource / instance /
              device, every data source reference is ${datasource} (no hard-coded uid), every
              non-row panel has a description and a unit and at least one query.
  parse       every PromQL expression (panel targets and label_values() variable queries), after
              substituting the dashboard variables with concrete values, is compiled by promtool
              (one recording rule per expression in a temporary rules file).
  metrics     every metric name an expression uses is in the agent's metric contract (the sample
              names of agent/src/test/resources/golden/linkwatch.prom) or is recorded by
              grafana/alerts/linkwatch.rules.yml.
  data        every expression returns at least one series against a small synthetic fixture
              host (2 dies joined by SIO) evaluated together with the real rules file by
              `promtool test rules` — this catches wrong label names and joins that parse but
              match nothing.

Only the standard library is used. Output: one line per check; exit status 1 if any failed.
Usage: check_dashboard.py DASHBOARD.json RULES.yml  (prints "PASS/FAIL ..." lines and a summary
line "dashboard: N passed, M failed").
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# The agent's metric contract: every sample name of the golden exposition, which a test in the
# agent's suite keeps equal to what the agent really exposes and which holds every kind of
# measurement (GoldenExpositionTest). No second hand-kept list.
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "../../agent/src/test/resources/golden/linkwatch.prom")


# The agent's own footprint comes from client_java's standard process instrumentation
# (metrics/AgentSelfMetrics), whose values no golden file can fix; AgentProcessTest asserts that
# the real agent exposes these two.
SELF_METRICS = {"process_resident_memory_bytes", "process_cpu_seconds_total"}


def contract(path=GOLDEN):
    names = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", line)
            if m:
                names.add(m.group(1))
    if not names:
        raise SystemExit(f"no metric names in {path}")
    return names


# Concrete values for dashboard variables (Grafana formats a multi-value/All variable used in a
# regex matcher as (a|b)). An unknown variable is an error.
SUBST = {
    "instance": "fixture-01:10187",
    "device": "(0|1)",
    "size": "268435456",
    "__rate_interval": "5m",
    "__interval": "1m",
    "__range": "1h",
    "__range_s": "3600",
    "__interval_ms": "60000",
}

KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan", "atan2", "start", "end"}

results = []  # (ok, message)


def check(ok, msg):
    results.append((bool(ok), msg))
    print(("PASS " if ok else "FAIL ") + msg)
    return ok


def substitute(expr, where):
    def repl(m):
        name = m.group(1) or m.group(2)
        name = name.split(":")[0]  # ${var:regex} -> var
        if name not in SUBST:
            raise KeyError(f"{where}: unknown dashboard variable ${name}")
        return SUBST[name]
    return re.sub(r"\$\{([^}]+)\}|\$(\w+)", repl, expr)


def metric_names(expr):
    s = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)   # strings
    s = re.sub(r"\{[^}]*\}", " ", s)                                            # label matchers
    s = re.sub(r"\[[^\]]*\]", " ", s)                                           # ranges, subqueries
    s = re.sub(r"\boffset\s+-?\w+", " ", s)                                     # offsets
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", s)
    s = re.sub(r"(?<![\w:])\d+(\.\d*)?([eE][+-]?\d+)?", " ", s)                 # numbers
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", s):
        tok = m.group(0)
        if s[m.end():].lstrip().startswith("("):
            continue  # function call or aggregation
        if tok.lower() in KEYWORDS:
            continue
        names.add(tok)
    return names


def recorded_names(rules_path):
    with open(rules_path, encoding="utf-8") as f:
        return set(re.findall(r"^\s*-\s*record:\s*['\"]?([A-Za-z_:][A-Za-z0-9_:]*)", f.read(), re.M))


def fixture_series():
    """A two-die host (SIO), 181 one-minute samples: enough history for the 1 h-offset baselines."""
    L = 'instance="fixture-01:10187",job="linkwatch"'
    n = 180
    s = []

    def add(name, labels, value):
        s.append({"series": f"{name}{{{L},{labels}}}", "values": f"{value}+0x{n}"})
    for a, b in (("0", "1"), ("1", "0")):
        add("linkwatch_p2p_bandwidth_bytes_per_second", f'src="{a}",dst="{b}",link="SIO",size_bytes="268435456"', "155e9")
        add("linkwatch_link_info", f'src="{a}",dst="{b}",link="SIO"', "1")
        add("linkwatch_probe_success", f'probe="p2p",target="{a}->{b}"', "1")
        add("linkwatch_probe_duration_seconds", f'probe="p2p",target="{a}->{b}"', "2.5")
        s.append({"series": f'linkwatch_probe_last_success_timestamp_seconds{{{L},probe="p2p",target="{a}->{b}"}}', "values": f"0+60x{n}"})
        s.append({"series": f'linkwatch_probe_runs_total{{{L},probe="p2p",target="{a}->{b}",result="success"}}', "values": f"0+1x{n}"})
    for d, phy, cpu, mem in (("0", "2", "0", "0"), ("1", "3", "4", "5")):
        add("linkwatch_device_memory_bandwidth_bytes_per_second", f'device="{d}",size_bytes="1073741824"', "621e9")
        add("linkwatch_device_memory_total_bytes", f'device="{d}"', "68719476736")
        add("linkwatch_device_info", f'device="{d}",name="Ascend910_9382",phy_id="{phy}",numa_node="-1"', "1")
        for direction, pinned, pageable in (("h2d", "58e9", "24.9e9"), ("d2h", "41e9", "25.4e9")):
            for memory, v in (("pinned", pinned), ("pageable", pageable)):
                add("linkwatch_host_transfer_bandwidth_bytes_per_second",
                    f'device="{d}",direction="{direction}",memory="{memory}",cpu_node="{cpu}",mem_node="{mem}",size_bytes="1073741824"', v)
        for memory in ("pinned", "pageable"):
            add("linkwatch_host_buffer_pages_ratio", f'device="{d}",memory="{memory}",cpu_node="{cpu}",mem_node="{mem}"', "1")
    add("linkwatch_allreduce_latency_seconds", 'devices="0,1",size_bytes="1024",quantile="0.5"', "273e-6")
    add("linkwatch_allreduce_latency_seconds", 'devices="0,1",size_bytes="1024",quantile="0.99"', "310e-6")
    add("linkwatch_allreduce_bus_bandwidth_bytes_per_second", 'devices="0,1",size_bytes="1073741824"', "105e9")
    add("linkwatch_allgather_latency_seconds", 'devices="0,1",size_bytes="1024",quantile="0.5"', "270e-6")
    add("linkwatch_allgather_latency_seconds", 'devices="0,1",size_bytes="1024",quantile="0.99"', "300e-6")
    add("linkwatch_allgather_bus_bandwidth_bytes_per_second", 'devices="0,1",size_bytes="268435456"', "115e9")
    add("linkwatch_p2p_bidirectional_bandwidth_bytes_per_second", 'src="0",dst="1",link="SIO",size_bytes="268435456"', "254e9")
    for probe in ("p2p", "p2p_bidirectional", "allreduce", "allgather", "host_transfer", "device_memory", "topology"):
        add("linkwatch_probe_interval_seconds", f'probe="{probe}"', "300")
    add("linkwatch_build_info", 'version="0.1.0",backend="sim"', "1")
    # device 1 runs a job: its p2p targets wait for an idle window
    add("linkwatch_device_busy", 'device="0"', "0")
    add("linkwatch_device_busy", 'device="1"', "1")
    s.append({"series": f'linkwatch_probe_runs_total{{{L},probe="p2p",target="0->1",result="skipped_device_busy"}}', "values": f"0+1x{n}"})
    # the agent's own footprint: 60 MB resident, 0.1 % of a core
    s.append({"series": f"process_resident_memory_bytes{{{L}}}", "values": f"60e6+0x{n}"})
    s.append({"series": f"process_cpu_seconds_total{{{L}}}", "values": f"0+0.06x{n}"})
    # allreduce hangs in HcclAllReduce; device resets fail in every p2p run
    add("linkwatch_probe_failed_call_info", 'probe="allreduce",target="0,1",call="HcclAllReduce"', "1")
    s.append({"series": f'linkwatch_driver_tolerated_failures_total{{{L},probe="p2p",call="aclrtResetDevice"}}', "values": f"0+1x{n}"})
    return s


def main():
    dash_path, rules_path = sys.argv[1], sys.argv[2]
    try:
        with open(dash_path, encoding="utf-8") as f:
            dash = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{dash_path}: not valid JSON: {e}")
        return finish()
    check(True, f"{dash_path}: valid JSON")

    # ---- structure -------------------------------------------------------------------------
    inputs = dash.get("__inputs") or []
    check(any(i.get("name") == "DS_PROMETHEUS" and i.get("type") == "datasource" and i.get("pluginId") == "prometheus"
              for i in inputs), "__inputs declares the Prometheus data source input DS_PROMETHEUS")
    check(bool(dash.get("__requires")), "__requires is present")
    tvars = {v.get("name"): v for v in dash.get("templating", {}).get("list", [])}
    ds = tvars.get("datasource", {})
    check(ds.get("type") == "datasource" and ds.get("query") == "prometheus",
          "variable datasource: type datasource, query prometheus")
    inst = tvars.get("instance", {})
    q = inst.get("query")
    q = q.get("query") if isinstance(q, dict) else q
    check(inst.get("type") == "query" and q == "label_values(linkwatch_build_info, instance)",
          "variable instance: label_values(linkwatch_build_info, instance)")
    dev = tvars.get("device", {})
    q = dev.get("query")
    q = q.get("query") if isinstance(q, dict) else q
    check(dev.get("type") == "query" and q == 'label_values(linkwatch_device_info{instance=~"$instance"}, device)'
          and dev.get("multi") is True and dev.get("includeAll") is True,
          "variable device: label_values(linkwatch_device_info{instance=~\"$instance\"}, device), multi, include all")

    bad_ds = []

    def walk(o, path):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "datasource":
                    uid = v.get("uid") if isinstance(v, dict) else v
                    if uid not in ("${datasource}", "$datasource", None):
                        bad_ds.append(f"{path}: datasource {v!r}")
                walk(v, f"{path}.{k}")
        elif isinstance(o, list):
            for i, v in enumerate(o):
                walk(v, f"{path}[{i}]")
    walk(dash, "$")
    check(not bad_ds, "every data source reference is ${datasource} (no hard-coded uid)"
          + ("" if not bad_ds else ": " + "; ".join(bad_ds)))

    # ---- panels ----------------------------------------------------------------------------
    all_panels = []
    for p in dash.get("panels", []):
        all_panels.append(p)
        all_panels.extend(p.get("panels", []))  # collapsed rows
    exprs = []  # (where, expr)
    for p in all_panels:
        if p.get("type") == "row":
            continue
        where = f"panel {p.get('id')} \"{p.get('title')}\""
        check(str(p.get("description", "")).strip(), f"{where}: has a description")
        check(str(p.get("fieldConfig", {}).get("defaults", {}).get("unit", "")).strip(), f"{where}: has a unit")
        targets = p.get("targets") or []
        check(targets and all(str(t.get("expr", "")).strip() for t in targets), f"{where}: has PromQL queries")
        for t in targets:
            if str(t.get("expr", "")).strip():
                exprs.append((f"{where} query {t.get('refId')}", t["expr"]))
    for name, v in tvars.items():
        if v.get("type") != "query":
            continue
        q = v.get("query")
        q = q.get("query") if isinstance(q, dict) else q
        m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\s*\)\s*", q or "", re.S)
        if m:
            exprs.append((f"variable ${name}", m.group(1)))
        else:
            check(re.fullmatch(r"\s*label_values\(\s*\w+\s*\)\s*", q or ""), f"variable ${name}: query {q!r} understood")

    # ---- substitution, metric names ---------------------------------------------------------
    known = contract() | recorded_names(rules_path) | SELF_METRICS
    concrete = []
    for where, e in exprs:
        try:
            c = substitute(e, where)
        except KeyError as err:
            check(False, str(err))
            continue
        concrete.append((where, c))
        unknown = sorted(metric_names(c) - known)
        check(not unknown, f"{where}: metric names are in the contract or recorded"
              + ("" if not unknown else f" — unknown: {', '.join(unknown)} in {e!r}"))

    tmp = tempfile.mkdtemp(prefix="linkwatch-dash-")
    # ---- parse: one recording rule per expression -------------------------------------------
    groups = [{"name": f"expr-{i}", "rules": [{"record": f"dashboard_check_{i}", "expr": c}]}
              for i, (where, c) in enumerate(concrete)]
    parse_file = os.path.join(tmp, "parse.rules.json")
    with open(parse_file, "w", encoding="utf-8") as f:
        json.dump({"groups": groups}, f, indent=1)
    r = subprocess.run(["promtool", "check", "rules", parse_file], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    failed = {}
    for line in r.stdout.splitlines():
        m = re.search(r'group "expr-(\d+)", rule \d+, "dashboard_check_\d+": (.*)', line)
        if m:
            failed[concrete[int(m.group(1))][0]] = m.group(2)
    if r.returncode != 0 and not failed:
        check(False, f"promtool check rules on the dashboard expressions failed:\n{r.stdout}")
    for where, c in concrete:
        check(where not in failed, f"{where}: PromQL parses" + (f" — {failed.get(where)}: {c}" if where in failed else ""))

    # ---- data: every expression returns something on the fixture ----------------------------
    alerts, names = [], {}
    for i, (where, c) in enumerate(concrete):
        if where in failed:
            continue
        an = f"DashboardExpr{i}"
        names[an] = (where, c)
        alerts.append({"alert": an, "expr": f"count({c}) > 0"})
    alert_file = os.path.join(tmp, "dashboard.rules.json")
    with open(alert_file, "w", encoding="utf-8") as f:
        json.dump({"groups": [{"name": "dashboard-expressions", "rules": alerts}]}, f, indent=1)
    test_file = os.path.join(tmp, "dashboard.test.json")
    with open(test_file, "w", encoding="utf-8") as f:
        json.dump({"rule_files": [os.path.abspath(rules_path), alert_file], "evaluation_interval": "1m",
                   "tests": [{"interval": "1m", "input_series": fixture_series(),
                              "alert_rule_test": [{"eval_time": "150m", "alertname": an,
                                                   "exp_alerts": [{"exp_labels": {}}]} for an in names]}]}, f, indent=1)
    r = subprocess.run(["promtool", "test", "rules", test_file], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    empty = set(re.findall(r"(?:alertname|rule): (DashboardExpr\d+)", r.stdout))
    errors = dict(re.findall(r"rule: (DashboardExpr\d+), time: [^,]*, err: (.*)", r.stdout))
    if r.returncode != 0 and not empty:
        check(False, f"promtool test rules on the dashboard fixture failed:\n{r.stdout}")
    for an, (where, c) in names.items():
        check(an not in empty, f"{where}: returns data on the fixture host"
              + ("" if an not in empty else f" — {'error: ' + errors[an] if an in errors else 'empty result'} for: {c}"))
    return finish()


def finish():
    passed = sum(1 for ok, _ in results if ok)
    failed = len(results) - passed
    print(f"dashboard: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
