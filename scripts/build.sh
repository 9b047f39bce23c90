#!/usr/bin/env bash
# Configures and builds into build/ (Release) or the directory and options given:
#   scripts/build.sh [BUILD_DIR] [cmake options...]
# JOBS=n sets the parallel jobs (default: every core); TARGETS="a b" builds only those targets.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}; shift || true
# Paths relative to the checkout in ccache's keys: clones and worktrees in other folders share hits.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$top}
cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j"${JOBS:-$(nproc)}" ${TARGETS:+--target $TARGETS}
