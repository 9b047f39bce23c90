#!/usr/bin/env bash
# Cloud identities as the guest sees them: a SCSI disk with vendor=Msft, product=Virtual Disk (an
# Azure managed disk) and one with vendor=Google, product=PersistentDisk, throttled by QEMU to a
# tier's numbers. --profile auto infers the Azure disk's tier from its size (64 MiB: P1, 120 IOPS)
# and says "inferred", and the disk is judged against P1's limits. Under a cap of 60 IOPS it FAILs
# max-iops (the cap bounds what any guest measures). Under 200 IOPS it is judged PASS or FAIL: which
# one is the emulated disk's speed on this host (P1 promises a mean latency of 10 ms, which a guest
# under TCG on a loaded host does not always keep), never asserted. The Google disk gets no profile:
# its type cannot be seen from the guest, and the report asks for it by name.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
az=$(vm_drive azure 64M); gcp=$(vm_drive gcp 64M)
data=$(vm_data_disk)
boot() {  # boot CAP_IOPS
  vm_boot_kernel 200 "diskvet.run=lab-cloud.json diskvet.profile=auto diskvet.destroy-data=all-unprotected diskvet.poweroff=1" \
    -drive "file=$data,if=virtio,format=raw" -device virtio-scsi-pci,id=scsi0 \
    -drive "file=$az,if=none,id=daz,format=raw,throttling.iops-total=$1" \
    -device "scsi-hd,drive=daz,bus=scsi0.0,scsi-id=0,lun=0,vendor=Msft,product=Virtual Disk,serial=DVAZURE01" \
    -drive "file=$gcp,if=none,id=dgcp,format=raw" \
    -device "scsi-hd,drive=dgcp,bus=scsi0.0,scsi-id=1,lun=0,vendor=Google,product=PersistentDisk,serial=DVGCP0001"
}

boot 200
vm_report devices DVAZURE01 DVGCP0001
vm_report verdict DVAZURE01 'PASS|FAIL'
vm_report metric DVAZURE01 max-iops read.iops 120 'PASS|FAIL'
vm_report verdict DVGCP0001 NOT-JUDGED
vm_expect 'Azure Premium SSD P1 \(4 GiB\): inferred: an Azure managed disk' "the Azure disk's profile is not reported as inferred"
vm_expect 'Google Cloud Persistent Disk .*name it' "the Google disk's report does not ask for the profile by name"
vm_expect 'DISKVET REPORT END === exit=(1|4)'

mv "$vm_log" "$vm_dir/boot1.log"; : > "$vm_log"
boot 60
vm_report verdict DVAZURE01 FAIL
vm_report metric DVAZURE01 max-iops read.iops 120 FAIL
vm_expect 'DISKVET REPORT END === exit=1'
vm_pass "an Azure-looking disk is judged against the P1 its size implies (inferred), and FAILs max-iops under a 60 IOPS cap; a Google one is NOT JUDGED and asks for its profile"
