#!/usr/bin/env bash
# Writes the kept output of every report in this folder with the diskvet given: what
# tests/unit/report/report_golden_test.cpp compares the renderers with, byte for byte. Run it only
# to add a report, or when a change of the output is meant (and say so in the commit):
#   tests/data/report_golden/render.sh build/cli/diskvet
set -euo pipefail
diskvet=$(realpath "$1")
cd "$(dirname "$0")"
# The exit code is the run's own (or compare's and fleet's verdict): not a failure here.
run() { "$diskvet" "$@" || [ $? -le 4 ]; }
for r in quick-loop schema1-two-drives minimal-sweep null-two-drives-pass null-fail null-cloud-burst null-burnin-stall-mismatch \
         burnin-stall-mismatch sata-logs-write-amplification snia-iops-matrix capacity-probe hosts; do
  run report "$r.json" >"$r.txt"
  rm -f "$r.html"
  run report "$r.json" --html "$r.html" >/dev/null
done
compare() {
  run compare "$1" "$2" >"$3.txt"
  rm -f "$3.html"
  run compare "$1" "$2" --html "$3.html" >/dev/null
}
compare null-two-drives-pass.json null-fail.json compare-pass-fail
compare schema1-two-drives.json quick-loop.json compare-schema1-quick
compare hosts.json hosts-slower.json compare-hosts
rm -f fleet.html fleet.csv
run fleet quick-loop.json schema1-two-drives.json null-two-drives-pass.json null-fail.json sata-logs-write-amplification.json >fleet.txt
run fleet quick-loop.json schema1-two-drives.json null-two-drives-pass.json null-fail.json sata-logs-write-amplification.json \
  --html fleet.html --csv fleet.csv >/dev/null
