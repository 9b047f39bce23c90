#!/usr/bin/env bash
# The appliance's NVMe poll queues (nvme_poll_queue_args in image/settings.sh) under busybox sh and
# busybox's own applets, as init runs it: one poll queue per possible CPU up to 8 (a count above the
# possible CPUs makes Linux refuse to load the nvme driver at all), none asked for when the kernel
# command line names nvme.poll_queues (the operator's value stands, 0 included), and a command line
# word is never expanded as a file name pattern.
#   nvme_poll_queues_test.sh SETTINGS_SH      Exit 77 (skipped) without busybox.
set -u
settings=$(realpath "$1")
bb=$(command -v busybox) || { echo "SKIP: busybox not installed (scripts/deps.sh installs busybox-static)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/work"
for applet in sh cat tr; do ln -s "$bb" "$tmp/bin/$applet"; done
# A file named like the setting: a glob in the command line that matched it would hide our value.
touch "$tmp/work/nvme.poll_queues=9"
failed=0

# check POSSIBLE CMDLINE WANT WHY
check() {
  printf '%s\n' "$1" > "$tmp/possible"
  printf '%s\n' "$2" > "$tmp/cmdline"
  local got
  got=$(cd "$tmp/work" && PATH="$tmp/bin" sh -c '. "$1"; nvme_poll_queue_args "$2" "$3"' sh \
        "$settings" "$tmp/possible" "$tmp/cmdline" 2> "$tmp/stderr")
  if [ "$got" = "$3" ] && [ ! -s "$tmp/stderr" ]; then
    echo "ok   $4: '$got'"
  else
    echo "FAIL $4: possible '$1', command line '$2': got '$got', want '$3'; stderr: $(cat "$tmp/stderr")"
    failed=1
  fi
}

check "0" "console=ttyS0 quiet" "poll_queues=1" "one CPU: one poll queue"
check "0-1" "quiet" "poll_queues=2" "two CPUs: two"
check "0-3" "" "poll_queues=4" "four CPUs, empty command line: four"
check "0,2-5" "quiet" "poll_queues=5" "a list of ranges is counted CPU by CPU"
check "0-7" "quiet" "poll_queues=8" "eight CPUs: eight"
check "0-63" "quiet" "poll_queues=8" "64 CPUs: the suites' widest polled workload's 8 jobs"
check "0-3" "quiet nvme.poll_queues=0" "" "nvme.poll_queues=0 on the command line: the operator's value, no poll queues asked for"
check "0-3" "nvme.poll_queues=2 console=ttyS0" "" "nvme.poll_queues=2 on the command line stands"
check "0-3" "xnvme.poll_queues=2 nvme.poll_queues_x=1" "poll_queues=4" "only the exact setting counts"
check "0-3" "quiet * nvme.poll*" "poll_queues=4" "a pattern on the command line is not expanded against the working directory"
check "" "quiet" "" "no possible CPUs read: nothing asked for (udev loads the driver as it is)"
check "0-x" "quiet" "" "an unreadable CPU list: nothing asked for"
exit $failed
