#!/usr/bin/env bash
# The appliance's TUI on the serial console, driven through tmux like an operator at a serial
# terminal, on an emulated NVMe drive that has a serial (loop devices have none): the confirmation
# refuses a wrong serial ending, says why and starts nothing (the drive stays all zeros); the right
# last 6 characters start the run; an abort writes the partial report to the DISKVET disk.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
command -v tmux >/dev/null || vm_skip "tmux not installed (scripts/packages/tui.txt)"
vm_scratch
serial=DVTUI0SERIAL1
nvme=$(vm_drive nvme 64M)
data=$(vm_data_disk)
export MTOOLS_SKIP_CHECK=1

# QEMU's serial port is its stdin/stdout, the tmux pane is the operator's terminal; the console is
# also logged to $vm_log for vm_fail. The TUI on ttyS0 draws 80x24 (vt100), inside the 100x30 pane.
sock="diskvet-vm-tui-$$"
tmx() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tmx kill-server 2>/dev/null || true; { [ -z "${vm_watchdog:-}" ] || kill "$vm_watchdog" 2>/dev/null || true; }; rm -rf "$vm_dir"' EXIT
qemu=(qemu-system-x86_64 -accel tcg -m "$VM_MEM_MB" -smp 1 -no-reboot -display none -monitor none
      -chardev "stdio,id=con,signal=off,logfile=$vm_log" -serial chardev:con -smbios type=1,serial=DVLAB-0001
      -kernel "$VM_IMAGE_DIR/vmlinuz" -initrd "$VM_IMAGE_DIR/initrd.img" -append "$vm_kernel_args"
      -drive "file=$data,if=virtio,format=raw"
      -drive "file=$nvme,if=none,id=dn,format=raw" -device "nvme,serial=$serial,drive=dn")
tmx new-session -d -s vm -x 100 -y 30 "$(printf '%q ' "${qemu[@]}")" || vm_fail "tmux could not start QEMU"

screen() { tmx capture-pane -p -t vm 2>/dev/null || true; }
keys() { tmx send-keys -t vm "$@"; }
text() { tmx send-keys -t vm -l "$1"; }
# Polls the pane until it shows TEXT (fixed string; with -v: until it no longer shows it); fails with
# the screen after LIMIT seconds.
wait_screen() {
  local gone=""
  [ "$1" != -v ] || { gone=1; shift; }
  local want=$1 limit=${2:-30} i
  for ((i = 0; i < limit * 4; i++)); do
    if screen | grep -qF -- "$want"; then [ -n "$gone" ] || return 0; else [ -z "$gone" ] || return 0; fi
    tmx has-session -t vm 2>/dev/null || vm_fail "QEMU exited while waiting for '$want'"
    sleep 0.25
  done
  echo "--- screen ---"; screen
  vm_fail "the screen did not ${gone:+stop to }show '$want' within ${limit}s"
}
# Presses KEY until the pane shows TEXT (a cursor walking down a list); after each press, waits until
# the screen has changed (the TUI handled the key) before it looks again.
press_until() {
  local key=$1 want=$2 i j shown
  for ((i = 0; i < 10; i++)); do
    shown=$(screen)
    grep -qF -- "$want" <<<"$shown" && return 0
    keys "$key"
    for ((j = 0; j < 40; j++)); do [ "$(screen)" = "$shown" ] || break; sleep 0.25; done
  done
  wait_screen "$want" 2
}
all_zero() { cmp -s -n "$(stat -c %s "$1")" "$1" /dev/zero; }

# Boot (about 12 s under TCG, more on a busy host) to the devices screen; only the NVMe drive is
# free (the DISKVET disk is mounted), so 'a' selects exactly it.
wait_screen " diskvet | Devices" 150
wait_screen "$serial" 30
keys a
wait_screen "1 selected for a write test"
keys n
wait_screen " diskvet | Suite and profile"
press_until j "> quick"
keys Enter
wait_screen " diskvet | Confirm what will be destroyed"
wait_screen "serial $serial"
wait_screen "type the last 6 characters of its serial"

# A wrong ending: refused, with the reason, and nothing starts.
text "${serial: -6:5}2"
keys Enter
wait_screen "/dev/nvme0n1: that is not the end of its serial"
# One more key, handled after that Enter: once its effect shows (the wrong last character erased),
# whatever the Enter did is on the screen too.
keys BSpace
wait_screen -v "${serial: -6:5}2"
screen | grep -qF " diskvet | Run" && vm_fail "a run started after a wrong serial"
screen | grep -qF " diskvet | Confirm what will be destroyed" || vm_fail "the confirmation screen was left after a wrong serial"
all_zero "$nvme" || vm_fail "the drive was written although its serial was refused"
echo "wrong serial ending refused:"; screen | grep -F "not the end of its serial"

# The right last 6 characters: the run starts.
for _ in 1 2 3 4 5; do keys BSpace; done
text "${serial: -6}"
wait_screen "[${serial: -6}] ok"
keys Enter
wait_screen " diskvet | Run" 60
wait_screen "Suite quick on 1 device" 10
wait_screen "/dev/nvme0n1" 10
echo "right serial ending started the run"
# Live numbers arrive once the first interval is sampled: IOPS, MB/s, p99 and mean with units.
for ((i = 0; i < 240; i++)); do
  screen | grep -qE 'IOPS +[0-9.]+[kM]? +[0-9.]+ MB/s +p99 +[0-9.]+(us|ms|s) ' && break
  sleep 0.25
done
screen | grep -E 'p99 +[0-9.]+(us|ms|s) ' || { screen; vm_fail "the run screen showed no live p99 within 60s"; }

# Abort: asked, then the partial report is written to the DISKVET disk and the screen says so.
keys a
wait_screen "Stop the run now?" 30
keys y
wait_screen "VERDICT: " 180
wait_screen "aborted: partial report" 10
# The 80-column screen may cut the file name short ('~'): its start names it on the disk.
report=$(screen | sed -n 's/.*Report saved: \(\S*\).*/\1/p' | head -n 1)
case "$report" in /media/diskvet/reports/diskvet-*) ;; *) screen; vm_fail "no report saved on the DISKVET disk: '$report'" ;; esac
echo "partial report: $report"
report=${report%\~}

# Leave the TUI and power off from the shell that follows, so the report is on the disk image.
keys q
wait_screen "a shell follows" 30
text "sync; poweroff -f"
keys Enter
for ((i = 0; i < 60; i++)); do tmx has-session -t vm 2>/dev/null || break; sleep 1; done
tmx has-session -t vm 2>/dev/null && vm_fail "the guest did not power off"
saved=$(mdir -i "$data" -b ::/reports 2>/dev/null | sed 's|^::/reports/||' | grep -F "$(basename "$report")" | grep '\.json$' | head -n 1 || true)
[ -n "$saved" ] || vm_fail "$(basename "$report")* is not on the DISKVET disk"
mcopy -i "$data" "::/reports/$saved" "$vm_dir/report.json" || vm_fail "cannot read reports/$saved from the DISKVET disk"
python3 - "$vm_dir/report.json" "$serial" <<'EOF' || vm_fail "the partial report does not say what happened"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["aborted"], "not marked aborted"
assert doc["exit_code"] == 3, doc["exit_code"]
serials = [d.get("serial") for d in doc["devices"]]
assert serials == [sys.argv[2]], serials
EOF
vm_pass "the serial console TUI refused a wrong serial ending, ran on the right one, and saved the partial report"
