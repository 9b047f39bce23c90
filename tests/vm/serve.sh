#!/usr/bin/env bash
# diskvet.serve=1: the appliance as one host of `diskvet run --hosts`, reached over SSH through QEMU's
# user network (restrict=on: the guest reaches nothing; only hostfwd 127.0.0.1:PORT -> guest:22).
#  1. serve=1 in diskvet.conf, a fresh test key's public half in authorized_keys on the stick: the
#     console prints the host key's fingerprint (checked against what the port presents) and the
#     address; ssh with the key runs `diskvet list --json` (the NVMe drive by serial); only port 22
#     listens; another key, a password and a remote forward are refused; a read-only
#     `diskvet run --hosts` from this machine gets a PASS verdict with nothing left running there.
#  2. serve=1 with no authorized_keys on the stick: refused (BAD PARAMETER), no sshd, nothing listens.
#  3. no serve=1 (a key on the stick, a NIC): no sshd, no interface up, nothing listens.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
: "${DISKVET_BIN:?DISKVET_BIN must name the diskvet binary (ctest sets it)}"
for tool in ssh ssh-keygen ssh-keyscan; do command -v $tool >/dev/null || vm_skip "$tool not installed (openssh-client)"; done
command -v fio >/dev/null || vm_skip "fio not installed"
vm_scratch
serial=DVSERVE0001
ssh-keygen -q -t ed25519 -N '' -C diskvet-vm-serve -f "$vm_dir/key"
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$vm_dir/stranger"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
nic=(-nic "user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:$port-:22")
drive=$(vm_drive nvme 64M)
nvme=(-drive "file=$drive,if=none,id=d0,format=raw" -device "nvme,serial=$serial,drive=d0")
cat > "$vm_dir/ssh_config" <<EOF
Host 127.0.0.1
  User root
  IdentityFile $vm_dir/key
  IdentitiesOnly yes
  UserKnownHostsFile $vm_dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  PasswordAuthentication no
  KbdInteractiveAuthentication no
  ConnectTimeout 10
EOF
vm_ssh() { ssh -F "$vm_dir/ssh_config" -o BatchMode=yes -p "$port" 127.0.0.1 "$@"; }
# What the forwarded port answers within 3 s: an SSH banner when sshd listens in the guest; nothing
# (QEMU accepts, the guest refuses, the connection closes) when nothing does.
banner() {
  python3 - "$port" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
try:
    print(s.recv(64).decode(errors="replace").strip())
except (socket.timeout, ConnectionError):
    pass
EOF
}
# Every listening socket in the guest, as "proto local-address" (busybox netstat).
listeners_cmd='netstat -ltnu | awk "/^(tcp|udp)/ {print \$1, \$4}"'

# --- 1. serving -----------------------------------------------------------------------------------
data="$vm_dir/stick-serve.img"
mv "$(vm_data_disk)" "$data"  # vm_data_disk makes one file name; boot 2 gets its own
cp "$vm_dir/key.pub" "$vm_dir/authorized_keys"
printf 'serve=1\n' > "$vm_dir/diskvet.conf"
mcopy -i "$data" "$vm_dir/authorized_keys" "$vm_dir/diskvet.conf" ::/
vm_start_kernel "diskvet.poweroff=1 diskvet.deadline=200" -drive "file=$data,if=virtio,format=raw" "${nvme[@]}" "${nic[@]}"
vm_wait_for 120 '^=== DISKVET SERVE END ==='
echo "serving after $((SECONDS - vm_started_s))s"
vm_expect '^SERVE: on: sshd on port 22, keys only, 1 key\(s\) from /dev/vd[a-z][0-9]*:/authorized_keys'
key_fp=$(ssh-keygen -l -f "$vm_dir/key.pub" | awk '{print $2}')
grep -qaF "SERVE: authorized key 256 $key_fp diskvet-vm-serve (ED25519)" "$vm_log" || vm_fail "the console does not list the stick's key ($key_fp)"
vm_expect '^SERVE: address eth0 10\.0\.2\.15/24: ssh root@10\.0\.2\.15' "the console does not show the DHCP address"
console_fp=$(sed -n 's/^SERVE: host key 256 \(SHA256:[^ ]*\) .*(ED25519).*/\1/p' "$vm_log" | head -1)
[ -n "$console_fp" ] || vm_fail "no host key fingerprint on the console"
# The engineer's check: the key the port presents is the one the console printed.
ssh-keyscan -t ed25519 -p "$port" 127.0.0.1 2>/dev/null > "$vm_dir/known_hosts"
port_fp=$(ssh-keygen -l -f "$vm_dir/known_hosts" | awk '{print $2}')
[ "$port_fp" = "$console_fp" ] || vm_fail "the port presents host key $port_fp, the console printed $console_fp"
out=$(vm_ssh 'diskvet list --json') || vm_fail "ssh with the stick's key failed"
python3 -c 'import json, sys; d = json.loads(sys.argv[1]); sys.exit(0 if sys.argv[2] in json.dumps(d) else 1)' "$out" "$serial" \
  || vm_fail "diskvet list --json over ssh does not list $serial: $out"
listeners=$(vm_ssh "$listeners_cmd; echo sshd=\$(pidof sshd | wc -w)")
echo "guest listeners: $(echo "$listeners" | tr '\n' ' ')"
echo "$listeners" | grep -q '^tcp 0\.0\.0\.0:22$' || vm_fail "sshd does not listen on port 22: $listeners"
bad=$(echo "$listeners" | grep -E '^(tcp|udp)' | grep -Ev '^tcp6? (0\.0\.0\.0|::|:::):22$' || true)
[ -z "$bad" ] || vm_fail "something else listens in the guest: $bad"
# Keys only: another key, a password, a remote forward (which would make the guest listen) refused.
# Without the lab's ssh_config, whose IdentityFile would be offered too.
bare=(ssh -F /dev/null -o UserKnownHostsFile="$vm_dir/known_hosts" -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes
      -o ConnectTimeout=10 -o IdentitiesOnly=yes -p "$port")
if err=$("${bare[@]}" -o BatchMode=yes -i "$vm_dir/stranger" root@127.0.0.1 true 2>&1 >/dev/null); then
  vm_fail "a key that is not on the stick was let in"
fi
echo "$err" | grep -q 'Permission denied (publickey)' || vm_fail "a key not on the stick failed, but not as refused: $err"
if err=$("${bare[@]}" -o BatchMode=no -o PubkeyAuthentication=no -o PasswordAuthentication=yes -o KbdInteractiveAuthentication=yes \
    -o NumberOfPasswordPrompts=1 root@127.0.0.1 true 2>&1 </dev/null >/dev/null); then
  vm_fail "a login without a key was let in"
fi
echo "$err" | grep -q 'Permission denied (publickey)' || vm_fail "a login without a key failed, but not as 'publickey only': $err"
if vm_ssh -o ExitOnForwardFailure=yes -R 127.0.0.1:2222:127.0.0.1:9 true 2>/dev/null; then
  vm_fail "a remote forward (a port listening in the guest) was allowed"
fi

# The controller's run: read only (no consent), judged on a floor any working drive meets.
cat > "$vm_dir/hosts.json" <<EOF
{"ssh_config": "ssh_config",
 "hosts": [{"name": "vm1", "ssh": "root@127.0.0.1", "port": $port, "devices": [{"id": "$serial"}]}]}
EOF
cat > "$vm_dir/floor.json" <<'EOF'
{"name": "vm-serve-floor", "description": "VM lab: a floor any working emulated drive meets, so the verdict is judged",
 "limits": {"randread-qd1": {"read.iops": {"min": 10}}}}
EOF
rc=0
(cd "$vm_dir" && timeout -k 5 "$(vm_limit 120)" "$DISKVET_BIN" run --suite "$vm_here/lab-suite.json" --hosts hosts.json --profile floor.json \
  --out report.json > run.out 2>&1) || rc=$?
sed 's/^/run: /' "$vm_dir/run.out"
[ "$rc" -eq 0 ] || vm_fail "diskvet run --hosts against the served guest exited $rc"
python3 - "$vm_dir/report.json" "$serial" <<'EOF' || vm_fail "the --hosts report is not the one expected"
import json, sys
r = json.load(open(sys.argv[1]))
host = r["hosts"][0]
dev = host["devices"][0]
checks = [
    (r["status"] == "COMPLETE", f"status {r['status']}"),
    (r["verdict"] == "PASS", f"verdict {r['verdict']}"),
    (host["name"] == "vm1" and host["state"] == "ok", f"host {host}"),
    (dev["id"] == sys.argv[2] and dev["path"].startswith("/dev/nvme") and not dev["held"] and "refusal" not in dev,
     f"device {dev}"),
    ("left_running" not in r, f"left running {r.get('left_running')}"),
]
wl = r["tests"][0]["workloads"][0]
iops = wl["merged"]["read"]["iops"]
checks.append((iops >= 10 and "vm1" in wl["hosts"], f"merged read iops {iops}, hosts {list(wl['hosts'])}"))
bad = [why for ok, why in checks if not ok]
print("report:", r["status"], r["verdict"], f"{iops:.0f} IOPS read by vm1 through fio's server")
if bad:
    print("report problems:", bad)
    sys.exit(1)
EOF
left=$(vm_ssh 'pgrep -f -- "[s]erver=sock:" || true')
[ -z "$left" ] || vm_fail "fio processes left running in the guest: $left"
vm_ssh 'sync; poweroff -f' >/dev/null 2>&1 || true
vm_wait_poweroff 240

# --- 2 and 3: not serving -------------------------------------------------------------------------
# Booted with a shell on the serial console (a pair of FIFOs): the guest shows what runs and listens.
shell_boot() {
  local append=$1 disk=$2
  vm_start_shell 150 "$append" -drive "file=$disk,if=virtio,format=raw" "${nvme[@]}" "${nic[@]}"
  printf '%s\r' "echo \"SSHD=\$(pidof sshd | wc -w) UP=\$(ip -o link show up | grep -vc ' lo:') LISTEN=\$($listeners_cmd | wc -l)\"" >&3
  vm_wait_for 180 '^SSHD=[0-9]+ UP=[0-9]+ LISTEN=[0-9]+'
  got=$(banner || true)
  printf '%s\r' 'sync; poweroff -f' >&3
  exec 3>&-
  vm_wait_poweroff 210
  vm_expect '^SSHD=0 UP=0 LISTEN=0' "the guest runs sshd, has an interface up or something listening: $(grep -a '^SSHD=' "$vm_log")"
  case "$got" in SSH-*) vm_fail "the forwarded port answered with an SSH banner: $got" ;; esac
  echo "the port answered: '${got}' (no SSH server)"
}

nokeys=$(vm_data_disk)
shell_boot "diskvet.serve=1" "$nokeys"
vm_expect "BAD PARAMETER: diskvet.serve=1: no public key in authorized_keys on the DISKVET partition \(/dev/vd[a-z][0-9]*\): the SSH server is not started" \
  "serve=1 without authorized_keys was not refused on the console"
vm_expect_not '^SERVE: on' "serve=1 without authorized_keys started serving"

mdel -i "$data" ::/diskvet.conf  # the stick of boot 1 keeps its key, but nothing asks to serve
shell_boot "" "$data"
vm_pass "served over SSH with the stick's key only; refused without a key; nothing listens without serve=1"
