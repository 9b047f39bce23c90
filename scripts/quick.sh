#!/usr/bin/env bash
# The main job on a machine with no device named: installs what is missing, builds, and runs a
# quick workload on a scratch O_DIRECT file it creates (build/scratch.img, 1 GiB).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh"
"$top/scripts/build.sh" "$top/build"
"$top/build/cli/diskvet" io --filename "$top/build/scratch.img" --size 1g --rw randread --bs 4k --iodepth 32 --runtime 5s --ramp-time 1s "$@"
