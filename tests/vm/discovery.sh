#!/usr/bin/env bash
# Two emulated NVMe drives: the guest lists both with their serials and model, and an unattended
# lab-suite run (measurement only: --profile none) prints one parseable report with an entry per
# drive and its SMART temperature, and exits 0.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
a=$(vm_drive a 64M); b=$(vm_drive b 64M)
data=$(vm_data_disk)
vm_boot_kernel 150 "diskvet.run=lab-suite.json diskvet.profile=none diskvet.poweroff=1" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVDISC0001,drive=da \
  -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVDISC0002,drive=db
vm_expect 'disk /dev/nvme[0-9]n1 size_bytes=67108864 model="QEMU NVMe Ctrl" serial="DVDISC0001"'
vm_expect 'disk /dev/nvme[0-9]n1 size_bytes=67108864 model="QEMU NVMe Ctrl" serial="DVDISC0002"'
vm_report devices DVDISC0001 DVDISC0002
# QEMU's emulated controller reports a composite temperature of 323 K (50 °C).
vm_report --devices devices DVDISC0001 DVDISC0002
vm_report --devices temperature DVDISC0001 323
vm_report --devices temperature DVDISC0002 323
vm_expect 'DISKVET REPORT END === exit=0'
vm_pass "guest saw both drives by serial and reported on each"
