#!/bin/sh
# Runs in the guest (tests/vm/write_accounting.sh types `sh /media/diskvet/accounting_guest.sh`):
# diskvet writes to three drives in parallel; once all three are measuring, diskvet is paused
# (SIGSTOP, so the second writers land inside its run whatever the guest's speed) and its writes in
# flight have completed, while 8 MiB go to
# DVACCT0PASSTHRU through NVMe passthrough (the kernel's counters never see them) and 8 MiB to
# DVACCT0DD through the block device (the kernel counts them); DVACCT0ALONE is written by diskvet
# alone. The report is printed between the DISKVET REPORT markers for report.py.
set -u
out=/tmp/accounting
dev_of() {
  for b in /sys/block/nvme*n1; do
    [ "$(tr -d ' ' < "$b/device/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
  done
  echo "ACCOUNTING: no drive with serial $1" >&2
  return 1
}
alone=$(dev_of DVACCT0ALONE) && passthru=$(dev_of DVACCT0PASSTHRU) && other=$(dev_of DVACCT0DD) || exit 1
echo "ACCOUNTING drives: alone $alone passthru $passthru dd $other"
# QEMU 7.2's emulated NVMe under TCG sometimes never completes a write (a third CI run lost one on
# DVACCT0ALONE, with no passthrough near it). The guest kernel recovers such a command by aborting
# it at its I/O timeout and resetting the controller at the second, and the write is retried; at the
# default 30 s that is a minute, past diskvet's io_timeout plus grace, and diskvet abandoned the
# drive with no accounting to check. At 5 s the kernel has the write back within ten seconds: a slow
# write in the report, the run and its counters whole.
for d in "$alone" "$passthru" "$other"; do
  echo 5000 > "/sys/block/${d#/dev/}/queue/io_timeout" || echo "ACCOUNTING: cannot set the I/O timeout of $d"
done
# The same emulator also loses a read now and then, and when that read is one of diskvet's gate
# (its look at what is on a drive, under a 2 s deadline) the gate refuses the drive before anything
# is written: the product's rule, the lab's fault. Such a run, and only such a run (the gate's
# refusal in diskvet's log, and the guest kernel's abort of the lost command, sct 0x3 / sc 0x71,
# waited for), is run once more, saying so; any other early end fails the test.
lost_in_gate() {
  grep -q 'did not answer a read' "$out.log" || return 1
  n=0
  until dmesg | grep -q 'sct 0x3 / sc 0x71'; do
    n=$((n + 1))
    [ $n -le 300 ] || return 1
    sleep 0.1
  done
}
attempt=1
while :; do
  diskvet run --suite /media/diskvet/lab-accounting.json --device "$alone" --device "$passthru" --device "$other" \
    --destroy-data all-unprotected --parallel --profile none --out "$out.json" 2> "$out.log" &
  pid=$!
  measuring=1
  until [ "$(grep -c 'measure randwrite-qd4' "$out.log")" -ge 3 ]; do
    kill -0 "$pid" 2>/dev/null || { measuring=0; break; }
    sleep 0.2
  done
  [ $measuring = 1 ] && break
  wait "$pid"
  if [ $attempt = 1 ] && lost_in_gate; then
    echo "ACCOUNTING: the emulated NVMe lost a read of diskvet's gate (nothing was written); running again. diskvet said:"
    cat "$out.log"
    dmesg | grep 'sct 0x3 / sc 0x71' | tail -4
    attempt=2
    continue
  fi
  echo "ACCOUNTING: diskvet ended before all three drives were measuring"
  cat "$out.log"
  exit 1
done
kill -STOP "$pid"
# diskvet's writes already submitted finish first: a passthrough command sent while one of them was
# still out on the same drive left that one lost in QEMU's emulated NVMe twice in CI (the guest
# kernel timed it out; it was always DVACCT0PASSTHRU's). Waited for on the block layer's own count.
for d in "$passthru" "$other"; do
  n=0
  while [ "$(awk '{print $1 + $2}' "/sys/block/${d#/dev/}/inflight")" != 0 ]; do
    n=$((n + 1))
    [ $n -le 300 ] || { echo "ACCOUNTING: $d still has I/O in flight 30 s after diskvet stopped"; break; }
    sleep 0.1
  done
done
head -c 524288 /dev/urandom > /tmp/blob
i=0
while [ $i -lt 16 ]; do
  # 1024 blocks of 512 bytes (NLB is 0-based): QEMU's largest transfer (MDTS 7, 4 KiB pages). --force:
  # diskvet holds the namespace open exclusively, and nvme-cli asks for that too unless forced.
  nvme write "$passthru" --force --start-block=$((i * 1024)) --block-count=1023 --data-size=524288 --data=/tmp/blob > /dev/null \
    || echo "ACCOUNTING: nvme write $i failed"
  i=$((i + 1))
done
dd if=/dev/urandom of="$other" bs=1M count=8 seek=32 conv=fsync 2> /dev/null || echo "ACCOUNTING: dd failed"
echo "ACCOUNTING: second writers done"
kill -CONT "$pid"
wait "$pid"
rc=$?
cat "$out.log"
echo "=== DISKVET REPORT BEGIN ==="
cat "$out.json"
echo
echo "=== DISKVET REPORT END === exit=$rc"
