#!/usr/bin/env bash
# Fails when the fuzz build's source list (fuzz_sources in tests/fuzz/CMakeLists.txt) misses a file that
# one of its sources needs: a listed source includes "X.hpp" and X.cpp exists but is not listed. The
# fuzz build links only that list (compiling every library with clang and coverage would not fit the CI
# step), and it is built only in the test command's last stage, so a file moved or split elsewhere
# showed there as a link error after the whole run. Reads each listed source's own includes (not the
# headers' includes: those name types far more often than they need code), so it catches most misses,
# not all: the fuzz stage's link remains the proof. Needs no build.
#   scripts/check_fuzz_sources.sh [SOURCE_ROOT]
#   scripts/check_fuzz_sources.sh --self-test: proves the check fails on a listed source that needs an
#   unlisted one.
set -euo pipefail

# Headers a listed source includes for declarations only, with why their .cpp need not be linked.
header_only_use='
runner/report/report_json.hpp   report_file.cpp names HostInfo only; report_json() builds a report from a run
'

if [ "${1:-}" = --self-test ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/tests/fuzz" "$tmp/a"
  printf 'set(fuzz_sources\n      a/one.cpp)\n' >"$tmp/tests/fuzz/CMakeLists.txt"
  printf '#include "a/one.hpp"\n' >"$tmp/a/one.cpp"
  : >"$tmp/a/one.hpp"
  "$0" "$tmp" >/dev/null || { echo "self-test: a complete list was refused" >&2; exit 1; }
  printf '#include "a/two.hpp"\n' >>"$tmp/a/one.cpp"
  : >"$tmp/a/two.hpp"
  "$0" "$tmp" >/dev/null || { echo "self-test: a header with no .cpp was refused" >&2; exit 1; }
  : >"$tmp/a/two.cpp"
  if "$0" "$tmp" 2>/dev/null; then echo "self-test: a.cpp needing the unlisted a/two.cpp passed" >&2; exit 1; fi
  echo "check_fuzz_sources self-test: a complete list passes, a missing source fails"
  exit 0
fi

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

listed=$(sed -n '/set(fuzz_sources/,/)/p' tests/fuzz/CMakeLists.txt | sed 's/set(fuzz_sources//; s/)//' | tr -s ' \n' '\n' | grep -v '^$')
[ -n "$listed" ] || { echo "check_fuzz_sources: no fuzz_sources list in tests/fuzz/CMakeLists.txt" >&2; exit 1; }

failed=0
for src in $listed; do
  [ -f "$src" ] || { echo "check_fuzz_sources: $src is listed but does not exist" >&2; failed=1; continue; }
  for header in $(sed -n 's/^#include "\(.*\.hpp\)".*/\1/p' "$src"); do
    needed=${header%.hpp}.cpp
    [ -f "$needed" ] || continue
    grep -qxF "$needed" <<<"$listed" && continue
    grep -q "^$header " <<<"$header_only_use" && continue
    echo "check_fuzz_sources: $src includes $header but $needed is not in fuzz_sources (tests/fuzz/CMakeLists.txt)" >&2
    failed=1
  done
done
exit $failed
