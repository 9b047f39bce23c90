#!/usr/bin/env bash
# The main job on a machine with no device named: installs what is missing, builds, and runs the
# quick suite on a scratch target diskvet creates itself (a 1 GiB loop device on /dev/shm as root,
# detached afterwards; else a new O_DIRECT file build/diskvet-scratch-PID.img, removed afterwards), judged against the
# 'sanity' profile. Ends on the verdict table and the path of the report (build/quick-report.json).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh"
"$top/scripts/build.sh" "$top/build"
cd "$top/build"
exec ./cli/diskvet run --suite quick --profile sanity --out quick-report.json "$@"
