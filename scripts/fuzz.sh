#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/) with clang into build-fuzz/ and fuzzes each for a
# bounded time from its seed corpus:  scripts/fuzz.sh [SECONDS_PER_HARNESS]   (default 20, two at once)
# Inputs found go to build-fuzz/fuzz-corpus/<harness>/ (the seed corpus in the repository is only
# read). A crash, a sanitizer report, a leak, an input taking over 10 s or a process over 2 GiB fails
# the step; the input is left in build-fuzz/fuzz-artifacts/<harness>/ and the log beside it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${FUZZ_BUILD_DIR:-$top/build-fuzz}
seconds=${1:-${FUZZ_SECONDS:-20}}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$top}
# Debug builds (ASan, TSan, fuzz) carry -g, and ccache then hashes the working directory unless told
# not to: every clean clone missed the cache for them (the TSan build alone took 6 minutes).
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
start=$(date +%s)
cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DDISKVET_FUZZ=ON >/dev/null
cmake --build "$dir" -j"${JOBS:-$(nproc)}" --target fuzz_all
built=$(date +%s)

fuzz_one() {  # harness -> one summary line; non-zero when libFuzzer found something
  local h=$1 out=$dir/fuzz-artifacts/$1 dict=()
  mkdir -p "$dir/fuzz-corpus/$h" "$out"
  [ -f "$top/tests/fuzz/dict/$h.dict" ] && dict=(-dict="$top/tests/fuzz/dict/$h.dict")
  local rc=0
  "$dir/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/" "${dict[@]}" "$dir/fuzz-corpus/$h" "$top/tests/fuzz/corpus/$h" >"$out/log" 2>&1 || rc=$?
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | tail -1)
  printf 'fuzz %-11s %9s executions, corpus %s inputs, %s\n' "$h" "${execs:-?}" "$(ls "$dir/fuzz-corpus/$h" | wc -l)" \
    "$([ $rc -eq 0 ] && echo 'nothing found' || echo "FOUND (exit $rc): see $out/log")"
  return $rc
}
export -f fuzz_one
export dir top seconds

harnesses=$(cd "$top/tests/fuzz" && ls fuzz_*.cpp | sed 's/^fuzz_//; s/\.cpp$//')
rc=0
printf '%s\n' $harnesses | xargs -P "${FUZZ_JOBS:-2}" -I{} bash -c 'fuzz_one {}' || rc=$?
echo "fuzz: built in $((built - start)) s, fuzzed in $(( $(date +%s) - built )) s, ${seconds} s per harness"
exit $rc
