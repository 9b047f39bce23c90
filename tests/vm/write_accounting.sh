#!/usr/bin/env bash
# Counters that must add up (issue 26), end to end on QEMU's emulated NVMe, which keeps real Data
# Units Written: three drives written by one parallel run (tests/vm/accounting_guest.sh in the
# guest's shell). DVACCT0ALONE, written by diskvet alone: the drive's count agrees with what was
# sent and nothing else is named. DVACCT0PASSTHRU, 8 MiB more written through NVMe passthrough
# during the run: the drive counted more than this host's kernel sent it, a FAIL. DVACCT0DD, 8 MiB
# more written through the block device: the counts agree, another writer of 8 MiB is named and
# the drive is not PASS.
# QEMU 7.2's emulated NVMe under TCG lost one of diskvet's writes on DVACCT0PASSTHRU in two CI runs
# (the guest kernel logged "I/O N QID 1 timeout, aborting"; diskvet rightly reported the stall and
# the drive had no accounting to check): each time passthrough commands were sent while diskvet's
# writes were out on the same drive. The guest script now waits, diskvet stopped, until the block
# layer has nothing in flight on the two drives before the second writers write, and the suite
# (lab-accounting.json) writes at 500 IOPS, about 40 MiB per drive, which is plenty to count.
# A loaded run then found the other cause: the second writers took over a minute on a busy host while
# diskvet was stopped, and on resuming diskvet's watchdog took the I/Os it had out on DVACCT0ALONE
# for a minute-long stall of that drive and abandoned it. diskvet now tells its own pauses from the
# device's (runner/io/engine.hpp, kSamplerPauseNs): a long stop makes the drives INCONCLUSIVE, never
# abandoned, and their accounting is still judged.
# A clean run then found the emulator losing a read of diskvet's gate on DVACCT0PASSTHRU: the gate,
# under its 2 s deadline, refused the drive before anything was written. The guest script runs
# diskvet once more in that case alone, with the evidence printed (accounting_guest.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
alone=$(vm_drive alone 64M); passthru=$(vm_drive passthru 64M); other=$(vm_drive dd 64M)
data=$(vm_data_disk)
mcopy -i "$data" "$vm_here/accounting_guest.sh" ::/
vm_start_shell 150 "" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$alone,if=none,id=da,format=raw" -device nvme,serial=DVACCT0ALONE,drive=da \
  -drive "file=$passthru,if=none,id=dp,format=raw" -device nvme,serial=DVACCT0PASSTHRU,drive=dp \
  -drive "file=$other,if=none,id=dd,format=raw" -device nvme,serial=DVACCT0DD,drive=dd
printf '%s\r' 'sh /media/diskvet/accounting_guest.sh' >&3
vm_wait_for 270 '=== DISKVET REPORT END ===|^ACCOUNTING: (no drive|diskvet ended)'
vm_expect '=== DISKVET REPORT END ===' "the guest's script stopped before the report: $(grep -a '^ACCOUNTING' "$vm_log" | tail -n 3)"
printf '%s\r' 'sync; poweroff -f' >&3
exec 3>&-
vm_wait_poweroff 300
vm_expect_not '^ACCOUNTING: cannot set the I/O timeout' "the guest kernel's I/O timeout could not be shortened"
vm_expect_not '^ACCOUNTING: (nvme write|dd) ' "a second writer failed in the guest"
vm_expect_not '^ACCOUNTING: .* still has I/O in flight' "the emulated drive did not finish diskvet's writes while diskvet was stopped"
vm_expect '^ACCOUNTING: second writers done'
vm_report devices DVACCT0ALONE DVACCT0PASSTHRU DVACCT0DD
vm_report accounting DVACCT0ALONE agrees
vm_report accounting DVACCT0PASSTHRU counted-more
vm_report accounting DVACCT0DD agrees 8
vm_expect 'DISKVET REPORT END === exit=1' "the run should end with exit code 1 (a drive FAILed)"
vm_pass "Data Units Written agree with what diskvet sent; a passthrough writer FAILs its drive; a block-device writer is named"
