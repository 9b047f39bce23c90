#!/usr/bin/env bash
# A drive whose controller raises a SMART critical warning (QEMU smart_critical_warning) is
# reported with that warning (and, with diskvet run, FAILs), while a healthy drive beside it is not.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
a=$(vm_drive sick 64M); b=$(vm_drive well 64M)
# 0x04: NVM subsystem reliability degraded (NVMe base spec, SMART / Health log, byte 0).
data=$(vm_data_disk)
vm_boot_kernel 150 "diskvet.run=lab-suite.json diskvet.poweroff=1" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVCRIT0SICK,drive=da,smart_critical_warning=4 \
  -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVCRIT0WELL,drive=db
vm_report --devices critical-warning DVCRIT0SICK 4
vm_report --devices critical-warning DVCRIT0WELL 0
vm_report devices DVCRIT0SICK DVCRIT0WELL
vm_report critical-warning DVCRIT0SICK 4
vm_pass "the drive with critical warning 4 is reported as such"
