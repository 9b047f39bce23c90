#!/usr/bin/env bash
# diskvet against fio on the VM lab's emulated NVMe drive, with the engines a real NVMe drive has and
# a loop device lacks: io_uring on the block device, io_uring_cmd (NVMe passthrough on /dev/ng0n1) and
# both with --hipri (polled completions: the guest boots with nvme.poll_queues=1). The same cases as
# tests/bench/vs_fio.py, alternating the tools in one guest; vs_fio.py writes the guest's script
# (--emit-script: the guest has no python) and prints the table from what it left (--from-dir).
#
# Usage: tests/bench/vm_vs_fio.sh [--rounds N] [--runtime S] [--smp N] [--only CASE,...] [--nvme-opts K=V,...]
# (--nvme-opts: more properties of QEMU's nvme device, e.g. ioeventfd=on)
# Needs root-free QEMU and the built image (ctest -R vm.image_build, or image/build.sh into
# build/image; VM_IMAGE_DIR names another). Software emulation (TCG): the drive's figures are the
# emulator's, so only the ratios between the tools mean anything, and CPU per I/O most (each tool's
# instructions cost alike under emulation).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$bench/../.." && pwd)
export VM_IMAGE_DIR=${VM_IMAGE_DIR:-$top/build/image}
rounds=5 runtime=3 smp=1 nvme_opts=""
# Depth 1: at depth 8 and 32 QEMU 7.2's emulated NVMe under TCG lost commands of both tools (diskvet's
# watchdog abandoned its reads after 60 s; fio's came back aborted, or at 0.5 IOPS), and afterwards
# the controller did not answer even at depth 1 until the guest rebooted: a limit of the lab, not of
# the tools. --only with the -qd8 cases asks for them anyway.
only=randread-4k-qd1,cmd-randread-4k-qd1,randread-4k-qd1-hipri,cmd-randread-4k-qd1-hipri
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --runtime) runtime=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --nvme-opts) nvme_opts=,$2; shift 2 ;;
    *) echo "usage: $0 [--rounds N] [--runtime S] [--smp N] [--only CASE,...] [--nvme-opts K=V,...]" >&2; exit 2 ;;
  esac
done
export VM_SMP=$smp VM_MEM_MB=${VM_MEM_MB:-512}
source "$top/tests/vm/lib.sh"
vm_require
vm_scratch
vs=(python3 "$bench/vs_fio.py" --target /dev/nvme0n1 --rounds "$rounds" --runtime "$runtime" --only "$only")
"${vs[@]}" --emit-script "$vm_dir/bench.sh"
runs=$(grep -c '^echo "BENCH .* round' "$vm_dir/bench.sh")
# Written through, so every read is of data (an emulated drive reads a hole as fast as zeroes).
drive="$vm_dir/nvme.img"
dd if=/dev/urandom of="$drive" bs=1M count=256 status=none
data=$(vm_data_disk)
mcopy -i "$data" "$vm_dir/bench.sh" ::/
echo "booting the guest ($smp CPU, nvme.poll_queues=1): $runs runs of ${runtime}s"
vm_start_shell 150 "nvme.poll_queues=1" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$drive,if=none,id=d,format=raw" -device "nvme,serial=DVBENCH0,drive=d$nvme_opts"
# The guest's console shows only errors (dmesg -n 4): its kernel's NVMe lines (timeouts, aborts) are
# printed after the runs.
printf '%s\r' "cat /sys/block/nvme0n1/queue/io_poll; sh /media/diskvet/bench.sh /media/diskvet/bench; dmesg | grep -i nvme | tail -n 20; sync; echo BENCH-SYNCED" >&3
last=""
until grep -qa '^BENCH-SYNCED' "$vm_log"; do
  kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before the runs ended"
  now=$(grep -a '^BENCH ' "$vm_log" | tail -n 1 || true)
  [ "$now" = "$last" ] || { echo "$now"; last=$now; }
  # A run that stalls takes diskvet's io_timeout and grace (60 s) or the guest kernel's 30 s timeout.
  [ $((SECONDS - vm_started_s)) -lt $((150 + runs * (runtime + 90))) ] || vm_fail "the runs did not end in time"
  sleep 2
done
grep -a '^BENCH FAILED' "$vm_log" || true
printf '%s\r' 'poweroff -f' >&3
exec 3>&-
vm_wait_poweroff $((SECONDS - vm_started_s + 60))
mcopy -s -i "$data" ::/bench "$vm_dir/"
"${vs[@]}" --from-dir "$vm_dir/bench"
