#!/usr/bin/env bash
# clang-tidy over the product sources (common, runner, devices, suites, tui, cli; not the tests) with
# the checks of .clang-tidy, every finding an error, from the Release build's compile_commands.json:
#   scripts/tidy.sh [BUILD_DIR]      (default build/; configured here if it is not; TIDY_JOBS=n, default 2)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
[ -f "$dir/compile_commands.json" ] || cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
start=$(date +%s)
src="$top/(common|runner|devices|suites|tui|cli)/"
rc=0
log=$dir/clang-tidy.log
run-clang-tidy-14 -p "$dir" -j"${TIDY_JOBS:-2}" -quiet -header-filter="^$src" "^$src.*\.cpp$" >"$log" 2>&1 || rc=$?
# run-clang-tidy 14 always asks for colour: the escapes go, and so do its progress lines.
sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -v -E '^[0-9]+ warnings? generated\.$|^clang-tidy-14 ' || true
echo "tidy: $(find "$top"/{common,runner,devices,suites,tui,cli} -name '*.cpp' | wc -l) files in $(( $(date +%s) - start )) s"
exit $rc
