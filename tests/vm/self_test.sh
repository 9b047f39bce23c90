#!/usr/bin/env bash
# The drive's own self-test end to end (issue 26): `diskvet selftest` in the guest's shell on QEMU's
# emulated IDE disk, which answers smartctl's SMART EXECUTE OFF-LINE IMMEDIATE (short test) and logs
# "Completed without error" at once, and on an emulated NVMe drive, which has no Device Self-test in
# QEMU 7.2 (OACS bit 4 clear): the first PASSes in the drive's words, the second is stated as not
# supported and never passed, so the run ends NOT-JUDGED (exit 4). The report also carries the IDE
# disk's ATA error and self-test logs and the NVMe drive's answer to the OCP log.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
ide=$(vm_drive ide 64M); nvme=$(vm_drive nvme 64M)
vm_start_shell 150 "" -drive "file=$ide,if=none,id=di,format=raw" -device ide-hd,drive=di,serial=DVSELF0IDE \
  -drive "file=$nvme,if=none,id=dn,format=raw" -device nvme,serial=DVSELF0NVME,drive=dn
# The marker is printed in two pieces so that the echo of the command line never matches it.
printf '%s\r' 'diskvet selftest --device /dev/sda --device /dev/nvme0n1 --out /tmp/selftest.json; echo "SELFTEST""-EXIT=$?"' >&3
vm_wait_for 270 '^SELFTEST-EXIT='
printf '%s\r' 'poweroff -f' >&3
exec 3>&-
vm_wait_poweroff 300
vm_expect 'self-test before \(short\): PASSED: Short offline: Completed without error \(status 0h\)' "the IDE disk's short self-test did not pass in the drive's words"
vm_expect 'self-test before \(short\): NOT SUPPORTED \(not counted as passed\): not supported: the controller does not have the Device Self-test command' \
  "the NVMe drive's missing self-test was not stated"
vm_expect '^SELFTEST-EXIT=4' "the run should end with exit code 4 (the NVMe drive NOT-JUDGED)"
# The health evidence read around the run on both: the IDE disk's SMART summary error log and
# self-test log (QEMU answers SMART READ LOG 01h and 06h), and the NVMe drive's missing OCP log (C0h).
vm_expect 'SATA/SAS logs: ATA summary error log: no new errors \(0 in the drive.s life\); ATA self-test log: no new entries during the run' \
  "the IDE disk's ATA error and self-test logs were not read around the run"
vm_expect 'write amplification: the drive has no OCP SMART / Health Information Extended log' "the NVMe drive's missing OCP log was not stated"
vm_pass "the IDE disk's short self-test passed through smartctl; the NVMe drive without Device Self-test is not supported, never passed"
