#!/usr/bin/env bash
# ThreadSanitizer over the threaded code: builds the unit tests and the engine's file tests with
# -fsanitize=thread into build-tsan/ (only those two test binaries and what they link), then runs
# every unit test (job loop, run monitor, health poller, verification, the TUI's event queue...) and
# the engine on O_DIRECT files (job threads, io_uring and psync, any user). A reported race fails
# the step. No suppressions: io_uring's rings are read through liburing's inline acquire loads,
# which TSan sees, and the kernel's writes to buffers are invisible to it, so nothing needed one.
#   scripts/tsan.sh            (JOBS=n for the build, as scripts/build.sh)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${TSAN_BUILD_DIR:-$top/build-tsan}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$top}
# Debug builds (ASan, TSan, fuzz) carry -g, and ccache then hashes the working directory unless told
# not to: every clean clone missed the cache for them (the TSan build alone took 6 minutes).
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
start=$(date +%s)
# -O1 keeps the run near Release speed while leaving stacks readable; Debug keeps assertions on.
cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DDISKVET_UNIT_SHARDS=4 >/dev/null
cmake --build "$dir" -j"${JOBS:-$(nproc)}" --target unit_test_binaries engine_file_tests
built=$(date +%s)
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4"
cd "$dir"
ctest --output-on-failure -j"${TSAN_TEST_JOBS:-2}" -L unit --timeout 600
ctest --output-on-failure -j1 -R '^EngineOnFile\.' --timeout 600
echo "tsan: built in $((built - start)) s, tested in $(( $(date +%s) - built )) s"
