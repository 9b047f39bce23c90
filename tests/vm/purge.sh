#!/usr/bin/env bash
# The purge of an unattended run issues NVMe Format NVM with user-data erase on QEMU's emulated
# controller (which offers Format NVM but no Sanitize), and only on a drive with consent: a drive
# image filled with a pattern from the host reads back without it after the purge suite (which
# writes nothing else), while a run refused for want of consent leaves every drive as it was.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
a=$(vm_drive purge 64M); b=$(vm_drive keep 64M)

# Fills a drive image with a 16-byte pattern; counts the copies of it still there.
pattern=DISKVET-PURGE-16
fill() { python3 -c 'import sys; p=sys.argv[2].encode(); open(sys.argv[1], "r+b").write(p * (64 * 2**20 // len(p)))' "$1" "$pattern"; }
left() { python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(sys.argv[2].encode()))' "$1" "$pattern"; }
fill "$a"; fill "$b"
full=$(left "$a")
[ "$full" -eq $((64 * 1048576 / 16)) ] || vm_fail "the pattern was not written on the host side ($full blocks)"
data=$(vm_data_disk)
drives=(-drive "file=$data,if=virtio,format=raw"
        -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVPURGE0001,drive=da
        -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVPURGE0002,drive=db)

# 1. Both drives in the run, consent for one: the gate refuses the run before any purge.
vm_boot_kernel 150 "diskvet.run=lab-purge-suite.json diskvet.devices=DVPURGE0001,DVPURGE0002 diskvet.destroy-data=DVPURGE0001 diskvet.poweroff=1" "${drives[@]}"
vm_expect 'DISKVET REPORT END === exit=2' "the run without consent for DVPURGE0002 was not refused (exit 2)"
vm_expect 'needs consent' "the refusal does not say that consent is missing"
[ "$(left "$a")" -eq "$full" ] || vm_fail "the drive with consent was written although the run was refused ($(left "$a") of $full pattern blocks left)"
[ "$(left "$b")" -eq "$full" ] || vm_fail "the drive without consent was written ($(left "$b") of $full pattern blocks left)"
echo "refused run: both drives still hold all $full pattern blocks"

# 2. Only the consented drive: it is formatted, its neighbour is untouched.
mv "$vm_log" "$vm_dir/boot1.log"; : > "$vm_log"
vm_boot_kernel 150 "diskvet.run=lab-purge-suite.json diskvet.devices=DVPURGE0001 diskvet.destroy-data=DVPURGE0001 diskvet.profile=none diskvet.poweroff=1" "${drives[@]}"
vm_expect 'DISKVET REPORT END === exit=0'
vm_report purge DVPURGE0001 nvme-format-user-data-erase
vm_report absent DVPURGE0002
n=$(left "$a")
[ "$n" -eq 0 ] || vm_fail "$n of $full pattern blocks are still on the purged drive"
[ "$(left "$b")" -eq "$full" ] || vm_fail "the drive outside the run was written ($(left "$b") of $full pattern blocks left)"
vm_pass "Format NVM (user data erase) erased the consented drive's $full pattern blocks; without consent nothing was purged"
