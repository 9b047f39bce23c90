#!/usr/bin/env bash
# Checks that no include points up the layer chain (scripts/check_layers.sh, no build needed) and that the
# fuzz build's source list is whole (scripts/check_fuzz_sources.sh), installs
# what is missing, builds, checks the product sources with clang-tidy (scripts/tidy.sh, .clang-tidy),
# and runs every test: the Release build's whole ctest suite
# (labels root and vm included where this machine allows them), then the unit tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer, then the unit tests and the engine's file tests
# under ThreadSanitizer (scripts/tsan.sh), then every parser fuzzed with libFuzzer for a bounded
# time (scripts/fuzz.sh, clang, about two minutes).
# Every stage runs even when an earlier one failed (a failed build fails the stages that need it), so
# one run shows everything that is wrong. At the end: the Release ctest's closing lines again, one
# line per stage (PASS/FAIL, seconds), and an exit code that is non-zero when any stage failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
logs=$top/build-logs
mkdir -p "$logs"
summary=()
failed=0

stage() {  # stage NAME COMMAND...: runs it (output shown as it comes), records PASS/FAIL and seconds
  local name=$1 start rc
  shift
  echo "=== test.sh: stage $name"
  start=$(date +%s)
  ("$@")
  rc=$?
  local took=$(($(date +%s) - start))
  if [ $rc -eq 0 ]; then
    summary+=("$(printf '%-10s PASS %6d s' "$name" "$took")")
  else
    summary+=("$(printf '%-10s FAIL %6d s  (exit %d)' "$name" "$took" "$rc")")
    failed=1
  fi
  return 0
}

release_ctest() {
  cd "$top/build" || return
  # The tests' temporary files go to a folder of this run (TMPDIR), where the leak fixture
  # (tests/support/lab_leaks.sh) looks for what they left: another run's files on a shared machine
  # are not this run's leaks. A short path: sockets live there too.
  local tmp rc
  tmp=$(mktemp -d /tmp/ctest-tmp-XXXXXX) || return
  TMPDIR=$tmp ctest --output-on-failure -j2 --timeout 900 2>&1 | tee "$logs/ctest-release.log"
  rc=${PIPESTATUS[0]}
  rm -rf "$tmp"
  return "$rc"
}
asan_unit() {
  TARGETS=unit_test_binaries "$top/scripts/build.sh" "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug -DDISKVET_SANITIZE=ON -DDISKVET_UNIT_SHARDS=4 || return
  cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j2 -L unit
}

# Each failed test's own output, its last 80 lines, from a ctest log written with
# --output-on-failure (ctest prints a test's output whole after its result line, also under -j): the
# end of the run shows why each test failed, where a reader of a cut log finds it.
failed_tests_output() {
  awk '
    /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / { flush(); if ($0 ~ /\*\*\*|Failed|Timeout|Exception/ && $0 !~ /Passed|Not Run/) { name = $0; sub(/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /, "", name); sub(/ \.*\*\*\*.*/, "", name); n = 0 } next }
    /^ *Start +[0-9]+: / { flush(); next }
    /^[0-9]+% tests passed/ { flush(); stop = 1 }
    !stop && name != "" { lines[n++] = $0 }
    function flush(  i, from) {
      if (name == "") return
      print ""; print "=== test.sh: the output of " name " (its last 80 lines)"
      from = n > 80 ? n - 80 : 0
      for (i = from; i < n; i++) print lines[i]
      name = ""; n = 0
    }
    END { flush() }' "$1"
}

stage layers "$top/scripts/check_layers.sh"
stage fuzz-list "$top/scripts/check_fuzz_sources.sh"
stage deps "$top/scripts/deps.sh"
stage build "$top/scripts/build.sh" "$top/build"
stage tidy "$top/scripts/tidy.sh" "$top/build"
stage ctest release_ctest
stage asan asan_unit
stage tsan "$top/scripts/tsan.sh"
stage fuzz "$top/scripts/fuzz.sh"

echo
echo "=== test.sh: the Release ctest's closing lines (whole output: $logs/ctest-release.log)"
if [ -s "$logs/ctest-release.log" ]; then
  sed -n '/tests passed\|tests failed/,$p' "$logs/ctest-release.log"
  failed_tests_output "$logs/ctest-release.log"
else
  echo "(ctest did not run)"
fi
echo
echo "=== test.sh: stages"
printf '%s\n' "${summary[@]}"
if [ $failed -ne 0 ]; then
  echo "test.sh: FAILED"
  exit 1
fi
echo "test.sh: all stages passed"
