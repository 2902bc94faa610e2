#!/usr/bin/env bash
# Checks everything under grafana/: rules syntax (promtool, and vmalert for VictoriaMetrics), rule
# unit tests, the dashboards, the example Prometheus and Alertmanager configs, the scrape config of
# deploy/large-fleet, the notification templates, and the live-test config transform. Needs
# promtool (Debian: prometheus), amtool (Debian: prometheus-alertmanager), vmalert and vmagent
# (Debian: victoria-metrics) and python3 (standard library only). Prints one line per check and a final "N passed, M failed".
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
command -v promtool >/dev/null || { echo "promtool not found (apt-get install prometheus)"; exit 2; }
command -v amtool >/dev/null || { echo "amtool not found (apt-get install prometheus-alertmanager)"; exit 2; }
command -v python3 >/dev/null || { echo "python3 not found"; exit 2; }

passed=0; failed=0
log="$(mktemp)"; tmp="$(mktemp -d)"; trap 'rm -rf "$log" "$tmp"' EXIT
run() { # run NAME CMD... : one check
  local name="$1"; shift
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1)); echo "PASS $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/    /' "$log"
  fi
}

run "promtool check rules alerts/linkwatch.rules.yml" promtool check rules alerts/linkwatch.rules.yml
for t in alerts/tests/*.yml; do
  run "promtool test rules $t" promtool test rules "$t"
done
# every alert has a runbook anchor that exists in README.md, and a severity
run "every alert has severity + summary + description + runbook anchor present in README.md" \
  python3 - alerts/linkwatch.rules.yml README.md <<'PY'
import re, sys
rules = open(sys.argv[1], encoding="utf-8").read()
readme = open(sys.argv[2], encoding="utf-8").read()
anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+\s+(.*)$", readme, re.M)}
anchors |= set(re.findall(r'<a (?:name|id)="([^"]+)"', readme))
blocks = re.split(r"^\s*- alert:\s*", rules, flags=re.M)[1:]
bad = []
for b in blocks:
    name = b.split()[0]
    body = re.split(r"^\s*- (?:alert|record):", b, flags=re.M)[0]
    m = re.search(r"runbook:\s*'?README\.md#([\w-]+)", body)
    if not re.search(r"severity:\s*(warning|critical)", body): bad.append(f"{name}: no severity warning|critical")
    for a in ("summary:", "description:"):
        if a not in body: bad.append(f"{name}: no {a[:-1]} annotation")
    if not m: bad.append(f"{name}: no runbook annotation")
    elif m.group(1) not in anchors: bad.append(f"{name}: README.md has no anchor #{m.group(1)}")
    # every alert must be exercised by a test (firing case)
print("\n".join(bad) or f"{len(blocks)} alerts ok")
sys.exit(1 if bad else 0)
PY
run "every alert has a firing case in alerts/tests" \
  python3 - alerts/linkwatch.rules.yml alerts/tests <<'PY'
import glob, os, re, sys
alerts = re.findall(r"^\s*- alert:\s*(\S+)", open(sys.argv[1], encoding="utf-8").read(), re.M)
text = "".join(open(f, encoding="utf-8").read() for f in glob.glob(os.path.join(sys.argv[2], "*.yml")))
firing = set(re.findall(r"alertname:\s*(\S+)\s*\n\s*exp_alerts:\s*\n\s*- exp_labels", text))
quiet = set(re.findall(r"alertname:\s*(\S+)\s*\n\s*exp_alerts:\s*\[\]", text))
bad = [f"{a}: no firing case" for a in alerts if a not in firing] + [f"{a}: no quiet case" for a in alerts if a not in quiet]
print("\n".join(bad) or f"{len(alerts)} alerts have firing and quiet cases")
sys.exit(1 if bad else 0)
PY
# The same rules evaluated by vmalert against VictoriaMetrics (deploy/large-fleet): MetricsQL
# parses every expression and vmalert's templates render every annotation.
if command -v vmalert >/dev/null; then
  run "vmalert -dryRun alerts/linkwatch.rules.yml (MetricsQL and vmalert's templates)" \
    vmalert -dryRun -rule=alerts/linkwatch.rules.yml
  run "vmalert -dryRun on live-config.py output" \
    sh -c "python3 test/live-config.py alerts/linkwatch.rules.yml '$tmp/vm-live.rules.yml' 2>/dev/null && vmalert -dryRun -rule='$tmp/vm-live.rules.yml'"
else
  failed=$((failed + 1)); echo "FAIL vmalert not found (apt-get install victoria-metrics)"
fi
run "promtool check config prometheus.yml (and its file_sd targets)" promtool check config prometheus.yml
run "the linkwatch job of deploy/large-fleet/scrape.yml is prometheus.yml's, word for word" \
  python3 - prometheus.yml ../deploy/large-fleet/scrape.yml <<'PY'
import re, sys
def job(path):
    m = re.search(r"^  - job_name: linkwatch\n(?:(?:    .*|[ \t]*)\n)*", open(path, encoding="utf-8").read(), re.M)
    if not m: sys.exit(f"{path}: no linkwatch job")
    return m.group(0).rstrip()
a, b = job(sys.argv[1]), job(sys.argv[2])
if a != b:
    import difflib
    sys.exit("\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), sys.argv[1], sys.argv[2], lineterm="")))
print("same job")
PY
if command -v vmagent >/dev/null; then
  run "vmagent -promscrape.config.dryRun ../deploy/large-fleet/scrape.yml" \
    sh -c "cd ../deploy/large-fleet && vmagent -promscrape.config=scrape.yml -promscrape.config.dryRun"
fi
run "amtool check-config alertmanager/alertmanager.yml (and its templates)" amtool check-config alertmanager/alertmanager.yml

# notification templates: rendered on a fixture notification (one firing link alert, one resolved
# probe alert), every field an on-call person needs is in the text, and the subject names the host
render() { # render TEMPLATE: the named template on the fixture notification
  amtool template render --template.glob=alertmanager/linkwatch.tmpl \
    --template.data=test/notification.json --template.text="{{ template \"$1\" . }}"
}
text_has_every_field() {
  local out s
  out="$(render linkwatch.text)" || return 1
  for s in 'src: 0' 'dst: 1' 'link: SIO' 'instance: a3-04:10187' 'cluster: east' 'rack: r2' \
    'current: 107GB/s' 'baseline: 175GB/s (fleet median)' \
    'runbook: https://linkwatch.example.org/grafana/README.md#linkwatchlinkbelowfleet' \
    '1 resolved:' 'probe: p2p  target: 0->1'; do
    grep -qF -- "$s" <<<"$out" || { echo "missing: $s"; echo "$out"; return 1; }
  done
}
subject_names_the_host() {
  local out
  out="$(render linkwatch.subject)" || return 1
  grep -qF '[FIRING:1] east a3-04:10187:' <<<"$out" || { echo "subject: $out"; return 1; }
}
run "linkwatch.text carries src, dst, link, instance, current, baseline and the runbook link" text_has_every_field
run "linkwatch.subject names status, cluster and instance" subject_names_the_host

# live-test transform: output must still be valid rules with shortened windows
run "live-config.py output passes promtool check rules" \
  sh -c "python3 test/live-config.py alerts/linkwatch.rules.yml '$tmp/live.rules.yml' && promtool check rules '$tmp/live.rules.yml' && ! grep -v '^[[:space:]]*#' '$tmp/live.rules.yml' | grep -Eq '\[7d\]|offset 1h|for: 15m'"

run "live-config.py output: every passive alert fires within 2 minutes in a live test (test/live-passive.yml)" \
  sh -c "python3 test/live-config.py alerts/linkwatch.rules.yml '$tmp/live.rules.yml' 2>/dev/null && cp test/live-passive.yml '$tmp/' && promtool test rules '$tmp/live-passive.yml'"

# dashboards (host and fleet): structure, PromQL parses, metric names known, data on fixture hosts,
# under Prometheus (promtool) and VictoriaMetrics (a store of its own with the rules replayed,
# about a minute of waiting each: the two run side by side)
i=0
for dash in dashboards/linkwatch.json dashboards/linkwatch-fleet.json; do
  i=$((i + 1))
  (python3 test/check_dashboard.py "$dash" alerts/linkwatch.rules.yml --victoria >"$tmp/dash-$i.log" 2>&1
   echo $? >"$tmp/dash-$i.rc") &
done
wait
i=0
for dash in dashboards/linkwatch.json dashboards/linkwatch-fleet.json; do
  i=$((i + 1))
  rc=$(cat "$tmp/dash-$i.rc")
  grep -v '^PASS ' "$tmp/dash-$i.log" | grep -v '^dashboard: ' | sed 's/^/    /'
  d_pass=$(grep -c '^PASS ' "$tmp/dash-$i.log"); d_fail=$(grep -c '^FAIL ' "$tmp/dash-$i.log")
  if [ "$rc" -ne 0 ] && [ "$d_fail" -eq 0 ]; then d_fail=1; cat "$tmp/dash-$i.log"; fi
  echo "$dash: $(tail -1 "$tmp/dash-$i.log")"
  passed=$((passed + d_pass)); failed=$((failed + d_fail))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
