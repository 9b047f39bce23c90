#!/usr/bin/env bash
# A read held by QEMU's blkdebug past the guest kernel's 30 s NVMe timeout: the guest driver times
# it out and aborts it; diskvet's watchdog (io_timeout 5 s in lab-stall.json) records
# the stall with its LBA and how long it was out, the kernel's lines about that controller are in the
# drive's report section, and the drive FAILs. (One drive only: a healthy neighbour cannot be relied
# on to PASS in this lab while QEMU 7.2's emulated NVMe under TCG loses an occasional completion,
# which the watchdog now reports as the stall it is.)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
held=$(vm_drive held 64M)
data=$(vm_data_disk)
# An empty blkdebug config: the rule that holds a request is set over QMP once the run reads.
: > "$vm_dir/blkdebug.conf"
# QEMU's own messages (blkdebug prints on stdout when it holds a request) go to a file the test reads.
qemu_err="$vm_dir/qemu.out"
vm_start_kernel "diskvet.run=lab-stall.json diskvet.profile=lab-seqread-floor.json diskvet.poweroff=1 diskvet.deadline=420" \
  -qmp "unix:$vm_dir/qmp.sock,server=on,wait=off" \
  -drive "file=$data,if=virtio,format=raw" \
  -drive "file=blkdebug:$vm_dir/blkdebug.conf:$held,if=none,id=dheld,format=raw" -device nvme,serial=DVSTL0HELD,drive=dheld >"$qemu_err" 2>&1
vm_wait_for 120 'diskvet-init: disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVSTL0HELD"'
dev=$(grep -aoE 'disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVSTL0HELD"' "$vm_log" | awk '{print $2}')
vm_wait_for 240 "\[$dev\] measure"
sleep 3
hmp() { python3 "$vm_here/qmp.py" "$vm_dir/qmp.sock" human-monitor-command "{\"command-line\": \"qemu-io dheld \\\"$1\\\"\"}"; }
timeouts() { grep -caE "nvme[0-9]+: I/O [0-9]+ .*QID [0-9]+ timeout" "$vm_log" || true; }
hmp "break read_aio held" || vm_fail "QMP: blkdebug break failed"
# The hold starts when blkdebug says it suspended a read, not when the rule was set: a completion the
# emulated controller loses under TCG can keep the guest from reading for its whole 30 s timeout, and
# a resume sent before the read is held finds nothing, leaves the rule armed, and the read it then
# holds is never let go (CI saw QEMU hang until ctest killed it).
set_at=$SECONDS
until grep -qa "Suspended request 'held'" "$qemu_err"; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before blkdebug held a read"
  [ $((SECONDS - set_at)) -lt 120 ] || { cat "$qemu_err"; vm_fail "blkdebug held no read of DVSTL0HELD within 120s of the rule"; }
  sleep 0.5
done
held_at=$SECONDS
before=$(timeouts)
echo "blkdebug holds a read of DVSTL0HELD ($dev) from $((held_at - vm_started_s))s after the boot ($((held_at - set_at))s after the rule)"
# Let go once the guest has timed it out (30 s, then an abort) and before its next timeout would reset
# the controller: QEMU's reset waits for the held request with the big lock held, so a reset before
# the resume would hang QEMU (QMP included) for good.
until [ "$(timeouts)" -gt "$before" ] || [ $((SECONDS - held_at)) -ge 50 ]; do sleep 1; done
sleep 3
echo "resuming after $((SECONDS - held_at))s"
hmp "resume held" | tee "$vm_dir/resume.out" || vm_fail "QMP: blkdebug resume failed"
! grep -q "Could not resume" "$vm_dir/resume.out" || { cat "$qemu_err"; vm_fail "blkdebug could not resume the held read"; }
vm_wait_poweroff 480
vm_report devices DVSTL0HELD
vm_report stall DVSTL0HELD 30
vm_report kernel-line DVSTL0HELD timeout
vm_report verdict DVSTL0HELD FAIL
vm_report complete
vm_expect 'DISKVET REPORT END === exit=1' "the run should end with exit code 1 (the held drive FAILed)"
vm_pass "a read held past the guest's NVMe timeout is a stall with its LBA, the kernel's lines are in the report, the drive FAILs"
