#!/usr/bin/env bash
# Configures and builds into build/ (Release) or the directory and options given:
#   scripts/build.sh [BUILD_DIR] [cmake options...]
# JOBS=n sets the parallel jobs (default: every core); TARGETS="a b" builds only those targets.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}; shift || true
# Paths relative to the checkout in ccache's keys: clones and worktrees in other folders share hits.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$top}
# Debug builds (ASan, TSan, fuzz) carry -g, and ccache then hashes the working directory unless told
# not to: every clean clone missed the cache for them (the TSan build alone took 6 minutes).
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j"${JOBS:-$(nproc)}" ${TARGETS:+--target $TARGETS}
