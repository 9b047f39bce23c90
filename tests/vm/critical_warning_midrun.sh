#!/usr/bin/env bash
# A SMART critical warning raised while a burn-in runs (QMP qom-set on the NVMe controller's
# smart_critical_warning) is caught by the health polls: that drive FAILs naming the warning and the
# time it was first seen (the polls before show none), the healthy drive beside it does not.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
sick=$(vm_drive sick 32M); well=$(vm_drive well 32M)
data=$(vm_data_disk)
# lab-burnin.json: a 16 MiB write pass, then 25 s of verified 70/30 load; health polled every second.
# QEMU traces every log page the emulated controllers return (pci_nvme_get_log): the drives' own
# record of the health polls (SMART / Health log, lid 0x2).
trace="$vm_dir/nvme-trace.log"
vm_start_kernel "diskvet.run=lab-burnin.json diskvet.destroy-data=DVMID0SICK,DVMID0WELL diskvet.poweroff=1" \
  -D "$trace" -trace pci_nvme_get_log \
  -qmp "unix:$vm_dir/qmp.sock,server=on,wait=off" \
  -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$sick,if=none,id=dsick,format=raw" -device nvme,id=nvsick,serial=DVMID0SICK,drive=dsick \
  -drive "file=$well,if=none,id=dwell,format=raw" -device nvme,id=nvwell,serial=DVMID0WELL,drive=dwell
vm_wait_for 120 'diskvet-init: disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVMID0SICK"'
dev=$(grep -aoE 'disk /dev/nvme[0-9]+n[0-9]+ .*serial="DVMID0SICK"' "$vm_log" | awk '{print $2}')
# The run has started measuring the mixed load on that drive; the warning is raised once the drives
# have answered four more health polls (two rounds of both), which all saw none: counted on the
# drives' side, not on this script's clock.
vm_wait_for 200 "\[$dev\] measure random-verify-behind"
smart_reads() { grep -c 'pci_nvme_get_log .*lid 0x2 ' "$trace" 2>/dev/null || true; }
polls_before=$(smart_reads)
until [ "$(smart_reads)" -ge $((polls_before + 4)) ]; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before its drives were polled for health mid-run"
  [ $((SECONDS - vm_started_s)) -lt 240 ] || vm_fail "the drives answered $(($(smart_reads) - polls_before)) health polls mid-run within 240s of the boot"
  sleep 0.2
done
# 0x04: NVM subsystem reliability degraded (NVMe base spec, SMART / Health log, byte 0).
python3 "$vm_here/qmp.py" "$vm_dir/qmp.sock" qom-set \
  '{"path": "/machine/peripheral/nvsick", "property": "smart_critical_warning", "value": 4}' \
  || vm_fail "QMP qom-set of smart_critical_warning failed"
echo "critical warning 4 raised on DVMID0SICK ($dev) $((SECONDS - vm_started_s))s after the boot, mid-run"
vm_wait_poweroff 280
vm_report devices DVMID0SICK DVMID0WELL
vm_report health-raised DVMID0SICK 4
vm_report health-quiet DVMID0WELL
vm_report clean DVMID0SICK DVMID0WELL
vm_report complete
vm_expect 'DISKVET REPORT END === exit=1' "the run should end with exit code 1 (a device FAILed)"
vm_pass "the critical warning raised mid-run FAILs its drive with the time first seen; the healthy drive does not FAIL for health"
