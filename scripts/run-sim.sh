#!/usr/bin/env bash
# Builds linkwatch (only when a source is newer than agent/target/linkwatch.jar, or with
# --rebuild) and runs the agent on the simulated runtime (no hardware needed).
#   --profile a3       the Atlas 800T A3: 2 dies joined by SIO (the default)
#   --profile 8x910b   8 Ascend 910B cards with HCCS between every pair (HCCS faults)
#   --profile h200     the sim's 8-GPU NVIDIA face, BACKEND=sim-cuda with examples/sim-cuda.yaml
# BACKEND=sim-cuda alone still means the h200 profile. Before starting it prints the profile and
# the fault control file (LINKWATCH_SIM_CONTROL, a file under /tmp unless you set one; see
# docs/agent.md "Try a fault"); then the /metrics URL; stop it with Ctrl-C. Other arguments go to
# `linkwatch run` and replace the script's defaults for the same option,
# e.g. scripts/run-sim.sh --listen 127.0.0.1:9000.
set -euo pipefail
cd "$(dirname "$0")/.."
profiles="a3, 8x910b, h200"
profile="" rebuild=0 args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --profile)
      [ $# -ge 2 ] || { echo "run-sim.sh: --profile needs a value: one of $profiles" >&2; exit 2; }
      profile=$2; shift 2 ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    --rebuild) rebuild=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
case "${BACKEND:-sim}" in
  sim|sim-cuda) ;;
  *) echo "run-sim.sh: BACKEND must be sim or sim-cuda, not '${BACKEND}'" >&2; exit 2 ;;
esac
# BACKEND alone picks the face's usual profile, as before --profile existed.
[ -n "$profile" ] || { [ "${BACKEND:-sim}" = sim-cuda ] && profile=h200 || profile=a3; }
case "$profile" in
  a3) file=atlas-800t-a3.profile backend=sim config=examples/sim.yaml
      what="Atlas 800T A3, 2 dies joined by SIO" ;;
  8x910b) file=8x910b-hccs.profile backend=sim config=examples/sim.yaml
      what="8 x Ascend 910B, HCCS between every pair" ;;
  h200) file=hgx-h200.profile backend=sim-cuda config=examples/sim-cuda.yaml
      what="8 x H200 on NVLink, the sim's NVIDIA face" ;;
  *) echo "run-sim.sh: unknown profile '$profile': choose one of $profiles" >&2; exit 2 ;;
esac
if [ -n "${BACKEND:-}" ] && [ "$BACKEND" != "$backend" ]; then
  echo "run-sim.sh: profile $profile runs with BACKEND=$backend, not BACKEND=$BACKEND" >&2; exit 2
fi
export LINKWATCH_SIM_PROFILE="$PWD/native/profiles/$file"
# The fault control file: the caller's, else a fresh empty one for this profile.
if [ -z "${LINKWATCH_SIM_CONTROL:-}" ]; then
  export LINKWATCH_SIM_CONTROL="${TMPDIR:-/tmp}/linkwatch-sim-$profile.ctl"
  : > "$LINKWATCH_SIM_CONTROL"
fi
# The script's defaults, each left out when the arguments give that option themselves (picocli
# refuses an option given twice).
defaults=()
given() {
  local a
  for a in "${@:2}"; do
    [ "$a" = "$1" ] || [[ "$a" == "$1="* ]] && return 0
  done
  return 1
}
given --backend "${args[@]}" || defaults+=(--backend "$backend")
if ! given --config "${args[@]}"; then
  if [ "$backend" = sim ]; then
    # The Ascend faces also read each NPU's RoCE port through the sim's hccn_tool stand-in, which
    # the build puts in native/build: the example config plus that one absolute path.
    generated="${TMPDIR:-/tmp}/linkwatch-sim-$profile.yaml"
    { cat "$config"
      printf '%s\n' "# Added by scripts/run-sim.sh: the sim's hccn_tool stand-in." \
        "passive:" "  hccn_tool:" "    command: $PWD/native/build/hccn_tool"
    } > "$generated"
    config=$generated
  fi
  defaults+=(--config "$config")
fi
given --listen "${args[@]}" || defaults+=(--listen 127.0.0.1:10187)
scripts/deps.sh
jar=agent/target/linkwatch.jar
newer=""
[ "$rebuild" = 1 ] || [ ! -f "$jar" ] ||
  newer=$(find agent/src native/src native/include native/tools native/Makefile pom.xml agent/pom.xml \
    -newer "$jar" -print -quit)
if [ "$rebuild" = 0 ] && [ -f "$jar" ] && [ -z "$newer" ]; then
  echo "run-sim.sh: $jar is up to date, not rebuilding (--rebuild forces it)"
else
  # Quiet: no compiler lines from the native build; no colour escapes from Maven
  # (-Dstyle.color=never), nor the resets its jansi console writes at start and exit
  # (jansi.noreset).
  MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Djansi.noreset=true" \
    MAKEFLAGS="--silent --no-print-directory" mvn -B -q -Dstyle.color=never package -DskipTests
fi
# The probe lock's directory, which the installed unit makes (RuntimeDirectory=linkwatch): without
# it a `linkwatch check` beside the demo measures uncoordinated and keeps no verdict file.
[ -d /run/linkwatch ] || mkdir -p /run/linkwatch 2>/dev/null ||
  echo "run-sim.sh: cannot create /run/linkwatch (not root?): a check beside this agent will not coordinate with it" >&2
echo "run-sim.sh: profile $profile ($what): $LINKWATCH_SIM_PROFILE"
echo "run-sim.sh: faults: write lines into $LINKWATCH_SIM_CONTROL (see docs/agent.md, Try a fault)"
exec java -jar "$jar" run "${defaults[@]}" "${args[@]}"
