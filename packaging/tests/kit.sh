# shellcheck shell=bash
# The files every package form installs besides the agent itself (the monitoring kit, the
# completion script, the manual page, the docs), and the checks that they work where they lie.
# Sourced by the package tests after report.sh (check); check_kit ROOT checks a tree rooted
# at ROOT (/ after a real install, or an unpacked payload or DESTDIR).

kit_source=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# Installed path, then the file in the source tree it must be a copy of.
kit_copies=(
    "/usr/share/linkwatch/dashboards/linkwatch.json grafana/dashboards/linkwatch.json"
    "/usr/share/linkwatch/dashboards/linkwatch-fleet.json grafana/dashboards/linkwatch-fleet.json"
    "/usr/share/linkwatch/rules/linkwatch.rules.yml grafana/alerts/linkwatch.rules.yml"
    "/usr/share/linkwatch/alertmanager/alertmanager.yml grafana/alertmanager/alertmanager.yml"
    "/usr/share/linkwatch/alertmanager/linkwatch.tmpl grafana/alertmanager/linkwatch.tmpl"
    "/usr/share/linkwatch/gpu-check.sh scripts/gpu-check.sh"
)
kit_completion=/usr/share/bash-completion/completions/linkwatch
kit_man=/usr/share/man/man1/linkwatch.1.gz
kit_docs=/usr/share/doc/linkwatch/docs
# What removing the package must take away with it.
kit_paths=(/usr/share/linkwatch/dashboards /usr/share/linkwatch/rules /usr/share/linkwatch/alertmanager
    /usr/share/linkwatch/gpu-check.sh "$kit_completion" "$kit_man" "$kit_docs")

check_kit() { # ROOT
    local root=${1%/} entry installed source
    for entry in "${kit_copies[@]}"; do
        read -r installed source <<< "$entry"
        check "installed, a copy of $source: $installed" cmp -s "$root$installed" "$kit_source/$source"
    done
    check "installed and executable: /usr/share/linkwatch/gpu-check.sh" test -x "$root/usr/share/linkwatch/gpu-check.sh"
    check "gpu-check.sh lies beside the jar it runs" test -f "$root/usr/share/linkwatch/linkwatch.jar"
    check "the docs folder is installed and holds the docs/ files" \
        bash -c 'cd "$2/docs" && for f in $(find . -path ./incoming -prune -o -type f -print); do cmp -s "$f" "$1/$f" || exit 1; done && [ -n "$(ls "$1")" ]' \
        _ "$root$kit_docs" "$kit_source"
    check "the completion script loads in bash and completes linkwatch" \
        bash -c 'source "$1" && complete -p linkwatch | grep -q "_complete_linkwatch linkwatch$"' _ "$root$kit_completion"
    check "the completion script offers the subcommands" \
        bash -c 'source "$1" && COMP_WORDS=(linkwatch ""); COMP_CWORD=1; COMP_LINE="linkwatch "; COMP_POINT=10;
                 _complete_linkwatch linkwatch "" linkwatch 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}" | grep -qx check-config' \
        _ "$root$kit_completion"
    check "the manual page is troff: .TH LINKWATCH 1, NAME, SYNOPSIS, COMMANDS" \
        bash -c 'p=$(gzip -dc "$1") && [[ "$p" == ".TH LINKWATCH 1 "* ]] &&
                 grep -qx ".SH NAME" <<< "$p" && grep -qx ".SH SYNOPSIS" <<< "$p" && grep -qx ".SH COMMANDS" <<< "$p"' \
        _ "$root$kit_man"
    check "every path the manual page's FILES names is installed" \
        bash -c 'paths=$(gzip -dc "$2" | sed -n "/^\.SH FILES/,\$p" | grep "^/" | sed "s/\\\\-/-/g") &&
                 [ -n "$paths" ] && for p in $paths; do
                     [ -e "$1$p" ] || { echo "    not installed: $p"; exit 1; }; done' \
        _ "$root" "$root$kit_man"
    if command -v man >/dev/null; then
        check "man -l renders the manual page, every command in it" \
            bash -c 'out=$(MANWIDTH=100 man -l "$1" 2>&1) && grep -q "^LINKWATCH(1)" <<< "$out" &&
                     for c in run probe topo compare status check check-config completion man; do
                         grep -qE "^ +linkwatch $c\$" <<< "$out" || { echo "    no section for $c"; exit 1; }; done' \
            _ "$root$kit_man"
    else
        echo "note: man not installed; the manual page was checked as troff only"
    fi
    if command -v groff >/dev/null; then
        check "groff reads the manual page without a warning" \
            bash -c '[ -z "$(gzip -dc "$1" | groff -man -Tutf8 -ww -z 2>&1)" ]' _ "$root$kit_man"
    fi
}
