#!/usr/bin/env python3
"""Offline checks of the linkwatch Grafana dashboards (called by check.sh).

Two dashboards, told apart by their uid:
  linkwatch-links   dashboards/linkwatch.json        one host in detail
  linkwatch-fleet   dashboards/linkwatch-fleet.json  many hosts (the linkwatch-fleet rule group)

What it checks, per panel (every problem names the panel):
  structure   __inputs (DS_PROMETHEUS), __requires (and every panel type used is declared there),
              the template variables (host: datasource / instance / device; fleet: datasource /
              cluster / instance, both multi-value with All = .*), every data source reference is
              ${datasource} (no hard-coded uid), panel ids are unique, panels sit in rows and do not
              overlap, every non-row panel has a description, a unit and at least one query, every
              transformation is a real Grafana transformation.
              Fleet only: the tags are the host dashboard's plus "fleet"; every selector of every
              panel query filters with cluster=~"$cluster" and (where the series has an instance
              label) instance=~"$instance"; up is selected with job="linkwatch".
  links       every link to a dashboard (/d/<uid>: dashboard links, panel links, field data links)
              names the uid of a dashboard in the same folder, sets only variables (var-<name>) that
              dashboard has, and uses only known ${...} references (this dashboard's variables,
              ${__data.fields.<f>}, ${__field.labels.<l>}, ${__url_time_range}, ...).
              Fleet only: a dashboard link to the host dashboard (linkwatch-links) keeping time and
              variables; every table has a data link into the host dashboard, and every data link
              into it passes var-instance from the clicked row or series and var-datasource.
  parse       every PromQL expression (panel targets and label_values() variable queries), after
              substituting the dashboard variables with concrete values, is compiled by promtool
              (one recording rule per expression in a temporary rules file).
  metrics     every metric name an expression uses is in the agent's metric contract (the sample
              names of agent/src/test/resources/golden/linkwatch.prom), is recorded by
              grafana/alerts/linkwatch.rules.yml, or is one of Prometheus' own series (up, ALERTS).
  data        every expression returns at least one series against a synthetic fixture evaluated
              together with the real rules file by `promtool test rules` — this catches wrong label
              names and joins that parse but match nothing. Host: one fixture host (2 dies joined by
              SIO). Fleet: six hosts built from the same fixture in clusters east and west, one with
              a degraded pair that fires LinkwatchLinkBelowFleet, one agent not scraped (up == 0,
              fires LinkwatchAgentDown), one that nothing scrapes from t=100m (its up series ends,
              fires LinkwatchTargetMissing), so the ALERTS-based queries see real alerts; the fixture
              itself is checked to do what it is meant to. Every label a data link reads
              (${__data.fields.instance}, ${__field.labels.instance}) must be on the results of the
              queries it applies to.

Only the standard library is used. Output: one line per check; exit status 1 if any failed.
With --victoria, the data checks run a second time against VictoriaMetrics' query API: the same
fixture imported into a store of its own, the rules replayed over it by `vmalert -replay`
(victoria.py), each expression an instant query at the same time. That is what the fleet
dashboard reads in deploy/large-fleet.

Usage: check_dashboard.py DASHBOARD.json RULES.yml [--victoria]  (prints "PASS/FAIL ..." lines and a summary
line "dashboard: N passed, M failed").
"""
import glob
import json
import os
import re
import shutil
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

# Series Prometheus writes itself: the scrape health of every target and the state of every alert.
PROMETHEUS_SERIES = {"up", "ALERTS", "ALERTS_FOR_STATE"}

HOST_UID = "linkwatch-links"
FLEET_UID = "linkwatch-fleet"


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


# The fleet fixture: hosts built from fixture_series() with target labels, as file_sd /
# relabeling would add them. (instance, target labels, p2p values per (src, dst) that differ
# from the healthy 155 GB/s, 1 sample per minute from t=0 to t=180m.)
FLEET_HOSTS = (
    ("fixture-01:10187", 'cluster="east",rack="r1"', {}),
    # 1->0 drops to 120 GB/s at t=120m: 0.77 of its baseline (LinkwatchLinkBandwidthLow)
    ("fixture-02:10187", 'cluster="east",rack="r1"', {("1", "0"): "155e9+0x119 120e9+0x60"}),
    # 0->1 is slow from its first run: its own baseline is as bad, 0.65 of the fleet median
    # (LinkwatchLinkBelowFleet, east has 4 hosts >= 3)
    ("fixture-03:10187", 'cluster="east",rack="r2"', {("0", "1"): "100e9+0x180"}),
    # every allreduce run fails (see fleet_fixture_series)
    ("fixture-04:10187", 'cluster="east",rack="r2"', {}),
    ("fixture-05:10187", 'cluster="west",rack="r9"', {}),
)
# an agent Prometheus cannot scrape: only up == 0 (LinkwatchAgentDown)
FLEET_DOWN = ("fixture-06:10187", 'cluster="west",rack="r9"')
# an agent nothing scrapes any more since t=100m (its scrape shard stopped): its up series ends
# (LinkwatchTargetMissing)
FLEET_GONE = ("fixture-07:10187", 'cluster="west",rack="r9"')

# Concrete values for dashboard variables (Grafana formats a multi-value/All variable used in a
# regex matcher as (a|b)). An unknown variable is an error.
SUBST = {
    "instance": "fixture-01:10187",
    "device": "(0|1)",
    "size": "268435456",
    "cluster": "(east|west)",
    "__rate_interval": "5m",
    "__interval": "1m",
    "__range": "1h",
    "__range_s": "3600",
    "__interval_ms": "60000",
}
# The fleet dashboard's instance variable is multi-value: several hosts of both clusters selected.
FLEET_SUBST = dict(SUBST, instance="(" + "|".join([h[0] for h in FLEET_HOSTS] + [FLEET_DOWN[0], FLEET_GONE[0]]) + ")")

KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan", "atan2", "start", "end"}

# Grafana's transformation ids (DataTransformerID, Grafana 10/11).
TRANSFORMATIONS = {
    "append", "reduce", "order", "organize", "rename", "calculateField", "seriesToColumns",
    "seriesToRows", "merge", "concatenate", "labelsToFields", "filterFields", "filterFieldsByName",
    "filterFrames", "filterByRefId", "renameByRegex", "filterByValue", "noop", "ensureColumns",
    "groupBy", "sortBy", "histogram", "configFromData", "rowsToFields", "prepareTimeSeries",
    "convertFieldType", "fieldLookup", "heatmap", "spatial", "joinByField", "joinByLabels",
    "extractFields", "groupingToMatrix", "limit", "partitionByValues", "timeSeriesTable",
    "formatTime", "formatString", "regression", "groupToNestedTable",
}

# ${...} references a link may use besides the dashboard's own variables.
LINK_BUILTINS = re.compile(r"__url_time_range|__from|__to|__all_variables|__series\.name|__field\.name"
                           r"|__value\.(raw|numeric|text|time|calc)|__data\.rowIndex"
                           r"|__data\.fields\.[\w.]+|__data\.fields\[\"[^\"]+\"\]|__field\.labels\.\w+")

results = []  # (ok, message)


def check(ok, msg):
    results.append((bool(ok), msg))
    print(("PASS " if ok else "FAIL ") + msg)
    return ok


def substitute(expr, where, subst=SUBST):
    def repl(m):
        name = m.group(1) or m.group(2)
        name = name.split(":")[0]  # ${var:regex} -> var
        if name.isdigit():
            return m.group(0)  # $1 in label_replace: a regex group, which Grafana leaves alone
        if name not in subst:
            raise KeyError(f"{where}: unknown dashboard variable ${name}")
        return subst[name]
    return re.sub(r"\$\{([^}]+)\}|\$(\w+)", repl, expr)


STRINGS = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`'


def metric_names(expr):
    s = re.sub(STRINGS, '""', expr)                                             # strings
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


def selectors(expr, names):
    """Every occurrence of a metric of `names` in expr: (metric, [(label, op, value), ...])."""
    # strings masked with the same length, so positions stay and no brace inside a string counts
    masked = re.sub(STRINGS, lambda m: m.group(0)[0] + "x" * (len(m.group(0)) - 2) + m.group(0)[-1], expr)
    out = []
    for name in names:
        for m in re.finditer(r"(?<![\w:])" + re.escape(name) + r"(?![\w:])\s*(\{[^}]*\})?", masked):
            block = expr[m.start(1):m.end(1)] if m.group(1) else ""
            out.append((name, re.findall(r'([A-Za-z_]\w*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"', block)))
    return out


def recorded_names(rules_path):
    with open(rules_path, encoding="utf-8") as f:
        return set(re.findall(r"^\s*-\s*record:\s*['\"]?([A-Za-z_:][A-Za-z0-9_:]*)", f.read(), re.M))


def recorded_exprs(rules_path):
    """{recorded name: expression} from the rules file (one-line and block-scalar exprs)."""
    with open(rules_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"^\s*-\s*record:\s*['\"]?([A-Za-z_:][A-Za-z0-9_:]*)", line)
        if not m:
            continue
        for j in range(i + 1, min(i + 4, len(lines))):
            em = re.match(r"^(\s*)expr:\s*(.*)$", lines[j])
            if not em:
                continue
            rest = em.group(2).strip()
            if rest[:1] in ("|", ">"):
                indent, body = len(em.group(1)), []
                for k in range(j + 1, len(lines)):
                    if lines[k].strip() and len(lines[k]) - len(lines[k].lstrip()) <= indent:
                        break
                    body.append(lines[k].strip())
                out[m.group(1)] = " ".join(body)
            else:
                out[m.group(1)] = rest.strip("'\"")
            break
    return out


def drops_label(expr, label):
    """True when a recorded expression's outermost aggregation removes `label`."""
    m = re.match(r"\s*(?:sum|min|max|avg|count|quantile|stddev|stdvar|group|topk|bottomk|count_values)"
                 r"\s+(by|without)\s*\(([^)]*)\)", expr)
    if not m:
        return False
    labels = {x.strip() for x in m.group(2).split(",")}
    return (label not in labels) if m.group(1) == "by" else (label in labels)


def fixture_series(instance="fixture-01:10187", labels="", p2p=None):
    """A two-die host (SIO), 181 one-minute samples: enough history for the 1 h-offset baselines.

    instance and labels (extra target labels such as cluster="east",rack="r1") make it one host
    of a fleet; p2p maps (src, dst) to the values of that pair when they differ from 155 GB/s."""
    L = f'instance="{instance}",job="linkwatch"' + (f",{labels}" if labels else "")
    n = 180
    s = []

    def add(name, labels, value):
        s.append({"series": f"{name}{{{L},{labels}}}", "values": f"{value}+0x{n}"})
    for a, b in (("0", "1"), ("1", "0")):
        s.append({"series": f'linkwatch_p2p_bandwidth_bytes_per_second{{{L},src="{a}",dst="{b}",link_type="SIO",size_bytes="268435456"}}',
                  "values": (p2p or {}).get((a, b), f"155e9+0x{n}")})
        add("linkwatch_link_info", f'src="{a}",dst="{b}",link_type="SIO"', "1")
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
    add("linkwatch_p2p_bidirectional_bandwidth_bytes_per_second", 'src="0",dst="1",link_type="SIO",size_bytes="268435456"', "254e9")
    for probe in ("p2p", "p2p_bidirectional", "allreduce", "allgather", "host_transfer", "device_memory", "topology"):
        add("linkwatch_probe_interval_seconds", f'probe="{probe}"', "300")
    add("linkwatch_build_info", 'version="0.1.0",backend="sim"', "1")
    # device 1 runs a job: its p2p targets wait for an idle window
    add("linkwatch_device_busy", 'device="0"', "0")
    add("linkwatch_device_busy", 'device="1"', "1")
    s.append({"series": f'linkwatch_probe_runs_total{{{L},probe="p2p",target="0->1",result="skipped_device_busy"}}', "values": f"0+1x{n}"})
    add("linkwatch_probe_deferred", 'probe="p2p",target="0->1"', "1")
    add("linkwatch_probe_deferred", 'probe="p2p",target="1->0"', "0")
    # the agent's own footprint: 60 MB resident, 0.1 % of a core
    s.append({"series": f"process_resident_memory_bytes{{{L}}}", "values": f"60e6+0x{n}"})
    s.append({"series": f"process_cpu_seconds_total{{{L}}}", "values": f"0+0.06x{n}"})
    # its passive watcher: 52 MB resident, 0.05 % of a core; the probes held each die 2 % of the time
    s.append({"series": f"linkwatch_passive_watcher_resident_memory_bytes{{{L}}}", "values": f"52e6+0x{n}"})
    s.append({"series": f"linkwatch_passive_watcher_cpu_seconds_total{{{L}}}", "values": f"0+0.03x{n}"})
    for d in ("0", "1"):
        s.append({"series": f'linkwatch_probe_device_seconds_total{{{L},device="{d}"}}', "values": f"0+1.2x{n}"})
    # allreduce hangs in HcclAllReduce; device resets fail in every p2p run
    add("linkwatch_probe_failed_call_info", 'probe="allreduce",target="0,1",call="HcclAllReduce"', "1")
    s.append({"series": f'linkwatch_driver_tolerated_failures_total{{{L},probe="p2p",call="aclrtResetDevice"}}', "values": f"0+1x{n}"})
    # passive link watching (healthy): per die one HCCS link (peer not known) and the SIO link to
    # the other die (no state, lane or traffic series: SIO has only CRC counters), the PCIe path
    # device -> bridge -> root port, AER counters, and the dcmi/sysfs read health
    for d, other, bus in (("0", "1", "3b"), ("1", "0", "3c")):
        hccs = f'device="{d}",link="1",link_type="HCCS",peer="unknown"'
        sio = f'device="{d}",link="0",link_type="SIO",peer="{other}"'
        add("linkwatch_link_up", hccs, "1")
        add("linkwatch_link_lanes", hccs, "4")
        add("linkwatch_link_lanes_max", hccs, "4")
        s.append({"series": f"linkwatch_link_transmit_bytes_total{{{L},{hccs}}}", "values": f"0+1.2e12x{n}"})
        s.append({"series": f"linkwatch_link_receive_bytes_total{{{L},{hccs}}}", "values": f"0+1.1e12x{n}"})
        for kind in ("crc", "retry"):
            s.append({"series": f'linkwatch_link_errors_total{{{L},{hccs},kind="{kind}"}}', "values": f"0+1x{n}"})
        for kind in ("crc_tx", "crc_rx"):
            s.append({"series": f'linkwatch_link_errors_total{{{L},{sio},kind="{kind}"}}', "values": f"0+0x{n}"})
        for addr, role in ((f"0000:{bus}:00.0", "device"), (f"0000:{int(bus, 16) - 1:02x}:00.0", "bridge"), (f"0000:{bus[0]}0:01.0", "root_port")):
            hop = f'device="{d}",pci_address="{addr}",role="{role}"'
            add("linkwatch_pcie_link_speed_transfers_per_second", hop, "32e9")
            add("linkwatch_pcie_link_max_speed_transfers_per_second", hop, "32e9")
            add("linkwatch_pcie_link_width", hop, "16")
            add("linkwatch_pcie_link_max_width", hop, "16")
            for severity in ("correctable", "nonfatal", "fatal"):
                s.append({"series": f'linkwatch_pcie_aer_errors_total{{{L},{hop},severity="{severity}"}}',
                          "values": f"0+{1 if severity == 'correctable' else 0}x{n}"})
        for source in ("dcmi", "sysfs"):
            add("linkwatch_passive_read_success", f'source="{source}",device="{d}"', "1")
    for source in ("dcmi", "sysfs"):
        s.append({"series": f'linkwatch_passive_reads_total{{{L},source="{source}",result="success"}}', "values": f"0+4x{n}"})
        add("linkwatch_passive_read_duration_seconds", f'source="{source}"', "0.02")
        s.append({"series": f'linkwatch_passive_last_read_timestamp_seconds{{{L},source="{source}"}}', "values": f"0+60x{n}"})
    s.append({"series": f"linkwatch_passive_interval_seconds{{{L}}}", "values": f"15+0x{n}"})
    # ports to other servers: each die's own RoCE port (hccn_tool) at its expected 400 Gb/s, with
    # optics, LLDP neighbour, address and net health, and one InfiniBand adapter port (no device)
    for d in ("0", "1"):
        port = f'device="{d}",nic="npu{d}",port="0"'
        add("linkwatch_nic_up", f'{port},link_layer="Ethernet"', "1")
        add("linkwatch_nic_was_up", port, "1")
        add("linkwatch_nic_speed_bytes_per_second", port, "5e10")
        add("linkwatch_nic_expected_speed_bytes_per_second", port, "5e10")
        s.append({"series": f"linkwatch_nic_transmit_bytes_total{{{L},{port}}}", "values": f"0+6e10x{n}"})
        s.append({"series": f"linkwatch_nic_receive_bytes_total{{{L},{port}}}", "values": f"0+6e10x{n}"})
        s.append({"series": f"linkwatch_nic_link_ups_total{{{L},{port}}}", "values": f"1+0x{n}"})
        for kind in ("roce_new_pkt_rty", "mac_rx_fcs_err_pkt", "mac_rx_bad_oct"):
            s.append({"series": f'linkwatch_nic_errors_total{{{L},{port},kind="{kind}"}}', "values": f"0+1x{n}"})
        for lane in ("0", "1", "2", "3"):
            add("linkwatch_nic_optical_rx_power_watts", f'{port},lane="{lane}"', "0.00102")
            add("linkwatch_nic_optical_tx_power_watts", f'{port},lane="{lane}"', "0.0011")
        for state, v in (("success", "1"), ("socket_fail", "0"), ("init", "0")):
            add("linkwatch_nic_net_health", f'{port},state="{state}"', v)
        add("linkwatch_nic_info", f'{port},source="hccn_tool",link_layer="Ethernet",state="ACTIVE",phys_state="",netdev="",'
            f'address="192.168.100.1{d}",lldp_system="leaf-01",lldp_port="400GE1/0/{d}"', "1")
    ib = 'nic="mlx5_0",port="1"'
    add("linkwatch_nic_up", f'{ib},link_layer="InfiniBand"', "1")
    add("linkwatch_nic_speed_bytes_per_second", ib, "5e10")
    add("linkwatch_nic_info", f'{ib},source="infiniband",link_layer="InfiniBand",state="ACTIVE",phys_state="LinkUp",netdev="ib0"', "1")
    return s


def fleet_fixture_series():
    """FLEET_HOSTS (each the fixture host with its target labels), their up series, and FLEET_DOWN."""
    s = []
    for instance, labels, p2p in FLEET_HOSTS:
        s.extend(fixture_series(instance, labels, p2p))
        s.append({"series": f'up{{instance="{instance}",job="linkwatch",{labels}}}', "values": "1+0x180"})
    s.append({"series": 'linkwatch_probe_success{instance="fixture-04:10187",job="linkwatch",cluster="east",rack="r2",'
                        'probe="allreduce",target="0,1"}', "values": "0+0x180"})
    s.append({"series": f'up{{instance="{FLEET_DOWN[0]}",job="linkwatch",{FLEET_DOWN[1]}}}', "values": "0+0x180"})
    s.append({"series": f'up{{instance="{FLEET_GONE[0]}",job="linkwatch",{FLEET_GONE[1]}}}', "values": "1+0x100"})
    # probes between servers: fixture-01 and fixture-02 find fixture-04 unreachable (two sources:
    # LinkwatchPeerUnreachable), fixture-03 fails to most of its peers through eth0 (it names
    # itself: LinkwatchPeerNicFailing); every host reports its peers by verdict and a round trip
    for instance, labels, _ in FLEET_HOSTS:
        host = f'instance="{instance}",job="linkwatch",{labels}'
        bad = {"fixture-01:10187": ("unreachable", 1), "fixture-02:10187": ("unreachable", 1),
               "fixture-03:10187": ("lossy", 3)}.get(instance)
        for verdict in ("ok", "lossy", "unreachable", "agent_down"):
            n = (4 - bad[1] if bad else 4) if verdict == "ok" else (bad[1] if bad and bad[0] == verdict else 0)
            s.append({"series": f'linkwatch_peer_paths{{{host},src_nic="eth0",verdict="{verdict}"}}',
                      "values": f"{n}+0x180"})
        # Each host's first NPU port pinged the same port of its 4 peers; fixture-02's is dead.
        for verdict in ("ok", "lossy", "unreachable"):
            dead = instance == "fixture-02:10187"
            n = (0 if dead else 4) if verdict == "ok" else (4 if dead and verdict == "unreachable" else 0)
            s.append({"series": f'linkwatch_peer_paths{{{host},src_nic="npu0",verdict="{verdict}"}}',
                      "values": f"{n}+0x180"})
        s.append({"series": f'linkwatch_peer_path_rtt_seconds{{{host},src_host="{instance}",src_nic="eth0",'
                            f'dst_host="fixture-05:10187",dst_nic="eth0",quantile="0.99"}}',
                  "values": "0.0004+0x180"})
        if instance in ("fixture-01:10187", "fixture-02:10187"):
            s.append({"series": f'linkwatch_peer_suspect{{{host},kind="peer",suspect_host="fixture-04:10187",'
                                f'suspect_nic="",verdict="unreachable"}}', "values": "_x120 1+0x60"})
        if instance == "fixture-03:10187":
            s.append({"series": f'linkwatch_peer_suspect{{{host},kind="self",suspect_host="{instance}",'
                                f'suspect_nic="eth0",verdict="lossy"}}', "values": "_x120 1+0x60"})
    # two-host allreduce: each pair's figures from its prober (the member that sorts first);
    # fixture-03's port is slow and its pair with fixture-01 failed its last run
    for instance, labels, _ in FLEET_HOSTS:
        host = f'instance="{instance}",job="linkwatch",{labels}'
        for peer in ("fixture-05:10187",):
            rate = "2e9" if instance == "fixture-03:10187" else "2e10"
            s.append({"series": f'linkwatch_peer_allreduce_bus_bandwidth_bytes_per_second{{{host},'
                                f'src_host="{instance}",dst_host="{peer}",size_bytes="67108864"}}',
                      "values": f"{rate}+0x180"})
            s.append({"series": f'linkwatch_peer_allreduce_success{{{host},src_host="{instance}",'
                                f'dst_host="{peer}"}}', "values": "1+0x180"})
        if instance == "fixture-01:10187":
            s.append({"series": f'linkwatch_peer_allreduce_success{{{host},src_host="{instance}",'
                                f'dst_host="fixture-03:10187"}}', "values": "0+0x180"})
        # the point to point: fixture-03 sends slowly, receives at full rate
        for src, dst in ((instance, "fixture-05:10187"), ("fixture-05:10187", instance)):
            rate = "2e9" if src == "fixture-03:10187" else "2.3e10"
            s.append({"series": f'linkwatch_peer_p2p_bandwidth_bytes_per_second{{{host},'
                                f'src_host="{src}",dst_host="{dst}",size_bytes="67108864"}}',
                      "values": f"{rate}+0x180"})
        s.append({"series": f'linkwatch_peer_p2p_bidirectional_bandwidth_bytes_per_second{{{host},'
                            f'src_host="{instance}",dst_host="fixture-05:10187",size_bytes="67108864"}}',
                  "values": "4.4e10+0x180"})
    # fixture-03's slow link failed its prolog's quick check; fixture-01's passed
    for instance, labels, state in (("fixture-03:10187", 'cluster="east",rack="r2"', "FAIL"),
                                    ("fixture-01:10187", 'cluster="east",rack="r1"', "OK")):
        host = f'instance="{instance}",job="linkwatch",{labels},level="quick"'
        for st in ("OK", "WARN", "UNKNOWN", "FAIL"):
            s.append({"series": f'linkwatch_check_state{{{host},state="{st}"}}',
                      "values": f"{1 if st == state else 0}+0x180"})
        if state != "OK":
            s.append({"series": f'linkwatch_check_reason_info{{{host},code="LW-BELOW-FLOOR",'
                                f'subject="p2p 0->1 SIO 256MiB"}}', "values": "1+0x180"})
    # every agent's device health; fixture-03's agent names its slow 0->1, which fails both dies' links
    for instance, labels, _ in FLEET_HOSTS:
        host = f'instance="{instance}",job="linkwatch",{labels}'
        slow = instance == "fixture-03:10187"
        for device in ("0", "1"):
            for subsystem in ("links", "pcie", "host_transfer"):
                value = 2 if slow and subsystem == "links" else 0
                s.append({"series": f'linkwatch_device_health{{{host},device="{device}",'
                                    f'subsystem="{subsystem}"}}', "values": f"{value}+0x180"})
        if slow:
            s.append({"series": f'linkwatch_finding{{{host},code="LW-BELOW-FLOOR",'
                                f'subject="p2p 0->1 SIO 256MiB"}}', "values": "1+0x180"})
    return s


# What the fleet fixture must do for the data checks to mean something (message, expression that
# returns data when it holds).
FLEET_FIXTURE_CHECKS = (
    ("fleet fixture: cluster east has >= 3 hosts per link type (the fleet alert's guard)",
     'linkwatch:p2p_bandwidth_bytes_per_second:fleet_hosts{cluster="east"} >= 3'),
    ("fleet fixture: LinkwatchLinkBelowFleet fires for the degraded pair fixture-03 0->1",
     'ALERTS{alertname="LinkwatchLinkBelowFleet",alertstate="firing",instance="fixture-03:10187",src="0",dst="1"}'),
    ("fleet fixture: LinkwatchLinkBandwidthLow fires for fixture-02 1->0 (dropped at t=120m)",
     'ALERTS{alertname="LinkwatchLinkBandwidthLow",alertstate="firing",instance="fixture-02:10187",src="1",dst="0"}'),
    ("fleet fixture: LinkwatchAgentDown fires (critical) for the agent not scraped, fixture-06",
     'ALERTS{alertname="LinkwatchAgentDown",alertstate="firing",severity="critical",instance="fixture-06:10187"}'),
    ("fleet fixture: LinkwatchTargetMissing fires (critical) for the agent nothing scrapes, fixture-07",
     'ALERTS{alertname="LinkwatchTargetMissing",alertstate="firing",severity="critical",instance="fixture-07:10187"}'),
    ("fleet fixture: fixture-03's agent names its slow pair and fails both dies' links, the others none",
     'count(linkwatch_device_health == 2) == 2 and on() count(linkwatch_finding) == 1'),
    ("fleet fixture: LinkwatchPeerUnreachable fires for fixture-04, named by two other hosts of its cluster",
     'ALERTS{alertname="LinkwatchPeerUnreachable",alertstate="firing",instance="fixture-04:10187",cluster="east"}'),
    ("fleet fixture: LinkwatchPeerNicFailing fires for fixture-03, which names itself",
     'ALERTS{alertname="LinkwatchPeerNicFailing",alertstate="firing",instance="fixture-03:10187",kind="self"}'),
    ("fleet fixture: LinkwatchTargetMissing fires for that host only (every other host is scraped to the end)",
     'count(ALERTS{alertname="LinkwatchTargetMissing",alertstate="firing"}) == 1'),
)

KINDS = {
    HOST_UID: {"name": "host", "subst": SUBST, "fixture": fixture_series, "fixture_checks": ()},
    FLEET_UID: {"name": "fleet", "subst": FLEET_SUBST, "fixture": fleet_fixture_series,
                "fixture_checks": FLEET_FIXTURE_CHECKS},
}


def var_query(v):
    q = v.get("query")
    return q.get("query") if isinstance(q, dict) else q


def check_variables(kind, tvars):
    ds = tvars.get("datasource", {})
    check(ds.get("type") == "datasource" and ds.get("query") == "prometheus",
          "variable datasource: type datasource, query prometheus")
    if kind == HOST_UID:
        inst = tvars.get("instance", {})
        check(inst.get("type") == "query" and var_query(inst) == "label_values(linkwatch_build_info, instance)",
              "variable instance: label_values(linkwatch_build_info, instance)")
        dev = tvars.get("device", {})
        check(dev.get("type") == "query" and var_query(dev) == 'label_values(linkwatch_device_info{instance=~"$instance"}, device)'
              and dev.get("multi") is True and dev.get("includeAll") is True,
              "variable device: label_values(linkwatch_device_info{instance=~\"$instance\"}, device), multi, include all")
    else:
        for name, q in (("cluster", "label_values(linkwatch_build_info, cluster)"),
                        ("instance", 'label_values(linkwatch_build_info{cluster=~"$cluster"}, instance)')):
            v = tvars.get(name, {})
            check(v.get("type") == "query" and var_query(v) == q and v.get("multi") is True
                  and v.get("includeAll") is True and v.get("allValue") == ".*",
                  f"variable {name}: {q}, multi, include all with allValue .* (matches an absent label too)")


def link_dicts(p):
    """(link, refId or None) for the panel's links: panel links, default field links, overrides."""
    out = [(l, None) for l in p.get("links") or []]
    fc = p.get("fieldConfig", {})
    out += [(l, None) for l in fc.get("defaults", {}).get("links") or []]
    for o in fc.get("overrides") or []:
        m = o.get("matcher", {})
        ref = m.get("options") if m.get("id") == "byFrameRefID" else None
        for prop in o.get("properties") or []:
            if prop.get("id") == "links":
                out += [(l, ref) for l in prop.get("value") or []]
    return out


def link_refs(text):
    return [r.split(":")[0] if not r.startswith("__data.fields[") else r
            for r in re.findall(r"\$\{([^}]+)\}", text or "")]


def link_label(ref):
    """The series label a field/label reference of a data link reads, or None."""
    m = re.fullmatch(r"__data\.fields\.(\w+)|__data\.fields\[\"([^\"]+)\"\]|__field\.labels\.(\w+)", ref)
    return next((g for g in m.groups() if g), None) if m else None


def dashboards_by_uid(folder):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(d, dict) and d.get("uid"):
            out[d["uid"]] = (os.path.basename(path), d)
    return out


def main():
    dash_path, rules_path = sys.argv[1], sys.argv[2]
    try:
        with open(dash_path, encoding="utf-8") as f:
            dash = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{dash_path}: not valid JSON: {e}")
        return finish()
    check(True, f"{dash_path}: valid JSON")
    kind = dash.get("uid")
    if not check(kind in KINDS, f"uid {kind!r} is a known linkwatch dashboard ({', '.join(sorted(KINDS))})"):
        return finish()
    spec = KINDS[kind]
    others = dashboards_by_uid(os.path.dirname(os.path.abspath(dash_path)))
    host = others.get(HOST_UID, (None, {}))[1]

    # ---- structure -------------------------------------------------------------------------
    inputs = dash.get("__inputs") or []
    check(any(i.get("name") == "DS_PROMETHEUS" and i.get("type") == "datasource" and i.get("pluginId") == "prometheus"
              for i in inputs), "__inputs declares the Prometheus data source input DS_PROMETHEUS")
    check(bool(dash.get("__requires")), "__requires is present")
    tvars = {v.get("name"): v for v in dash.get("templating", {}).get("list", [])}
    check_variables(kind, tvars)
    if kind == FLEET_UID:
        want = set(host.get("tags") or []) | {"fleet"}
        check(host and want <= set(dash.get("tags") or []),
              f"tags include the host dashboard's tags and fleet ({', '.join(sorted(want))})")

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
    ids = [p.get("id") for p in all_panels]
    dup = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    check(not dup, "panel ids are unique" + ("" if not dup else f": duplicated {dup}"))
    top = dash.get("panels", [])
    check(top and top[0].get("type") == "row", "panels are arranged in rows (the first panel is a row)")
    cells, overlaps = {}, set()
    for p in top:
        g = p.get("gridPos", {})
        for x in range(g.get("x", 0), g.get("x", 0) + g.get("w", 0)):
            for y in range(g.get("y", 0), g.get("y", 0) + g.get("h", 0)):
                if (x, y) in cells and cells[(x, y)] != p.get("id"):
                    overlaps.add(tuple(sorted((str(cells[(x, y)]), str(p.get("id"))))))
                cells[(x, y)] = p.get("id")
    check(not overlaps, "panels do not overlap" + ("" if not overlaps else f": {sorted(overlaps)}"))
    required = {r.get("id") for r in dash.get("__requires") or [] if r.get("type") == "panel"}
    used = {p.get("type") for p in all_panels if p.get("type") != "row"}
    check(used <= required, "every panel type is declared in __requires"
          + ("" if used <= required else f" — missing: {', '.join(sorted(used - required))}"))

    exprs = []  # (where, expr)
    panel_exprs = []  # (where, expr) of panel targets only
    link_checks = []  # (where, refId or None, label, panel)
    known_fields = set()
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
                panel_exprs.append((f"{where} query {t.get('refId')}", t["expr"]))
        trans = p.get("transformations") or []
        unknown_t = [t.get("id") for t in trans if t.get("id") not in TRANSFORMATIONS]
        if trans:
            check(not unknown_t, f"{where}: transformations are Grafana transformations"
                  + ("" if not unknown_t else f" — unknown: {unknown_t}"))
        # fields a data link can read after the transformations
        matrix = [t.get("options", {}) for t in trans if t.get("id") == "groupingToMatrix"]
        renamed, excluded = {}, set()
        for t in trans:
            if t.get("id") in ("organize", "rename"):
                o = t.get("options", {})
                renamed.update(o.get("renameByName") or {})
                excluded |= {k for k, v in (o.get("excludeByName") or {}).items() if v}
        seen = set()
        for link, ref in link_dicts(p):
            for r in link_refs(link.get("url", "")) + link_refs(link.get("title", "")):
                label = link_label(r)
                if not label or (ref, r) in seen:
                    continue
                seen.add((ref, r))
                if r.startswith("__data.fields"):
                    if matrix:
                        rowcol = f"{matrix[-1].get('rowField')}\\{matrix[-1].get('columnField')}"
                        ok = renamed.get(rowcol) == label
                        check(ok, f"{where}: data link field {label!r} exists after groupingToMatrix"
                              + ("" if ok else f" (its row field is named {rowcol!r}; rename it with organize)"))
                        label = matrix[-1].get("rowField")
                    else:
                        check(label not in excluded, f"{where}: data link field {label!r} is not hidden by organize")
                link_checks.append((where, ref, label, p))
    for name, v in tvars.items():
        if v.get("type") != "query":
            continue
        q = var_query(v)
        m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\s*\)\s*", q or "", re.S)
        if m:
            exprs.append((f"variable ${name}", m.group(1)))
        else:
            check(re.fullmatch(r"\s*label_values\(\s*\w+\s*\)\s*", q or ""), f"variable ${name}: query {q!r} understood")

    # ---- links into dashboards -------------------------------------------------------------
    all_links = [("dashboard link", l, None) for l in dash.get("links") or []]
    for p in all_panels:
        all_links += [(f"panel {p.get('id')} \"{p.get('title')}\" link", l, p) for l, _ in link_dicts(p)]
    own_vars = set(tvars)
    to_host = []
    for where, link, p in all_links:
        url = link.get("url", "") or ""
        refs = link_refs(url) + link_refs(link.get("title", ""))
        bad = [r for r in refs if r not in own_vars and not LINK_BUILTINS.fullmatch(r)]
        check(not bad, f"{where} {link.get('title')!r}: ${{...}} references are variables or data-link built-ins"
              + ("" if not bad else f" — unknown: {', '.join(bad)}"))
        if link.get("type", "link") == "link" and p is None:
            check(url, f"{where} {link.get('title')!r}: has a url")
        m = re.search(r"/d/([^/?#]+)", url)
        if not m:
            continue
        uid = m.group(1)
        target = others.get(uid)
        if not check(target, f"{where} {link.get('title')!r}: links to an existing dashboard uid {uid!r}"
                     + ("" if target else f" — no dashboard in {os.path.dirname(dash_path) or '.'} has it "
                                          f"(known: {', '.join(sorted(others))})")):
            continue
        tnames = {v.get("name") for v in target[1].get("templating", {}).get("list", [])}
        params = [kv.split("=", 1)[0][4:] for kv in url.partition("?")[2].split("&") if kv.startswith("var-")]
        missing = [v for v in params if v not in tnames]
        check(not missing, f"{where} {link.get('title')!r}: sets only variables {target[0]} has"
              + ("" if not missing else f" — {target[0]} has no {', '.join(missing)}"))
        if uid == HOST_UID:
            to_host.append((where, link, p))
    if kind == FLEET_UID:
        dl = [l for w, l, p in to_host if p is None]
        check(any(l.get("keepTime") and l.get("includeVars") for l in dl),
              f"a dashboard link to the host dashboard ({HOST_UID}) keeps the time range and variables")
        data_links = [(w, l) for w, l, p in to_host if p is not None]
        check(data_links, f"panels have data links into the host dashboard ({HOST_UID})")
        for w, l in data_links:
            q = l.get("url", "").partition("?")[2]
            ok = re.search(r"(^|&)var-instance=\$\{(__data\.fields\.instance|__field\.labels\.instance)\}(&|$)", q) \
                and re.search(r"(^|&)var-datasource=\$\{?datasource\}?(&|$)", q)
            check(ok, f"{w} {l.get('title')!r}: passes var-instance from the clicked row/series and var-datasource")
        linked = {p.get("id") for w, l, p in to_host if p is not None}
        for p in all_panels:
            if p.get("type") == "table":
                check(p.get("id") in linked,
                      f"panel {p.get('id')} \"{p.get('title')}\": table has a data link into the host dashboard")

    # ---- fleet: every selector filters by the cluster and instance variables -----------------
    golden = contract()
    known = golden | recorded_names(rules_path) | SELF_METRICS | PROMETHEUS_SERIES
    if kind == FLEET_UID:
        rec = recorded_exprs(rules_path)
        no_instance = {n for n, e in rec.items() if drops_label(e, "instance")}
        no_cluster = {n for n, e in rec.items() if drops_label(e, "cluster")}
        for where, e in panel_exprs:
            problems = []
            for name, matchers in selectors(e, metric_names(e) & known):
                ms = {(l, op, v.replace("${", "$").replace("}", "")) for l, op, v in matchers}
                if name not in no_cluster and ("cluster", "=~", "$cluster") not in ms:
                    problems.append(f'{name} without cluster=~"$cluster"')
                if name not in no_instance and ("instance", "=~", "$instance") not in ms:
                    problems.append(f'{name} without instance=~"$instance"')
                if name == "up" and ("job", "=", "linkwatch") not in ms:
                    problems.append('up without job="linkwatch"')
            check(not problems, f"{where}: every selector filters with cluster=~\"$cluster\" (and instance=~\"$instance\" where the series has it)"
                  + ("" if not problems else " — " + "; ".join(sorted(set(problems)))))

    # ---- substitution, metric names ---------------------------------------------------------
    concrete = []
    for where, e in exprs:
        try:
            c = substitute(e, where, spec["subst"])
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
    fixture_name = "fixture host" if kind == HOST_UID else "fleet fixture"
    probes = []  # (message, expression that must return data, shown on failure)
    for message, e in spec["fixture_checks"]:
        probes.append((message, e, e))
    by_where = dict(concrete)
    for where, c in concrete:
        if where not in failed:
            probes.append((f"{where}: returns data on the {fixture_name}", c, c))
    for where, ref, label, p in link_checks:
        for t in p.get("targets") or []:
            w = f"{where} query {t.get('refId')}"
            if (ref is not None and t.get("refId") != ref) or w not in by_where or w in failed:
                continue
            c = by_where[w]
            probes.append((f"{w}: results carry the label {label!r} its data links read",
                           f"count by ({label}) ({c}) unless on ({label}) vector(1)", c))
    alerts, names = [], {}
    for i, (message, e, shown) in enumerate(probes):
        an = f"DashboardExpr{i}"
        names[an] = (message, shown)
        alerts.append({"alert": an, "expr": f"count({e}) > 0"})
    alert_file = os.path.join(tmp, "dashboard.rules.json")
    with open(alert_file, "w", encoding="utf-8") as f:
        json.dump({"groups": [{"name": "dashboard-expressions", "rules": alerts}]}, f, indent=1)
    test_file = os.path.join(tmp, "dashboard.test.json")
    with open(test_file, "w", encoding="utf-8") as f:
        json.dump({"rule_files": [os.path.abspath(rules_path), alert_file], "evaluation_interval": "1m",
                   "tests": [{"interval": "1m", "input_series": spec["fixture"](),
                              "alert_rule_test": [{"eval_time": "150m", "alertname": an,
                                                   "exp_alerts": [{"exp_labels": {}}]} for an in names]}]}, f, indent=1)
    r = subprocess.run(["promtool", "test", "rules", test_file], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    empty = set(re.findall(r"(?:alertname|rule): (DashboardExpr\d+)", r.stdout))
    errors = dict(re.findall(r"rule: (DashboardExpr\d+), time: [^,]*, err: (.*)", r.stdout))
    if r.returncode != 0 and not empty:
        check(False, f"promtool test rules on the dashboard fixture failed:\n{r.stdout}")
    for an, (message, shown) in names.items():
        check(an not in empty, message
              + ("" if an not in empty else f" — {'error: ' + errors[an] if an in errors else 'empty result'} for: {shown}"))
    if "--victoria" in sys.argv[3:]:
        check_on_victoria(spec, rules_path, probes)
    return finish()


def check_on_victoria(spec, rules_path, probes):
    """The same data checks against VictoriaMetrics' query API (deploy/large-fleet): the fixture in
    a store of its own, the rules replayed over it by vmalert, every probe an instant query at the
    same evaluation time (150 minutes)."""
    import victoria
    missing = [b for b in ("victoria-metrics", "vmalert") if not shutil.which(b)]
    if missing:
        check(False, f"VictoriaMetrics: {', '.join(missing)} not found (apt-get install victoria-metrics)")
        return
    try:
        store = victoria.Store(spec["fixture"](), rules_path, eval_minutes=150)
    except Exception as e:  # a store or replay that fails is one failed check, with its output
        check(False, f"VictoriaMetrics: fixture store and rule replay: {e}")
        return
    try:
        for message, e, shown in probes:
            try:
                got = store.query(f"count({e}) > 0")
                check(bool(got), f"{message} (VictoriaMetrics)" + ("" if got else f" — empty result for: {shown}"))
            except RuntimeError as err:
                check(False, f"{message} (VictoriaMetrics) — error: {err} for: {shown}")
    finally:
        store.close()


def finish():
    passed = sum(1 for ok, _ in results if ok)
    failed = len(results) - passed
    print(f"dashboard: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
