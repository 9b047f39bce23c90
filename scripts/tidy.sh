#!/usr/bin/env bash
# clang-tidy over the product sources (common, runner, devices, suites, tui, cli; not the tests) with
# the checks of .clang-tidy, every finding an error, from the Release build's compile_commands.json:
#   scripts/tidy.sh [BUILD_DIR]      (default build/; configured here if it is not; TIDY_JOBS=n, default 2)
# A translation unit whose inputs were found clean before (here or in another clone on this machine)
# is not checked again: scripts/tidy_cache.py keeps their keys under ~/.cache/diskvet/tidy
# (DISKVET_TIDY_CACHE=DIR elsewhere; an empty directory checks everything). Run after a build: a unit
# not rebuilt since an edit is always checked.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
dir=${1:-$top/build}
[ -f "$dir/compile_commands.json" ] || cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
src="$top/(common|runner|devices|suites|tui|cli)/"
/usr/bin/python3 "$top/scripts/tidy_cache.py" "$dir" "$top" "^$src.*\.cpp$" "^$src"
