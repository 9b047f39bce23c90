#!/usr/bin/env bash
# A drive throttled by QEMU (throttling.iops-total) measures at most its cap inside the guest; a
# profile promising less than the cap PASSes it, one promising more FAILs it, while its unthrottled
# neighbour PASSes the lower one (and is judged on the higher one, which a loaded host's guest may
# not reach unthrottled either).
# The guest is emulated (TCG) on a host that may be busy: a loaded host slows the guest, never speeds
# it up. So what is checked holds under load: the throttled drive never measures above its cap (and
# is measured at all), the higher promise (1.3x the cap) is one the throttle cannot let through, and
# the lower one (a fifth of the cap) is one a slowed guest still meets.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
cap=250  # the lab profiles promise 50 (less) and 325 (more) read IOPS
a=$(vm_drive slow 64M); b=$(vm_drive free 64M)
data=$(vm_data_disk)
drives=(-drive "file=$data,if=virtio,format=raw"
        -drive "file=$a,if=none,id=da,format=raw,throttling.iops-total=$cap" -device nvme,serial=DVTHR0SLOW,drive=da
        -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVTHR0FREE,drive=db)

vm_boot_kernel 150 "diskvet.run=lab-suite.json diskvet.profile=lab-promise-less.json diskvet.poweroff=1" "${drives[@]}"
vm_report devices DVTHR0SLOW DVTHR0FREE
vm_report iops-capped DVTHR0SLOW "$cap"
vm_report verdict DVTHR0SLOW PASS
vm_report verdict DVTHR0FREE PASS
vm_expect 'DISKVET REPORT END === exit=0'

mv "$vm_log" "$vm_dir/boot1.log"; : > "$vm_log"
vm_boot_kernel 150 "diskvet.run=lab-suite.json diskvet.profile=lab-promise-more.json diskvet.poweroff=1" "${drives[@]}"
vm_report iops-capped DVTHR0SLOW "$cap"
vm_report verdict DVTHR0SLOW FAIL
vm_report verdict DVTHR0FREE 'PASS|FAIL'  # 325 IOPS at QD1 unthrottled: the host's speed, not asserted
vm_expect 'DISKVET REPORT END === exit=1'
vm_pass "the throttled drive measured at most its $cap IOPS cap: PASS against a lower promise, FAIL against a higher one"
