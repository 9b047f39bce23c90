#!/usr/bin/env bash
# Checks that no include points up the layer chain (scripts/check_layers.sh, no build needed), installs
# what is missing, builds, checks the product sources with clang-tidy (scripts/tidy.sh, .clang-tidy),
# and runs every test: the Release build's whole ctest suite
# (labels root and vm included where this machine allows them), then the unit tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer, then the unit tests and the engine's file tests
# under ThreadSanitizer (scripts/tsan.sh), then every parser fuzzed with libFuzzer for a bounded
# time (scripts/fuzz.sh, clang, about two minutes).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/check_layers.sh"
"$top/scripts/deps.sh"
"$top/scripts/build.sh" "$top/build"
"$top/scripts/tidy.sh" "$top/build"
(cd "$top/build" && ctest --output-on-failure -j2 --timeout 900)
TARGETS=unit_test_binaries "$top/scripts/build.sh" "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug -DDISKVET_SANITIZE=ON
(cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j2 -L unit)
"$top/scripts/tsan.sh"
"$top/scripts/fuzz.sh"
