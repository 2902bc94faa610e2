"""A throwaway VictoriaMetrics holding a promtool-style fixture, with the rules replayed over it.

check_dashboard.py checks every dashboard expression against the fixture twice: with
`promtool test rules` (Prometheus' engine) and here, against VictoriaMetrics' query API, which
is what the fleet dashboard reads in deploy/large-fleet. The same fixture series (promtool's
`input_series` notation, one sample a minute) are imported into a store of their own, `vmalert
-replay` evaluates the real rule file over them as the deployment's vmalert would (recorded
series and ALERTS written back into the store), and each expression is an instant query at the
same evaluation time.

Needs `victoria-metrics` and `vmalert` (Debian: victoria-metrics). Standard library only.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

UNSIGNED = r"(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?"
EXPANDING = re.compile(rf"([-+]?{UNSIGNED})([-+]{UNSIGNED})x(\d+)")
SERIES = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?$")


def expand(values):
    """promtool's notation as a list of floats and None (no sample): `a+bxn` is n+1 samples a,
    a+b, ...; `_` one missing sample, `_xn` n of them; `stale` ends the series (no sample here)."""
    out = []
    for token in values.split():
        if token in ("_", "stale"):
            out.append(None)
            continue
        m = re.fullmatch(r"_x(\d+)", token)
        if m:
            out.extend([None] * int(m.group(1)))
            continue
        m = EXPANDING.fullmatch(token)
        if m:
            start, step, n = float(m.group(1)), float(m.group(2)), int(m.group(3))
            out.extend(start + i * step for i in range(n + 1))
            continue
        out.append(float(token))
    return out


def without_annotations(rules_text):
    """The rule file's text with every `annotations:` block left out (the block is the lines
    indented deeper than its key; blank lines inside it go with it)."""
    out, indent = [], None
    for line in rules_text.splitlines(keepends=True):
        depth = len(line) - len(line.lstrip())
        if indent is not None and (not line.strip() or depth > indent):
            continue
        indent = None
        m = re.match(r"(\s*)annotations:\s*$", line)
        if m:
            indent = len(m.group(1))
            continue
        out.append(line)
    return "".join(out)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Store:
    """A VictoriaMetrics on 127.0.0.1 holding `series` with t=0 at `start` (unix seconds)."""

    def __init__(self, series, rules_path, eval_minutes, interval_s=60):
        self.dir = tempfile.mkdtemp(prefix="linkwatch-vm-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Minutes, so every timestamp lies on the rules' evaluation grid; old enough that the
        # whole fixture is in the past, recent enough for the default retention.
        self.start = (int(time.time()) // 60 - eval_minutes - 60) * 60
        self.eval_time = self.start + eval_minutes * 60
        self.log = open(os.path.join(self.dir, "store.log"), "w")
        self.proc = subprocess.Popen(
            ["victoria-metrics", f"-storageDataPath={self.dir}/data", f"-httpListenAddr=127.0.0.1:{self.port}",
             "-retentionPeriod=1y", "-search.disableCache", "-search.latencyOffset=0s"],
            stdout=self.log, stderr=subprocess.STDOUT)
        try:
            self._await_health()
            self._import(series, interval_s)
            self._replay(rules_path)
        except Exception:
            self.close()
            raise

    def _await_health(self):
        for _ in range(150):
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError("victoria-metrics did not start: " + open(self.log.name).read()[-2000:])

    def _import(self, series, interval_s):
        lines = []
        for s in series:
            m = SERIES.match(s["series"])
            if not m:
                raise ValueError(f"fixture series {s['series']!r}")
            for i, v in enumerate(expand(s["values"])):
                if v is not None:
                    lines.append(f"{s['series']} {v!r} {(self.start + i * interval_s) * 1000}")
        body = ("\n".join(lines) + "\n").encode()
        urllib.request.urlopen(urllib.request.Request(
            self.url + "/api/v1/import/prometheus", data=body, method="POST"), timeout=30).read()
        urllib.request.urlopen(self.url + "/internal/force_flush", timeout=30).read()

    def _run_replay(self, rules_path):
        """One `vmalert -replay`: every group of the rule file evaluated over the fixture's time range,
        the recorded series and ALERTS written into the store. Replay cannot run the
        annotations' `query` calls; annotations add nothing to a series, so the replayed copy has
        none (vmalert -dryRun in check.sh checks them on the real file)."""
        fmt = "%Y-%m-%dT%H:%M:%SZ"
        r = subprocess.run(
            ["vmalert", f"-rule={rules_path}", f"-datasource.url={self.url}", f"-remoteWrite.url={self.url}",
             # one point a minute in every range query (the step is 5 minutes by default, and replay
             # takes a gap between points longer than the interval as the end of an alert)
             "-evaluationInterval=1m", "-datasource.queryStep=1m", "-remoteWrite.flushInterval=100ms", "-replay.rulesDelay=200ms",
             "-replay.timeFrom=" + time.strftime(fmt, time.gmtime(self.start)),
             "-replay.timeTo=" + time.strftime(fmt, time.gmtime(self.eval_time)),
             "-httpListenAddr=127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError("vmalert -replay failed:\n" + r.stdout[-3000:])
        urllib.request.urlopen(self.url + "/internal/force_flush", timeout=30).read()

    def _replay(self, rules_path, max_passes=6):
        """Replays the rule file until a pass adds no series. One pass is not enough: replay runs
        group after group and rule after rule, so a rule that reads a series recorded earlier in
        the same pass sees it only once the store has made it searchable (about a second), and a
        recording rule that reads ALERTS ran before the alerts of later groups were written. A
        running vmalert evaluates every group each interval and sees all of it; here each pass
        sees what the previous ones wrote, and the chains of rules are a few links long."""
        replayed = os.path.join(self.dir, "replayed.rules.yml")
        with open(rules_path, encoding="utf-8") as f, open(replayed, "w", encoding="utf-8") as out:
            out.write(without_annotations(f.read()))
        written = None
        for _ in range(max_passes):
            self._run_replay(replayed)
            now = {tuple(sorted(r["metric"].items())): r["value"][1]
                   for r in self.query('count by (__name__, alertstate) ({__name__=~"linkwatch:.+|ALERTS"})')}
            if now == written:
                return
            written = now
        raise RuntimeError(f"vmalert -replay: still adding series after {max_passes} passes: {written}")

    def query(self, expr):
        """The result list of an instant query at the evaluation time; raises on an error."""
        q = urllib.parse.urlencode({"query": expr, "time": self.eval_time})
        try:
            with urllib.request.urlopen(self.url + "/api/v1/query?" + q, timeout=30) as r:
                body = json.load(r)
        except urllib.error.HTTPError as e:
            raise RuntimeError(e.read().decode(errors="replace")[:500]) from None
        if body.get("status") != "success":
            raise RuntimeError(str(body)[:500])
        return body["data"]["result"]

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
