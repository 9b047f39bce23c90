# The appliance's settings, sourced by init (image/init) and by the tests (tests/image/): read from
# diskvet.conf and the kernel command line, checked before anything runs, and turned into the one
# 'diskvet run' they ask for; and the nvme driver's poll queues (nvme_poll_queue_args). Outside
# input is text: it is never expanded as a file name pattern, never evaluated, and a device or
# consent reaches diskvet only as the exact word the operator wrote.
#
# Needs from the caller: say, whole_disks, is_boot_medium, $STATE, $DATA_MNT, $data_dev.
# Sets: s_run s_devices s_destroy s_profile s_poweroff s_deadline s_shell s_serve, run_devices.

# diskvet.conf first, then the kernel command line over it.
#   load_settings CONF_FILE CMDLINE_FILE
load_settings() {
  local conf=$1 cmdline=$2 line key word
  if [ -f "$conf" ]; then
    say "reading $data_dev:/diskvet.conf"
    while IFS= read -r line || [ -n "$line" ]; do
      line=$(printf '%s\n' "$line" | sed 's/#.*//; s/^[[:blank:]]*//; s/[[:blank:]\r]*$//')
      [ -n "$line" ] || continue
      key=${line%%=*}
      [ "$key" = "$line" ] && { bad_setting "diskvet.conf line '$line' is not KEY=VALUE"; continue; }
      set_setting "${key#diskvet.}" "${line#*=}" "diskvet.conf"
    done < "$conf"
  fi
  # Split on blanks only: a '*' or '?' in a value is text, never a file name pattern.
  set -f
  for word in $(cat "$cmdline"); do
    case "$word" in
      diskvet.*=*) key=${word%%=*}; set_setting "${key#diskvet.}" "${word#*=}" "kernel command line" ;;
    esac
  done
  set +f
}

bad_setting() {
  say "BAD PARAMETER: $*"
  printf '%s\n' "$*" >> "$STATE/bad-settings"
}

set_setting() {
  case "$1" in
    run) s_run=$2 ;;
    devices) s_devices=$2 ;;
    destroy-data) s_destroy=$2 ;;
    profile) s_profile=$2 ;;
    poweroff) s_poweroff=$2 ;;
    deadline) s_deadline=$2 ;;
    shell) s_shell=$2 ;;
    serve) s_serve=$2 ;;
    boot) [ "$3" = "kernel command line" ] || bad_setting "diskvet.boot comes from the boot loader (image/grub.cfg), not from $3" ;;
    *) bad_setting "unknown setting '$1' (from the $3); known: run, devices, destroy-data, profile, poweroff, deadline, shell, serve" ;;
  esac
}

# diskvet.serve=1's keys: authorized_keys on the mounted DISKVET partition with a line that is not
# blank or a comment (image/serve.sh then has ssh-keygen read each key before sshd starts).
serve_keys_present() {
  [ -n "$data_dev" ] && [ -f "$DATA_MNT/authorized_keys" ] && grep -q '^[[:blank:]]*[^#[:blank:]]' "$DATA_MNT/authorized_keys"
}

# The words of a list setting (devices, destroy-data), one per line: commas and blanks separate.
# Callers read them line by line (never through an unquoted expansion), so a '*' stays a '*'.
ids_of() { printf '%s\n' "$1" | tr ',[:blank:]' '\n\n\n' | grep -v '^$'; }

# A device named by /dev path, serial or WWN, as udev knows them, or an NVMe namespace as
# SERIAL/NSID (its controller's serial, its namespace id). A serial shared by several namespaces
# resolves to the first; diskvet's gate refuses consent by it alone.
resolve_device() {
  local want=$1 d props
  case "$want" in
    /dev/*) [ -b "$want" ] && { echo "$want"; return 0; }; return 1 ;;
    ''|-*) return 1 ;;  # no identity looks like an option
  esac
  case "$want" in
    # SERIAL/NSID: both parts present, the NSID a number. Without that check "/" (or "x/") compared
    # its empty parts with the empty reads of a disk that has no nsid or serial file, and named it.
    ?*/[0-9]*)
      case "${want##*/}" in *[!0-9]*) ;; *)
      for d in $(whole_disks); do
        [ "$(cat /sys/block/${d#/dev/}/nsid 2>/dev/null)" = "${want##*/}" ] || continue
        [ "$(cat /sys/block/${d#/dev/}/device/serial 2>/dev/null | sed 's/^ *//; s/ *$//')" = "${want%/*}" ] && { echo "$d"; return 0; }
      done ;;
      esac ;;
  esac
  for d in $(whole_disks); do
    props=$(udevadm info --query=property --name="$d" 2>/dev/null)
    if printf '%s\n' "$props" | grep -qxF -e "ID_SERIAL_SHORT=$want" -e "ID_SERIAL=$want" -e "ID_WWN=$want" -e "ID_WWN_WITH_EXTENSION=$want"; then
      echo "$d"; return 0
    fi
    [ "$(cat /sys/block/${d#/dev/}/device/serial 2>/dev/null | tr -d ' ')" = "$want" ] && { echo "$d"; return 0; }
  done
  return 1
}

# Checks every setting before anything runs: a bad parameter is reported and nothing is written.
# run_devices gets the devices to test, one per line.
validate_settings() {
  local id dev
  case "${s_poweroff:-0}" in 0|1) ;; *) bad_setting "diskvet.poweroff=$s_poweroff: must be 0 or 1" ;; esac
  # At most 9 digits (over 30 years): the shell's tests compare it as a number.
  case "${s_deadline:-0}" in *[!0-9]*|'') bad_setting "diskvet.deadline=$s_deadline: must be a whole number of seconds" ;;
    ??????????*) bad_setting "diskvet.deadline=$s_deadline: at most 999999999 seconds" ;; esac
  case "${s_shell:-0}" in 0) ;; 1) touch "$STATE/shell-only" ;; *) bad_setting "diskvet.shell=$s_shell: must be 0 or 1" ;; esac
  # serve=1 takes keys only, from the DISKVET partition: without one, nothing is served (and, as with
  # any bad parameter, nothing runs), rather than an SSH server nobody can check the door of.
  case "${s_serve:-0}" in
    0) ;;
    1) serve_keys_present || bad_setting "diskvet.serve=1: no public key in authorized_keys on the DISKVET partition${data_dev:+ ($data_dev)}: the SSH server is not started (it takes keys only, from that file)" ;;
    *) bad_setting "diskvet.serve=$s_serve: must be 0 or 1" ;;
  esac
  [ -n "$s_run" ] || return 0
  case "$s_run" in
    quick|acceptance|burnin) ;;
    -*) bad_setting "diskvet.run=$s_run: not a suite (quick, acceptance, burnin, or a .json file on the DISKVET partition)" ;;
    */*|*.json) [ -f "$s_run" ] || [ -f "$DATA_MNT/$s_run" ] || bad_setting "diskvet.run=$s_run: no such suite file (paths are relative to the DISKVET partition)" ;;
    *) bad_setting "diskvet.run=$s_run: not a suite (quick, acceptance, burnin, or a .json file on the DISKVET partition)" ;;
  esac
  [ -f "$DATA_MNT/$s_run" ] && s_run="$DATA_MNT/$s_run"
  run_devices=""
  if [ -z "$s_devices" ] || [ "$s_devices" = all ]; then
    # "all" leaves out the boot medium and a separate disk holding the DISKVET report partition.
    for dev in $(whole_disks); do
      is_boot_medium "$dev" || grep -qxF "$dev" "$STATE/data-medium" 2>/dev/null || run_devices="$run_devices$dev
"
    done
  else
    while IFS= read -r id; do
      [ -n "$id" ] || continue
      if ! dev=$(resolve_device "$id"); then
        bad_setting "diskvet.devices: no device '$id' (give a /dev path, serial, SERIAL/NSID or WWN; see the device list above)"
      elif is_boot_medium "$dev"; then
        bad_setting "diskvet.devices: '$id' is the boot medium ($dev); it is never tested"
      else
        run_devices="$run_devices$dev
"
      fi
    done <<EOF
$(ids_of "$s_devices")
EOF
  fi
  [ -n "$run_devices" ] || bad_setting "diskvet.devices=${s_devices:-all}: no device to test"
  while IFS= read -r id; do
    [ -n "$id" ] && [ "$id" != all-unprotected ] || continue
    if ! dev=$(resolve_device "$id"); then
      bad_setting "diskvet.destroy-data: no device '$id' (give a serial, SERIAL/NSID, WWN, /dev path, or all-unprotected)"
    elif is_boot_medium "$dev"; then
      bad_setting "diskvet.destroy-data: '$id' is the boot medium ($dev); it is never written"
    fi
  done <<EOF
$(ids_of "$s_destroy")
EOF
  case "$s_profile" in
    ""|auto) ;;
    # A cloud family with parameters (aws-gp3:iops=6000,mbps=250): only letters, digits and "-._:=,",
    # then the exact shape FAMILY:KEY=VALUE[,KEY=VALUE...], each value a number (with a size unit) or a
    # tier (P10). diskvet itself then checks the family and its parameters.
    *:*) case "$s_profile" in
           -*|*[!A-Za-z0-9._:=,-]*) bad_setting "diskvet.profile=$s_profile: a cloud family with parameters is FAMILY:KEY=NUMBER,..., e.g. aws-gp3:iops=6000,mbps=250" ;;
           *) printf '%s\n' "$s_profile" | grep -qxE "$profile_params_re" ||
                bad_setting "diskvet.profile=$s_profile: a cloud family with parameters is FAMILY:KEY=NUMBER,..., e.g. aws-gp3:iops=6000,mbps=250" ;;
         esac ;;
    -*|*[!A-Za-z0-9._/-]*) bad_setting "diskvet.profile=$s_profile: a profile name or a .json file on the DISKVET partition" ;;
    *) [ -f "$DATA_MNT/$s_profile" ] && s_profile="$DATA_MNT/$s_profile" ;;
  esac
}

# FAMILY:KEY=VALUE[,KEY=VALUE...] of diskvet.profile (see validate_settings).
profile_params_re='[a-z][a-z0-9-]*:[a-z]+=([0-9]+(\.[0-9]+)?[kmgtKMGT]?|[A-Za-z][0-9]+)(,[a-z]+=([0-9]+(\.[0-9]+)?[kmgtKMGT]?|[A-Za-z][0-9]+))*'

# The suite run the settings ask for: each device and each consent one argument, as written.
#   run_suite REPORT_FILE
run_suite() {
  local report=$1 id dev
  set -- run --suite "$s_run"
  while IFS= read -r dev; do [ -z "$dev" ] || set -- "$@" --device "$dev"; done <<EOF
$run_devices
EOF
  while IFS= read -r id; do [ -z "$id" ] || set -- "$@" --destroy-data "$id"; done <<EOF
$(ids_of "$s_destroy")
EOF
  [ -n "$s_profile" ] && set -- "$@" --profile "$s_profile"
  set -- "$@" --out "$report"
  say "running: diskvet $*"
  diskvet "$@"
}

# The nvme driver's poll queues, so that --hipri and the suites' fast path can poll NVMe drives
# (a polled queue completes without interrupts). Prints the argument for 'modprobe nvme', or nothing
# when the kernel command line sets nvme.poll_queues itself: the operator's value stands, and
# nvme.poll_queues=0 keeps every queue interrupt-driven.
# The driver asks each controller for a queue per possible CPU plus the poll queues: a controller
# that grants that many keeps all its interrupt-driven queues; one that grants fewer gives the poll
# queues out of its interrupt-driven ones, keeping at least one. One poll queue per job of the
# suites' widest polled workload (8 jobs), and never more than the possible CPUs: Linux refuses a
# larger count and then does not load the driver at all.
#   nvme_poll_queue_args POSSIBLE_CPUS_FILE CMDLINE_FILE   (/sys/devices/system/cpu/possible, /proc/cmdline)
nvme_poll_queue_args() (
  # A subshell: the file name patterns stay off (set -f) for the whole body, whichever way it ends.
  set -f
  n=0
  for word in $(cat "$2"); do
    case "$word" in nvme.poll_queues=*) return 0 ;; esac
  done
  for range in $(tr ',' ' ' < "$1"); do
    lo=${range%-*}
    hi=${range#*-}
    case "$lo" in ''|*[!0-9]*) return 0 ;; esac
    case "$hi" in ''|*[!0-9]*) return 0 ;; esac
    n=$((n + hi - lo + 1))
  done
  [ "$n" -gt 8 ] && n=8
  [ "$n" -lt 1 ] || echo "poll_queues=$n"
)
