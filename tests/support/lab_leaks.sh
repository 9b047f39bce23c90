#!/usr/bin/env bash
# What the test lab left behind: loop devices over a diskvet test file, diskvet test mounts, the
# lab's processes (the FUSE stall daemon, fio servers, the SSH lab's sshd, QEMU guests, this build's
# diskvet), and temporary files and folders (every test names its own diskvet-* in $TMPDIR, else /tmp,
# or /dev/shm; scripts/test.sh gives the tests a TMPDIR of their own, so another run's are not seen).
# The ctest fixture lab_leaks runs `baseline` before the tests that make such things and `check` after
# all of them: check fails, naming each leak, when one is there that was not there at
# the baseline (what another checkout's tests hold on a shared machine was there before, or is not
# this run's: the baseline keeps the first, nothing tells the second apart).
#   tests/support/lab_leaks.sh baseline FILE | check FILE | list
# Releases can lag a test's end by a moment (a loop device detached at its last close, a lazy
# unmount), so check looks again for up to LAB_LEAKS_GRACE_S seconds (default 10) before failing.
set -uo pipefail

list() {  # one line per leak-able thing: "loop NAME BACKING", "mount POINT TYPE", "process PID COMMAND",
  # "file PATH"
  local b name backing
  for b in /sys/block/loop*/loop/backing_file; do
    [ -r "$b" ] || continue
    backing=$(cat "$b" 2>/dev/null) || continue
    name=${b#/sys/block/}
    name=${name%%/*}
    case $backing in *diskvet-*) echo "loop $name $backing" ;; esac
  done
  local src point type rest
  while read -r src point type rest; do
    case $point in *diskvet-*) echo "mount $point $type $src" ;; esac
  done </proc/self/mounts
  local f
  for f in "${TMPDIR:-/tmp}"/diskvet-* /dev/shm/diskvet-*; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    echo "file $f"
  done
  local p cmd exe base1 argv
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    # By what the process runs (its program, then its arguments), never by a substring of a command
    # line that merely names these programs (a compiler's -DSTALL_FS_SCRIPT=...stall_fs.py).
    { mapfile -d '' -t argv <"$p/cmdline"; } 2>/dev/null || continue
    [ "${#argv[@]}" -gt 0 ] || continue
    cmd="${argv[*]}"
    exe=$(readlink "$p/exe" 2>/dev/null || true)
    base1=${argv[1]:-}
    case ${argv[0]##*/} in
      python3*) [[ ${base1##*/} == stall_fs.py ]] || continue ;;
      fio) [[ " $cmd " == *" --server"* ]] || continue ;;
      sshd | ssh) [[ $cmd == *diskvet-* ]] || continue ;;
      qemu-system-*) [[ $cmd == *diskvet-* ]] || continue ;;
      *)
        if [ -n "${DISKVET_BIN:-}" ] && [ "$exe" = "$(readlink -f "$DISKVET_BIN")" ]; then :; else continue; fi ;;
    esac
    echo "process ${p#/proc/} $cmd"
  done
}

under_ctest() {  # PID: whether it is, or descends from, a running ctest (a test still at work)
  local p=$1 comm i
  for ((i = 0; i < 64 && p > 1; i++)); do
    comm=$(cat "/proc/$p/comm" 2>/dev/null) || return 1
    [ "$comm" = ctest ] && return 0
    p=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null) || return 1
  done
  return 1
}

open_paths=  # what every process has open or works in, read once per look (held_open)
held_open() {  # PATH: whether a process has a file under PATH open, or works in it
  if [ -z "$open_paths" ]; then
    open_paths=$(find /proc/[0-9]*/fd /proc/[0-9]*/cwd -maxdepth 1 -printf '%l\n' 2>/dev/null | sort -u)
    open_paths=${open_paths:-none}
  fi
  grep -qxF -e "$1" <<<"$open_paths" || grep -qF -e "$1/" <<<"$open_paths"
}

in_use() {  # LINE: a process under a running ctest, a loop device, mount or file whose name carries
  # the pid of one (the lab's names do: diskvet-<tag>-<pid>-...), or a file a process holds open:
  # another checkout's tests, still running beside this one on a shared machine. This run's tests
  # have all ended when check runs (RUN_SERIAL).
  local kind id rest n
  read -r kind id rest <<<"$1"
  if [ "$kind" = process ]; then under_ctest "$id"; return; fi
  if [ "$kind" = file ] && held_open "$id"; then return 0; fi
  for n in $(grep -oE -- '-[0-9]{2,}[-.]' <<<"$id $rest" | tr -d '.-'); do
    under_ctest "$n" && return 0
  done
  return 1
}

new_since() {  # the lines of list that the baseline FILE does not hold, less those still in use
  local line
  list | sort | comm -23 - <(sort "$1" 2>/dev/null) | while IFS= read -r line; do
    if in_use "$line"; then echo "lab_leaks: in use by a test still running (another checkout's?), not counted: ${line:0:160}" >&2; else echo "$line"; fi
  done
}

case ${1:-} in
  list) list ;;
  baseline)
    [ -n "${2:-}" ] || { echo "usage: $0 baseline FILE" >&2; exit 2; }
    list | sort >"$2"
    echo "lab_leaks: $(wc -l <"$2") lab things were there before the tests (not counted as leaks):"
    cat "$2"
    ;;
  check)
    [ -n "${2:-}" ] || { echo "usage: $0 check FILE" >&2; exit 2; }
    [ -f "$2" ] || echo "lab_leaks: no baseline $2 (run the fixture's setup test): everything found counts"
    grace=${LAB_LEAKS_GRACE_S:-10}
    start=$SECONDS
    while :; do
      leaks=$(new_since "$2")
      [ -z "$leaks" ] && { echo "lab_leaks: nothing left behind by the tests"; exit 0; }
      [ $((SECONDS - start)) -lt "$grace" ] || break
      sleep 0.5
    done
    echo "lab_leaks: FAIL: the tests left these behind (each test must release what it makes, also when it fails):"
    echo "$leaks" | sed 's/^/  /'
    echo "lab_leaks: loop devices: losetup -a; mounts: /proc/self/mounts; release by hand with losetup -d, umount, kill PID, rm -r"
    exit 1
    ;;
  *)
    echo "usage: $0 baseline FILE | check FILE | list" >&2
    exit 2
    ;;
esac
