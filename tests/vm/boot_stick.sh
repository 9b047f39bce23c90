#!/usr/bin/env bash
# diskvet.iso written to a USB stick and booted through GRUB: after the operator unmounts both of the
# stick's file systems, diskvet still knows the stick as its boot medium (the marker on its DISKVET
# partition, diskvet.boot= from GRUB), lists it PROTECTED, and refuses it under all-unprotected,
# saying why; the stick's image is identical byte for byte afterwards.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
[ -r "$VM_IMAGE_DIR/diskvet.iso" ] || vm_skip "no diskvet.iso in $VM_IMAGE_DIR"
command -v mmd >/dev/null && command -v sfdisk >/dev/null || vm_skip "mtools or sfdisk (fdisk) not installed"
export MTOOLS_SKIP_CHECK=1
vm_scratch
stick="$vm_dir/stick.img"
cp "$VM_IMAGE_DIR/diskvet.iso" "$stick"
off=$(vm_diskvet_offset "$stick") || vm_fail "no FAT partition labelled DISKVET in diskvet.iso"
# The console program makes /reports when a stick lacks it; there already, the boot writes nothing.
mdir -i "$stick@@$off" ::/reports >/dev/null 2>&1 || mmd -i "$stick@@$off" ::/reports || vm_fail "cannot make /reports on the stick"
before=$(sha256sum < "$stick")

# The serial console is a pair of FIFOs: commands go in, everything the guest prints is logged.
mkfifo "$vm_dir/con.in" "$vm_dir/con.out"
$(vm_qemu_base | sed 's/-serial file:[^ ]*//') -chardev "pipe,id=con,path=$vm_dir/con,logfile=$vm_log" -serial chardev:con \
  -device qemu-xhci -drive "file=$stick,if=none,id=stick,format=raw" -device usb-storage,drive=stick,bootindex=0 &
vm_pid=$!
vm_started_s=$SECONDS
exec 3<>"$vm_dir/con.in"
cat "$vm_dir/con.out" > /dev/null &
say() { printf '%s\r' "$1" >&3; }

# GRUB's default entry starts the TUI on the serial console; 'q' leaves it for the shell.
vm_wait_for 240 'starting the TUI'
until grep -qa 'a shell follows' "$vm_log"; do
  [ $((SECONDS - vm_started_s)) -lt 360 ] || vm_fail "the TUI did not quit on 'q' within 360s of the boot"
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before its shell started"
  sleep 5
  printf q >&3
done
vm_wait_shell 400  # its ^U: a 'q' sent after the TUI had gone is not part of the first command
say 'stick=$(cat /run/diskvet/boot-medium); echo "STICK=$stick"'
say 'umount /media/diskvet; umount /media/boot; echo "MOUNTS-OF-STICK=$(grep -c "^$stick" /proc/mounts)"'
say 'echo "CMDLINE: $(cat /proc/cmdline)"'
say 'diskvet list --json | grep -o "\"holds the boot medium[^\"]*" | sed "s/^/LISTED: /"'
say 'diskvet run --suite quick --device $stick --destroy-data all-unprotected --out /tmp/r.json > /tmp/run.out 2>&1; echo "RUN-EXIT=$?"; sed "s/^/RUN: /" /tmp/run.out'
say 'diskvet io --filename $stick --rw randwrite --bs 4k --runtime 1s --destroy-data all-unprotected > /tmp/io.out 2>&1; echo "IO-EXIT=$?"; sed "s/^/IO: /" /tmp/io.out'
say 'sync; echo "=== BOOT-STICK DONE ==="; poweroff -f'
vm_wait_for 480 '^=== BOOT-STICK DONE ==='
vm_wait_poweroff 540  # counted from the boot, like vm_wait_for
exec 3>&-

vm_expect 'boot medium: /dev/sd[a-z] .*marker matches'
vm_expect 'CMDLINE: .*diskvet\.boot=UUID=[0-9a-fA-F-]+' "GRUB did not pass diskvet.boot=UUID=... on the kernel command line"
vm_expect 'MOUNTS-OF-STICK=0' "the stick's file systems were not unmounted"
vm_expect 'LISTED: "holds the boot medium \(' "diskvet list does not show the unmounted stick as the boot medium"
vm_expect 'RUN-EXIT=2' "diskvet run did not refuse the stick (exit 2)"
vm_expect 'IO-EXIT=2' "diskvet io did not refuse the stick (exit 2)"
for cmd in RUN IO; do
  vm_expect "^$cmd: .*holds the boot medium \\(.*diskvet medium marker [0-9a-f]+ on partition sd[a-z][0-9]" "diskvet ${cmd,,}'s refusal does not name the marker"
  vm_expect "^$cmd: .*diskvet\\.boot=UUID=[0-9a-fA-F-]+ names " "diskvet ${cmd,,}'s refusal does not name the volume GRUB booted from"
done
after=$(sha256sum < "$stick")
[ "$before" = "$after" ] || vm_fail "the stick's image changed ($before -> $after)"
vm_pass "the unmounted boot stick was refused under all-unprotected, and is byte for byte what it was"
