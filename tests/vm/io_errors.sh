#!/usr/bin/env bash
# A drive that cannot read one sector (QEMU blkdebug answers EIO for every read of it) FAILs with its
# I/O errors counted and the first ones listed with offset and LBA, while the two healthy drives
# beside it run their test whole and PASS, and the report is complete (exit 1: a FAIL, not an abort).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
bad=$(vm_drive bad 64M); good1=$(vm_drive good1 64M); good2=$(vm_drive good2 64M)
# 16 MiB: inside the tested region (lab-seqread.json reads it sequentially from 0), far from the
# first and last sectors that the kernel's partition scan and blkid read while the guest boots.
bad_sector=32768
# The raw format driver above blkdebug raises read_aio for every read; the rule fails those that
# cover the sector, every time (once = off).
cat > "$vm_dir/blkdebug.conf" <<CONF
[inject-error]
event = "read_aio"
errno = "5"
sector = "$bad_sector"
once = "off"
CONF
data=$(vm_data_disk)
vm_boot_kernel 150 "diskvet.run=lab-seqread.json diskvet.profile=lab-seqread-floor.json diskvet.poweroff=1" \
  -drive "file=$data,if=virtio,format=raw" \
  -drive "file=blkdebug:$vm_dir/blkdebug.conf:$bad,if=none,id=dbad,format=raw" -device nvme,serial=DVIOE0BAD,drive=dbad \
  -drive "file=$good1,if=none,id=dgood1,format=raw" -device nvme,serial=DVIOE0GOOD1,drive=dgood1 \
  -drive "file=$good2,if=none,id=dgood2,format=raw" -device nvme,serial=DVIOE0GOOD2,drive=dgood2
vm_report devices DVIOE0BAD DVIOE0GOOD1 DVIOE0GOOD2
vm_report io-errors DVIOE0BAD $((bad_sector * 512))
vm_report clean DVIOE0GOOD1 DVIOE0GOOD2
vm_report verdict DVIOE0GOOD1 PASS
vm_report verdict DVIOE0GOOD2 PASS
vm_report complete
vm_expect 'DISKVET REPORT END === exit=1' "the run should end with exit code 1 (a device FAILed, the run was not aborted)"
vm_pass "the drive with an unreadable sector FAILs with its I/O errors listed; its two neighbours PASS; the report is complete"
