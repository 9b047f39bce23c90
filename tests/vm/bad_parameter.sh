#!/usr/bin/env bash
# A bad unattended parameter is reported on the console and nothing runs or is written: no report
# on the console, none on the DISKVET partition, and the drives stay as they were.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
command -v mformat >/dev/null || vm_skip "mtools not installed"
a=$(vm_drive a 64M)
data=$(vm_drive data 8M)
mformat -i "$data" -v DISKVET ::
vm_boot_kernel 120 "diskvet.run=quick diskvet.devices=NO-SUCH-SERIAL diskvet.destroy-data=all-unprotected diskvet.poweroff=1" \
  -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVBAD0001,drive=da \
  -drive "file=$data,if=virtio,format=raw"
vm_expect "BAD PARAMETER: diskvet.devices: no device 'NO-SUCH-SERIAL'"
vm_expect 'nothing was run and nothing was written'
vm_report count 0
[ -z "$(mdir -i "$data" -b ::/reports 2>/dev/null)" ] || vm_fail "a report was written to the DISKVET partition"
cmp -s -n 67108864 "$a" /dev/zero || vm_fail "the drive was written"
# A pattern is text: init runs in /, where /dev/nvme* would name every NVMe disk; as consent it
# names none (the settings' own fuzzing is tests/image/).
vm_boot_kernel 120 "diskvet.run=quick diskvet.devices=DVBAD0001 diskvet.destroy-data=/dev/nvme* diskvet.poweroff=1" \
  -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVBAD0001,drive=da \
  -drive "file=$data,if=virtio,format=raw"
vm_expect "BAD PARAMETER: diskvet.destroy-data: no device '/dev/nvme\*'"
vm_report count 0
cmp -s -n 67108864 "$a" /dev/zero || vm_fail "the drive was written under a consent given as a pattern"
vm_pass "bad parameters reported (an unknown device, a consent given as a pattern), nothing run or written"
