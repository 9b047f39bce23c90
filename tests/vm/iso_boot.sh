#!/usr/bin/env bash
# diskvet.iso boots from CD to the console program under BIOS (SeaBIOS) or UEFI (OVMF), checked on
# the serial screen: GRUB's menu, init finding and protecting its boot medium, the console banner.
#   iso_boot.sh bios|uefi
set -euo pipefail
source "$(dirname "$0")/lib.sh"
firmware=${1:?bios or uefi}
vm_require
[ -r "$VM_IMAGE_DIR/diskvet.iso" ] || vm_skip "no diskvet.iso in $VM_IMAGE_DIR"
vm_scratch
fw=()
if [ "$firmware" = uefi ]; then
  code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
  [ -r "$code" ] && [ -r "$vars" ] || vm_skip "OVMF not installed (scripts/deps.sh installs ovmf)"
  cp "$vars" "$vm_dir/vars.fd"
  fw=(-drive "if=pflash,format=raw,readonly=on,file=$code" -drive "if=pflash,format=raw,file=$vm_dir/vars.fd")
  # GRUB under OVMF runs out of memory loading kernel and initrd in a 256 MiB guest.
  VM_MEM_MB=512
fi
a=$(vm_drive a 64M)
# Software emulation (TCG) of OVMF, GRUB and the kernel: about 60 s on a quiet machine, past 240 s
# when the machine's two CPUs are shared with builds (seen in a loaded run). A hang shows as well
# at 480 s, inside ctest's limit (tests/vm/CMakeLists.txt: 600 s).
vm_boot_until 480 'diskvet appliance ready|diskvet tui' "${fw[@]}" -cdrom "$VM_IMAGE_DIR/diskvet.iso" \
  -drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVISO0001,drive=da
vm_expect 'GNU GRUB'
vm_expect 'boot medium: /dev/sr0 .*marker matches'
vm_expect 'disk /dev/nvme0n1 .*serial="DVISO0001"'
vm_pass "diskvet.iso booted to the console under $firmware"
