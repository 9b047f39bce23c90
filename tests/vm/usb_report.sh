#!/usr/bin/env bash
# diskvet.iso written raw to a USB stick: it boots (SeaBIOS), reads diskvet.conf from its DISKVET
# partition, protects itself, and saves the report there; after a reboot (direct kernel boot, the
# same stick attached) the first report is still there, a second lands beside it, and the kernel
# command line wins over diskvet.conf.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
[ -r "$VM_IMAGE_DIR/diskvet.iso" ] || vm_skip "no diskvet.iso in $VM_IMAGE_DIR"
command -v mcopy >/dev/null && command -v sfdisk >/dev/null || vm_skip "mtools or sfdisk (fdisk) not installed"
export MTOOLS_SKIP_CHECK=1
vm_scratch
stick="$vm_dir/stick.img"
cp "$VM_IMAGE_DIR/diskvet.iso" "$stick"
off=$(vm_diskvet_offset "$stick") || vm_fail "no FAT partition labelled DISKVET in diskvet.iso"
printf 'run=lab-suite.json\ndevices=DVUSB0002\npoweroff=1\n' > "$vm_dir/diskvet.conf"
mcopy -i "$stick@@$off" "$vm_dir/diskvet.conf" ::/diskvet.conf
mcopy -i "$stick@@$off" "$vm_here/lab-suite.json" ::/lab-suite.json
a=$(vm_drive a 64M); b=$(vm_drive b 64M)
drives=(-drive "file=$a,if=none,id=da,format=raw" -device nvme,serial=DVUSB0001,drive=da
        -drive "file=$b,if=none,id=db,format=raw" -device nvme,serial=DVUSB0002,drive=db
        -device qemu-xhci -drive "file=$stick,if=none,id=stick,format=raw")

reports_on_stick() { mdir -i "$stick@@$off" -b ::/reports 2>/dev/null | grep '\.json$' || true; }

# Boot 1: from the stick through GRUB's default entry; only diskvet.conf asks for a run.
# This boot keeps the image's own kernel command line, so its nvme driver has the image's poll queue
# (the lab's direct boots name nvme.poll_queues=0, lib.sh). Booted once more if the emulator lost a
# read of the gate, after the refused run's report is taken off the stick.
boot_from_stick() {
  mdel -i "$stick@@$off" '::/reports/*.json' 2>/dev/null || true
  timeout -k 5 "$(vm_limit 240)" $(vm_qemu_base) "${drives[@]}" -device usb-storage,drive=stick,bootindex=0 || vm_fail "boot from the stick did not power off within 240s"
}
vm_boot_once_more_if_lost boot_from_stick
vm_expect 'reading /dev/sd[a-z][0-9]+:/diskvet.conf'
vm_expect 'boot medium: /dev/sd[a-z] .*marker matches'
vm_expect 'disk /dev/sd[a-z] .* boot-medium'
vm_report devices DVUSB0002
vm_report absent DVUSB0001
vm_expect 'report saved as /dev/sd[a-z][0-9]+:/reports/diskvet-DVLAB-0001-[0-9]{8}T[0-9]{6}Z\.json'
first=$(reports_on_stick)
[ "$(echo "$first" | grep -c .)" -eq 1 ] || vm_fail "expected one report on the stick, found: $first"
mcopy -i "$stick@@$off" "::/reports/$(basename "$first")" "$vm_dir/first.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$vm_dir/first.json" || vm_fail "the report on the stick is not JSON"

# Boot 2: the same stick after a reboot; the command line names the other drive and wins.
sleep 1  # report names carry the time to the second
mv "$vm_log" "$vm_dir/boot1.log"; : > "$vm_log"
# (direct kernel boot owns bootindex 0, so the stick is attached without one)
vm_boot_kernel 150 "diskvet.devices=DVUSB0001" "${drives[@]}" -device usb-storage,drive=stick
vm_report devices DVUSB0001
vm_report absent DVUSB0002
all=$(reports_on_stick)
echo "$all" | grep -qx "$first" || vm_fail "the first report did not survive the reboot: $all"
[ "$(echo "$all" | grep -c .)" -eq 2 ] || vm_fail "expected two reports on the stick, found: $all"
vm_pass "reports saved on the stick's DISKVET partition: $(echo $all)"
