#!/usr/bin/env bash
# Fails when a source file includes a header of a layer above its own (docs/architecture.md):
#   common <- verify <- io <- analysis <- suites <- run <- report <- plan <- compare <- hosts <- tui <- cli, with devices on
#   common only and included from suites up. Reads the `#include "..."` lines of each folder; needs
#   no build.   scripts/check_layers.sh [SOURCE_ROOT]
#   scripts/check_layers.sh --self-test: proves the check fails on a planted upward include.
set -euo pipefail

if [ "${1:-}" = --self-test ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/runner/io" "$tmp/runner/run" "$tmp/runner/report" "$tmp/suites"
  printf '#include "runner/io/workload.hpp"\n' >"$tmp/suites/suite.hpp"
  printf '#include "common/error.hpp"\n' >"$tmp/runner/io/workload.hpp"
  "$0" "$tmp" >/dev/null || { echo "self-test: a tree with only downward includes was refused" >&2; exit 1; }
  for planted in 'runner/io/workload.hpp:runner/run/run_result.hpp' 'runner/io/workload.hpp:suites/suite.hpp' \
                 'suites/suite.hpp:runner/workload.hpp' 'runner/run/x.cpp:tests/support/lab.hpp' \
                 'runner/report/x.cpp:runner/compare/compare.hpp'; do
    file=${planted%%:*}
    cp "$tmp/$file" "$tmp/saved" 2>/dev/null || : >"$tmp/saved"
    printf '#include "%s"\n' "${planted#*:}" >>"$tmp/$file"
    if "$0" "$tmp" 2>/dev/null; then echo "self-test: $file including ${planted#*:} passed the check" >&2; exit 1; fi
    mv "$tmp/saved" "$tmp/$file"
  done
  echo "check_layers self-test: clean tree passes, every planted upward include fails"
  exit 0
fi

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Each folder and the layers its files may include (a layer is named by its folder's last part).
rules='
common:          common
devices:         common devices
runner/verify:   common verify
runner/io:       common verify io
runner/analysis: common verify io analysis
suites:          common devices verify io analysis suites
runner/run:      common devices verify io analysis suites run
runner/report:   common devices verify io analysis suites run report
runner/plan:     common devices verify io analysis suites run report plan
runner/compare:  common devices verify io analysis suites run report plan compare
runner/hosts:    common devices verify io analysis suites run report plan compare hosts
tui:             common devices verify io analysis suites run report plan compare hosts tui
cli:             common devices verify io analysis suites run report plan compare hosts tui cli
'
folders=$(awk -F: 'NF > 1 { print $1 }' <<<"$rules")
files=()
for f in $folders; do
  [ -d "$f" ] && files+=("$f"/*.hpp "$f"/*.cpp)
done

{ grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}" 2>/dev/null || true; } | awk -v rules="$rules" '
  BEGIN {
    n = split(rules, lines, "\n")
    for (i = 1; i <= n; i++) {
      if (split(lines[i], kv, ":") < 2) continue
      may[kv[1]] = " " kv[2] " "
    }
  }
  # the layer of an include path; "?" for none (an old flat runner/ path, tests/ in the product)
  function layer(p) {
    if (p ~ /^(common|diskvet)\//) return "common"  # diskvet/version.hpp is generated from common/
    if (p ~ /^runner\/(verify|io|analysis|run|report|plan|compare|hosts)\//) { split(p, part, "/"); return part[2] }
    if (p ~ /^(devices|suites|tui|cli)\//) { split(p, part, "/"); return part[1] }
    return "?"
  }
  {
    file = $0; sub(/:.*/, "", file)
    rest = substr($0, length(file) + 2)
    line = rest; sub(/:.*/, "", line)
    inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    folder = file; sub(/\/[^\/]*$/, "", folder)
    l = layer(inc)
    gsub(/ +/, " ", may[folder])
    if (index(may[folder], " " l " ") == 0) {
      printf "%s:%s: includes \"%s\" (layer %s); %s may include only:%s\n", file, line, inc, l, folder, may[folder] > "/dev/stderr"
      bad = 1
    }
  }
  END { exit bad }
' || {
  echo "check_layers: an include points up the layer chain (docs/architecture.md says where each type lives)" >&2
  exit 1
}
echo "check_layers: every include points down the layer chain"
