#!/usr/bin/env bash
# Reads held past the guest kernel's 30 s NVMe timeout: the guest driver times them out and aborts
# them; diskvet's watchdog (io_timeout 5 s in lab-stall.json) records the stall with its LBA and how
# long it was out, the kernel's lines about that controller are in the drive's report section, and the
# drive FAILs. (One drive only: a healthy neighbour cannot be relied on to PASS in this lab while
# QEMU 7.2's emulated NVMe under TCG loses an occasional completion, which the watchdog reports as the
# stall it is.)
#
# The hold is QEMU's own read throttle, set over QMP mid-run (block_set_io_throttle, 3000 B/s: after
# the first 128K read the next waits about 44 s), not a blkdebug breakpoint. A breakpoint waits for a
# QMP "resume", and when the guest resets the controller while a read is held (after a completion the
# emulation lost) QEMU's reset waits for that read with its big lock held, QMP included, and never
# returns: CI saw that hang until ctest killed the test. A throttled read is let go by QEMU's own
# timer. The suite reads at QD1 so only one read is held at a time: held reads queue behind each other
# in the throttle, and at QD4 the third would still be out at the guest's second timeout (60 s),
# whose controller reset would then block QEMU until the throttle let the whole queue go.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
held=$(vm_drive held 64M)
data=$(vm_data_disk)
vm_start_kernel "diskvet.run=lab-stall.json diskvet.profile=lab-seqread-floor.json diskvet.poweroff=1 diskvet.deadline=420" \
  -qmp "unix:$vm_dir/qmp.sock,server=on,wait=off" \
  -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$held,if=none,id=dheld,format=raw" -device nvme,serial=DVSTL0HELD,drive=dheld
vm_wait_for 120 'diskvet-init: disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVSTL0HELD"'
dev=$(grep -aoE 'disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVSTL0HELD"' "$vm_log" | awk '{print $2}')
throttle() {
  python3 "$vm_here/qmp.py" "$vm_dir/qmp.sock" block_set_io_throttle \
    "{\"device\": \"dheld\", \"bps\": 0, \"bps_rd\": $1, \"bps_wr\": 0, \"iops\": 0, \"iops_rd\": 0, \"iops_wr\": 0}"
}
# The reads the held drive has completed, by QEMU's count (query-blockstats), not the guest's.
held_reads() {
  python3 "$vm_here/qmp.py" "$vm_dir/qmp.sock" query-blockstats \
    | python3 -c 'import json, sys; print(sum(s["stats"]["rd_operations"] for s in json.load(sys.stdin) if s.get("device") == "dheld"))'
}
timeouts() { grep -caE "nvme[0-9]+: I/O [0-9]+ .*QID [0-9]+ timeout" "$vm_log" || true; }
resets() { grep -caE "nvme[0-9]+: I/O [0-9]+ .*QID [0-9]+ timeout, (reset|disable) controller" "$vm_log" || true; }
aborts() { grep -caE "nvme[0-9]+: Abort status" "$vm_log" || true; }
# The hold starts once the measured reads are flowing: the drive has served 16 of them (2 MiB) since
# the run said it measures.
vm_wait_for 240 "\[$dev\] measure"
reads_before=$(held_reads) || vm_fail "QMP: query-blockstats failed"
until [ "$(held_reads)" -ge $((reads_before + 16)) ]; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before it read the held drive"
  [ $((SECONDS - vm_started_s)) -lt 300 ] || vm_fail "the held drive served $(($(held_reads) - reads_before)) measured reads within 300s of the boot"
  sleep 0.2
done
before=$(timeouts)
resets_before=$(resets)
aborts_before=$(aborts)
throttle 3000 || vm_fail "QMP: block_set_io_throttle failed"
held_at=$SECONDS
echo "reads of DVSTL0HELD ($dev) throttled from $((held_at - vm_started_s))s after the boot"
# Let go once the guest has timed a read out (30 s, then an abort) and before a second timeout could
# reset the controller; at once if the guest resets it anyway (a completion the emulation lost before
# the hold), so that reads the reset re-sends are not held into a timeout that disables the drive.
until [ "$(timeouts)" -gt "$before" ] || [ "$(resets)" -gt "$resets_before" ] || [ $((SECONDS - held_at)) -ge 50 ]; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped while its reads were held"
  sleep 1
done
# Then the abort that follows the timeout line: until the guest prints its status (QEMU answers an
# abort at once) or resets the controller; 20 s only catches an abort that never completes.
timed_out_at=$SECONDS
until [ "$(aborts)" -gt "$aborts_before" ] || [ "$(resets)" -gt "$resets_before" ] || [ $((SECONDS - timed_out_at)) -ge 20 ]; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped while its reads were held"
  sleep 0.2
done
echo "releasing after $((SECONDS - held_at))s ($(( $(timeouts) - before )) kernel timeout line(s) meanwhile)"
# Three tries of 20 s each: if the guest reset the controller while a read was held (after a
# completion the emulation lost), QEMU's reset waits for that read, QMP with it, until the throttle
# lets it go (44 s at most).
lifted=0
for try in 1 2 3; do throttle 0 && { lifted=1; break; }; done
[ "$lifted" = 1 ] || vm_fail "QMP: removing the throttle failed three times"
vm_wait_poweroff 480
vm_report devices DVSTL0HELD
vm_report stall DVSTL0HELD 30
vm_report kernel-line DVSTL0HELD timeout
vm_report verdict DVSTL0HELD FAIL
vm_report complete
vm_expect 'DISKVET REPORT END === exit=1' "the run should end with exit code 1 (the held drive FAILed)"
vm_pass "a read held past the guest's NVMe timeout is a stall with its LBA, the kernel's lines are in the report, the drive FAILs"
