#!/usr/bin/env bash
# Consent by serial reaches one NVMe namespace, never its neighbour: one emulated controller with two
# namespaces, namespace 2 formatted ext4. An unattended run over every disk with
# diskvet.destroy-data=<serial> is refused, naming each namespace's exact id, and leaves both images
# identical byte for byte; diskvet.destroy-data=<serial>/1 writes namespace 1 only.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
command -v mkfs.ext4 >/dev/null || vm_skip "mkfs.ext4 not installed (e2fsprogs)"
vm_scratch
serial=DVNS00001
ns1=$(vm_drive ns1 64M); ns2=$(vm_drive ns2 64M)
mkfs.ext4 -q -F -L DVNS2 "$ns2" || vm_fail "mkfs.ext4 on the namespace 2 image failed"
sum() { sha256sum "$1" | cut -d' ' -f1; }
ns1_before=$(sum "$ns1"); ns2_before=$(sum "$ns2")
data=$(vm_data_disk)
# QEMU 7.2: namespaces attach to the controller named by bus=; no nvme-subsys is needed.
drives=(-drive "file=$data,if=virtio,format=raw"
        -device nvme,id=c0,serial=$serial
        -drive "file=$ns1,if=none,id=n1,format=raw" -device nvme-ns,bus=c0,nsid=1,drive=n1
        -drive "file=$ns2,if=none,id=n2,format=raw" -device nvme-ns,bus=c0,nsid=2,drive=n2)

# 1. Every disk (diskvet.devices unset), consent by the controller's serial: refused before any write.
vm_boot_kernel 200 "diskvet.run=lab-write.json diskvet.destroy-data=$serial diskvet.poweroff=1" "${drives[@]}"
vm_expect "disk /dev/nvme0n1 .*serial=\"$serial\" nsid=1" "the guest does not show namespace 1"
vm_expect "disk /dev/nvme0n2 .*serial=\"$serial\" nsid=2" "the guest does not show namespace 2"
vm_report --devices consent-id /dev/nvme0n1 "$serial/1"
vm_report --devices consent-id /dev/nvme0n2 "$serial/2"
vm_expect 'DISKVET REPORT END === exit=2' "the run with a bare controller serial as consent was not refused (exit 2)"
vm_expect "/dev/nvme0n1: $serial/1" "the refusal does not name namespace 1's exact id"
vm_expect "/dev/nvme0n2: $serial/2" "the refusal does not name namespace 2's exact id"
[ "$(sum "$ns2")" = "$ns2_before" ] || vm_fail "namespace 2 (ext4) changed although consent named only the controller's serial"
[ "$(sum "$ns1")" = "$ns1_before" ] || vm_fail "namespace 1 changed although the run was refused"
grep -aoE "names several devices.*" "$vm_log" | head -n 1
echo "bare serial: refused, both namespace images identical byte for byte"

# 2. Consent by SERIAL/1: namespace 1 is tested and written, namespace 2 is not touched.
mv "$vm_log" "$vm_dir/boot1.log"; : > "$vm_log"
vm_boot_kernel 200 "diskvet.run=lab-write.json diskvet.devices=$serial/1 diskvet.destroy-data=$serial/1 diskvet.poweroff=1" "${drives[@]}"
vm_expect 'DISKVET REPORT END === exit=[04]' "the run with consent $serial/1 did not complete"
vm_report tested /dev/nvme0n1
[ "$(sum "$ns2")" = "$ns2_before" ] || vm_fail "namespace 2 (ext4) changed although consent named $serial/1"
[ "$(sum "$ns1")" != "$ns1_before" ] || vm_fail "namespace 1 was not written although consent named $serial/1"
vm_pass "$serial/1 wrote namespace 1 only; namespace 2 and a bare-serial run left every byte of namespace 2 as it was"
