#!/usr/bin/env bash
# A drive throttled by QEMU (throttling.iops-total) measures near its cap inside the guest; its
# unthrottled neighbour is tested in the same run.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
cap=250
a=$(vm_drive slow 64M); b=$(vm_drive free 64M)
data=$(vm_data_disk)
vm_boot_kernel 150 "diskvet.run=lab-suite.json diskvet.poweroff=1" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$a,if=none,id=da,format=raw,throttling.iops-total=$cap" -device nvme,serial=DVTHR0SLOW,drive=da \
  -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVTHR0FREE,drive=db
vm_report devices DVTHR0SLOW DVTHR0FREE
vm_report iops-near DVTHR0SLOW "$cap"
vm_pass "the throttled drive measured near its $cap IOPS cap"
