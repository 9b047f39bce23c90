# Shared steps of the VM tests (sourced): skip rules, scratch drives, bounded QEMU boots, report checks.
# Every QEMU run here is software emulation (-accel tcg: KVM hangs nested on the lab machines),
# -no-reboot, bounded by a timeout, with the serial console captured to a file.

vm_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${VM_IMAGE_DIR:?VM_IMAGE_DIR must name the directory image/build.sh wrote (ctest sets it)}"
VM_MEM_MB=${VM_MEM_MB:-256}
# VM_SMP: the guest's CPUs (1 for the tests; tests/bench/vm_vs_fio.sh --smp may give more).
# The kernel command line every direct kernel boot starts with. no_timer_check: on a host whose cores
# are busy the emulated timer can miss the kernel's early check of its interrupt, and the guest
# panicked at boot ("IO-APIC + timer doesn't work!"); the check only guards against broken hardware.
# nvme.poll_queues=0: the image's init loads the nvme driver with a poll queue per possible CPU
# (image/settings.sh) unless the command line names a number. QEMU 7.2's emulated NVMe under TCG
# lost the first commands after boot (vm_lost_in_gate, below) in 2 of 8 vm.purge runs with a poll
# queue beside the interrupt-driven one, in 1 of 11 without. The lab's guests name 0, which also
# runs the init's rule that the command line wins; vm.passthrough, which tests the image's poll
# queues, drops it.
vm_kernel_args="console=ttyS0 panic=-1 no_timer_check nvme.poll_queues=0"

# ctest's SKIP_RETURN_CODE: a machine without QEMU or the built image skips, saying why.
vm_skip() { echo "SKIP: $*"; exit 77; }
# A failure shows the guest's side: its kernel's storage messages (a timed-out or aborted command
# there is below diskvet; the console shows only errors, so a guest script that wants the warnings
# prints dmesg itself, as passthrough_guest.sh does), then the console's last 60 lines, each cut to
# 400 characters (a report's JSON is one line).
vm_fail() {
  echo "FAIL: $*"
  if [ -n "${vm_log:-}" ] && [ -f "$vm_log" ]; then
    echo "--- the guest kernel's storage messages (last 20) ---"
    grep -aE '\[ *[0-9.]+\] .*(nvme|blk_update|I/O error|timeout|abort|reset)' "$vm_log" | tail -n 20 | cut -c1-400
    echo "--- serial console (last 60 lines) ---"
    tail -n 60 "$vm_log" | cut -c1-400
  fi
  exit 1
}
vm_pass() { echo "PASS: $*"; }

vm_require() {
  command -v qemu-system-x86_64 >/dev/null || vm_skip "qemu-system-x86_64 not installed (scripts/deps.sh installs qemu-system-x86)"
  command -v python3 >/dev/null || vm_skip "python3 not installed"
  command -v mformat >/dev/null || vm_skip "mtools not installed (scripts/deps.sh)"
  [ -r "$VM_IMAGE_DIR/vmlinuz" ] && [ -r "$VM_IMAGE_DIR/initrd.img" ] \
    || vm_skip "no vmlinuz/initrd.img in $VM_IMAGE_DIR (vm.image_build skipped: kernel or packages missing)"
}

# Scratch space for drive images and the serial log, in RAM, removed on exit whatever happens
# (VM_KEEP_LOG=FILE keeps a copy of the serial log, to read a report after the test).
vm_scratch() {
  vm_dir=$(mktemp -d /dev/shm/diskvet-vm.XXXXXX)
  trap 'vm_stop; { [ -z "${vm_watchdog:-}" ] || kill "$vm_watchdog" 2>/dev/null || true; }; [ -z "${VM_KEEP_LOG:-}" ] || cp "$vm_log" "$VM_KEEP_LOG"; rm -rf "$vm_dir"' EXIT
  vm_log="$vm_dir/serial.log"
  : > "$vm_log"
  vm_deadline
}

# ctest kills a test past its TIMEOUT without a word (SIGKILL: no trap runs, the guest's console is
# lost and the scratch directory stays). So a test ends itself first: VM_DEADLINE_S (ctest sets it
# to the test's TIMEOUT less a margin) after the start it prints the serial console so far, stops
# its children (QEMU, timeout, ssh) and fails through vm_fail, whose exit still cleans up.
vm_deadline() {
  [ -n "${VM_DEADLINE_S:-}" ] || return 0
  local script=$$ log=$vm_log
  trap 'vm_fail "the test ran past its deadline of ${VM_DEADLINE_S}s (its ctest TIMEOUT less a margin)"' TERM
  (
    trap - EXIT
    sleep "$VM_DEADLINE_S" &
    sleeper=$!
    trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
    wait "$sleeper"
    echo "DEADLINE: ${VM_DEADLINE_S}s passed; the serial console so far (last 80 lines):"
    tail -n 80 "$log"
    # The children running now (QEMU, timeout, ssh; not this watchdog), listed before the script's
    # trap can start its cleanup's own children.
    children=$(pgrep -P "$script" | grep -vx "$BASHPID")
    kill -TERM "$script" 2>/dev/null
    [ -z "$children" ] || kill -TERM $children 2>/dev/null
  ) &
  vm_watchdog=$!
}

# A sparse raw drive file of SIZE (truncate syntax) under the scratch directory; prints its path.
vm_drive() {
  local f="$vm_dir/$1.img"
  truncate -s "$2" "$f"
  echo "$f"
}

# A small FAT disk labelled DISKVET holding the lab suites (lab-*.json; lab-suite.json: one short 4K
# random-read workload, so a boot takes seconds, not the quick suite's minutes under TCG;
# lab-purge-suite.json: the same after a purge) and the lab profiles (profiles/*.json); prints its path.
vm_data_disk() {
  local f="$vm_dir/diskvet-data.img"
  truncate -s 16M "$f"
  mformat -i "$f" -v DISKVET ::
  mcopy -i "$f" "$vm_here"/lab-*.json "$vm_here"/profiles/*.json ::/
  echo "$f"
}

vm_qemu_base() {
  echo qemu-system-x86_64 -accel tcg -m "$VM_MEM_MB" -smp "${VM_SMP:-1}" -no-reboot -display none -monitor none \
    -serial "file:$vm_log" -smbios type=1,serial=DVLAB-0001
}

# A wait's limit as the test states it (seconds on a machine with a core to spare), times
# VM_TIME_SCALE (ctest sets it, tests/vm/CMakeLists.txt): an emulated guest on a host whose cores are
# all busy boots several times slower, and a limit only catches a hang.
vm_limit() { echo $(($1 * ${VM_TIME_SCALE:-1})); }

# QEMU 7.2's emulated NVMe under TCG now and then loses commands: the guest kernel aborts them at its
# I/O timeout (30 s) and resets the controller. When the lost commands are the reads of diskvet's
# gate, under its 2 s deadline, the gate refuses the drive before anything is written: the product's
# rule, the lab's fault. A boot whose console shows both (the gate's refusal for an unanswered read,
# and the guest kernel aborting a command) says nothing about what the test checks.
vm_gate_unanswered='PROTECTED: did not answer a read'
vm_nvme_aborted='nvme[0-9]+: I/O [0-9]+ .*QID [0-9]+ timeout, aborting'
vm_lost_in_gate() {
  grep -qa "$vm_gate_unanswered" "$vm_log" && grep -qaE "$vm_nvme_aborted" "$vm_log"
}

# Runs a boot (COMMAND...: it writes the serial console to vm_log and ends with the guest) and, when
# the emulator lost a read of the gate (vm_lost_in_gate) and only then, runs it once more, saying
# so, with the first console kept beside the second. Nothing was written the first time, so the
# second boot starts from the same drives.
#   vm_boot_once_more_if_lost COMMAND...
vm_boot_once_more_if_lost() {
  "$@"
  vm_lost_in_gate || return 0
  local kept
  kept=$(mktemp "$vm_dir/lost-boot.XXXXXX.log")
  cp "$vm_log" "$kept"
  echo "NOTE: the emulated NVMe lost a read of diskvet's gate (nothing was written); booting once more. The guest said:"
  grep -aE -e "$vm_gate_unanswered" -e "$vm_nvme_aborted" "$kept" | head -n 8 | cut -c1-400
  : > "$vm_log"
  "$@"
}

# Direct kernel boot with extra kernel arguments, waiting for the guest to power off; booted once
# more when the emulator lost a read of the gate (vm_boot_once_more_if_lost).
#   vm_boot_kernel TIMEOUT_S "KERNEL ARGS" QEMU_ARGS...
vm_boot_kernel() { vm_boot_once_more_if_lost vm_boot_kernel_once "$@"; }
vm_boot_kernel_once() {
  local limit append=$2
  limit=$(vm_limit "$1")
  shift 2
  local rc=0
  # An unattended run also gets a deadline inside the guest, short of the host's: a hung run ends
  # with the guest's own word on the serial console instead of a killed QEMU.
  case "$append" in *diskvet.poweroff=1*) case "$append" in *diskvet.deadline=*) ;; *) append="$append diskvet.deadline=$((limit - 20))" ;; esac ;; esac
  timeout -k 5 "$limit" $(vm_qemu_base) -kernel "$VM_IMAGE_DIR/vmlinuz" -initrd "$VM_IMAGE_DIR/initrd.img" \
    -append "$vm_kernel_args $append" "$@" || rc=$?
  [ "$rc" -ne 124 ] || vm_fail "the guest did not power off within ${limit}s"
  [ "$rc" -eq 0 ] || vm_fail "qemu exited with code $rc"
}

# Direct kernel boot in the background (vm_pid), for tests that act on the running guest (QMP);
# vm_wait_for follows its serial console, vm_wait_poweroff waits for its end like vm_boot_kernel.
#   vm_start_kernel "KERNEL ARGS" QEMU_ARGS...
vm_start_kernel() {
  local append=$1; shift
  # Line-buffered: a test that reads QEMU's own output (blkdebug's) sees each line when it is printed.
  stdbuf -oL $(vm_qemu_base) -kernel "$VM_IMAGE_DIR/vmlinuz" -initrd "$VM_IMAGE_DIR/initrd.img" \
    -append "$vm_kernel_args $append" "$@" &
  vm_pid=$!
  vm_started_s=$SECONDS
}

# Waits until the serial console shows PATTERN (grep -E), at most LIMIT_S seconds from the boot.
#   vm_wait_for LIMIT_S PATTERN
vm_wait_for() {
  local limit pattern=$2
  limit=$(vm_limit "$1")
  until grep -qaE "$pattern" "$vm_log"; do
    kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before printing /$pattern/"
    [ $((SECONDS - vm_started_s)) -lt "$limit" ] || vm_fail "no /$pattern/ on the serial console within ${limit}s"
    sleep 0.5
  done
}

# Waits until the guest powers off by itself, at most LIMIT_S seconds from the boot.
vm_wait_poweroff() {
  local limit rc=0
  limit=$(vm_limit "$1")
  while kill -0 "$vm_pid" 2>/dev/null; do
    [ $((SECONDS - vm_started_s)) -lt "$limit" ] || vm_fail "the guest did not power off within ${limit}s"
    sleep 1
  done
  wait "$vm_pid" || rc=$?
  vm_pid=""
  [ "$rc" -eq 0 ] || vm_fail "qemu exited with code $rc"
  echo "the guest powered off after $((SECONDS - vm_started_s))s"
}

# Boots in the background and waits until the serial console shows PATTERN (grep -E), then stops
# the guest. For boots that do not power off by themselves (the TUI, the shell).
#   vm_boot_until TIMEOUT_S PATTERN QEMU_ARGS...
vm_boot_until() {
  local limit=$1 pattern=$2; shift 2
  $(vm_qemu_base) "$@" &
  vm_pid=$!
  vm_started_s=$SECONDS
  vm_wait_for "$limit" "$pattern"
  vm_stop
  echo "serial console showed /$pattern/ after $((SECONDS - vm_started_s))s"
}

# Stops the guest: SIGTERM, then SIGKILL after 10 s, so a QEMU stuck with its big lock held (a drain
# that never ends) cannot hold a failing test until ctest's timeout.
vm_stop() {
  if [ -n "${vm_pid:-}" ]; then
    kill "$vm_pid" 2>/dev/null || true
    local pid=$vm_pid killer
    (sleep 10; kill -9 "$pid" 2>/dev/null) >/dev/null 2>&1 &
    killer=$!
    wait "$vm_pid" 2>/dev/null || true
    kill "$killer" 2>/dev/null || true
    vm_pid=""
  fi
}

# Waits until the guest's shell on the serial console (written through file descriptor 3) answers a
# command, at most LIMIT_S seconds from the boot: ^U clears whatever was typed before it, and the
# command is sent again every 5 s while nothing answers (bytes sent while a program was still leaving
# the terminal may be lost).
#   vm_wait_shell LIMIT_S
vm_wait_shell() {
  local limit i
  limit=$(vm_limit "$1")
  until grep -qa 'SHELL-READY' "$vm_log"; do
    kill -0 "$vm_pid" 2>/dev/null || vm_fail "the guest stopped before its shell answered"
    [ $((SECONDS - vm_started_s)) -lt "$limit" ] || vm_fail "the shell on the serial console did not answer within ${limit}s of the boot"
    printf '\025echo "SHELL""-READY"\r' >&3
    for ((i = 0; i < 25; i++)); do grep -qa 'SHELL-READY' "$vm_log" && break; sleep 0.2; done
  done
}

# Boots with a shell on the serial console (diskvet.shell=1; a pair of FIFOs: what the test writes to
# file descriptor 3 is typed there) in the background, and waits until the shell answers, at most
# LIMIT_S seconds from the boot.
#   vm_start_shell LIMIT_S "KERNEL ARGS" QEMU_ARGS...
vm_start_shell() {
  local limit=$1 append=$2; shift 2
  : > "$vm_log"
  rm -f "$vm_dir/con.in" "$vm_dir/con.out"
  mkfifo "$vm_dir/con.in" "$vm_dir/con.out"
  $(vm_qemu_base | sed 's/-serial file:[^ ]*//') -chardev "pipe,id=con,path=$vm_dir/con,logfile=$vm_log" -serial chardev:con \
    -kernel "$VM_IMAGE_DIR/vmlinuz" -initrd "$VM_IMAGE_DIR/initrd.img" -append "$vm_kernel_args diskvet.shell=1 $append" "$@" &
  vm_pid=$!
  vm_started_s=$SECONDS
  exec 3<>"$vm_dir/con.in"
  cat "$vm_dir/con.out" > /dev/null &
  vm_wait_for "$limit" 'diskvet appliance ready'
  vm_wait_shell "$limit"
}

# The serial log must contain a line matching PATTERN (grep -E).
vm_expect() { grep -qaE "$1" "$vm_log" || vm_fail "${2:-serial console lacks /$1/}"; }
vm_expect_not() { ! grep -qaE "$1" "$vm_log" || vm_fail "${2:-serial console shows /$1/}"; }

# Checks on the report printed between the DISKVET REPORT markers (see report.py).
vm_report() { python3 "$vm_here/report.py" "$vm_log" "$@" || vm_fail "report check failed: $*"; }

# The byte offset of the FAT partition labelled DISKVET in a disk image, for mtools' IMG@@OFFSET.
vm_diskvet_offset() {
  local img=$1 start
  for start in $(sfdisk -J "$img" | python3 -c 'import json,sys; [print(p["start"]) for p in json.load(sys.stdin)["partitiontable"]["partitions"]]'); do
    if [ "$(mlabel -i "$img@@$((start * 512))" -s :: 2>/dev/null | awk '{print $4}')" = DISKVET ]; then
      echo $((start * 512)); return 0
    fi
  done
  return 1
}
