# diskvet.serve=1, sourced by init (image/init): the appliance is reached over SSH, so a controller
# (`diskvet run --hosts`) can drive a rack of stick-booted servers. The network comes up by DHCP;
# OpenSSH's sshd takes the public keys of authorized_keys on the DISKVET partition and nothing else
# (no password, no keyboard-interactive, no remote forwarding), with an ed25519 host key made at boot
# whose fingerprint is printed on every console. Nothing else listens: fio's server, started by the
# controller over SSH, listens on a unix socket only. Any step that fails leaves sshd stopped and
# says why (fail closed: never an open door).
#
# Needs from the caller: say, to_consoles, $STATE, $DATA_MNT, $data_dev.

SERVE_DIR=/run/diskvet/sshd  # sshd's config, host key and the copy of the keys, in RAM only

serve_refuse() {
  serve_network_down
  say "SERVE REFUSED: $* (no SSH server runs; diskvet.serve=1 takes keys only, from authorized_keys on the DISKVET partition)"
  {
    echo "=== DISKVET SERVE REFUSED ==="
    echo "$*"
    echo "No SSH server runs, and no network interface is up."
  } > "$STATE/serve.console"
  to_consoles "$STATE/serve.console"
  return 1
}

# The interfaces of real hardware (not lo, bridges or tunnels), each up and asking DHCP for an
# address: busybox udhcpc, which keeps the lease renewed in the background. Waits at most ~10 s
# (5 requests, 2 s apart) for each, all at once, then goes on: a late lease is printed when it comes.
serve_network() {
  local i name pids="" n=0
  for i in /sys/class/net/*; do
    [ -e "$i/device" ] || continue
    name=${i##*/}
    ip link set "$name" up || continue
    udhcpc -i "$name" -b -t 5 -T 2 -s /usr/lib/diskvet/udhcpc.script -p "/run/udhcpc.$name.pid" \
      > "$STATE/udhcpc.$name.log" 2>&1 &
    pids="$pids $!"
    n=$((n + 1))
  done
  [ -z "$pids" ] || wait $pids
  [ $n -gt 0 ] || serve_warning="no network interface found (is its driver in image/modules.txt?)"
  ip link set lo up
}

# Back to no network: the DHCP clients stopped, every interface down.
serve_network_down() {
  local p i
  for p in /run/udhcpc.*.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
  for i in /sys/class/net/*; do [ -e "$i/device" ] && ip link set "${i##*/}" down 2>/dev/null; done
  return 0
}

# Every global IPv4 and IPv6 address, one "IFACE ADDR/PREFIX" a line.
serve_addresses() {
  local i name
  for i in /sys/class/net/*; do
    [ -e "$i/device" ] || continue
    name=${i##*/}
    ip addr show dev "$name" 2>/dev/null | sed -n "s/^ *inet6\{0,1\} \([0-9a-fA-F:.]*\/[0-9]*\) .*scope global.*/$name \1/p"
  done
}

serve_config() {
  cat <<CONF
# Written by the diskvet appliance (diskvet.serve=1): keys only, root only, local forwarding only.
Port 22
ListenAddress 0.0.0.0
ListenAddress ::
HostKey $SERVE_DIR/ssh_host_ed25519_key
AuthorizedKeysFile $SERVE_DIR/authorized_keys
AuthorizedPrincipalsFile none
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
HostbasedAuthentication no
GSSAPIAuthentication no
KerberosAuthentication no
PermitEmptyPasswords no
PermitRootLogin prohibit-password
AllowUsers root
UsePAM no
StrictModes yes
PermitUserEnvironment no
# The controller forwards fio's unix socket (ssh -L); OpenSSH refuses a socket forward unless local
# TCP forwarding is allowed too. Nothing may make this host listen: no remote forwarding, no tunnels.
AllowStreamLocalForwarding local
AllowTcpForwarding local
GatewayPorts no
PermitTunnel no
PermitListen none
X11Forwarding no
AllowAgentForwarding no
UseDNS no
PrintMotd no
LoginGraceTime 30
ClientAliveInterval 5
ClientAliveCountMax 3
PidFile $SERVE_DIR/sshd.pid
CONF
}

# Starts sshd when everything it needs is there; otherwise refuses, saying why. Returns 0 when serving.
serve_start() {
  local keys="$DATA_MNT/authorized_keys" n line
  serve_warning=""
  : > "$STATE/serve.console"
  # settings.sh already refused the boot without a key file; check again what sshd will read.
  [ -n "$data_dev" ] && [ -f "$keys" ] || { serve_refuse "no authorized_keys on the DISKVET partition"; return 1; }
  [ -x /usr/sbin/sshd ] && command -v ssh-keygen >/dev/null || { serve_refuse "this image has no sshd"; return 1; }
  rm -rf "$SERVE_DIR"
  mkdir -p -m 0700 "$SERVE_DIR" || { serve_refuse "cannot make $SERVE_DIR"; return 1; }
  mkdir -p -m 0755 /run/sshd  # OpenSSH's privilege separation folder
  # StrictModes checks every folder above the key file: the initramfs root comes up 1777.
  chmod 0755 / && chmod 0700 /root
  # A copy in RAM, owned by root and 0600 (FAT has no owners or modes, so StrictModes would refuse
  # the stick's own file), with DOS line ends removed; later changes to the stick are not followed.
  ( umask 077; tr -d '\r' < "$keys" > "$SERVE_DIR/authorized_keys" ) || { serve_refuse "cannot copy $data_dev:/authorized_keys"; return 1; }
  if ! ssh-keygen -l -f "$SERVE_DIR/authorized_keys" > "$STATE/serve-keys" 2>"$STATE/serve-keys.err" || [ ! -s "$STATE/serve-keys" ]; then
    serve_refuse "$data_dev:/authorized_keys holds no public key that ssh-keygen can read ($(tail -n 1 "$STATE/serve-keys.err"))"
    return 1
  fi
  n=$(wc -l < "$STATE/serve-keys")
  ssh-keygen -q -t ed25519 -N '' -C "diskvet@$(hostname)" -f "$SERVE_DIR/ssh_host_ed25519_key" 2>"$STATE/serve-hostkey.err" \
    || { serve_refuse "cannot make a host key: $(tail -n 1 "$STATE/serve-hostkey.err")"; return 1; }
  serve_config > "$SERVE_DIR/sshd_config"
  /usr/sbin/sshd -t -f "$SERVE_DIR/sshd_config" 2>"$STATE/sshd-check.err" \
    || { serve_refuse "sshd refuses its configuration: $(tail -n 1 "$STATE/sshd-check.err")"; return 1; }
  serve_network
  /usr/sbin/sshd -f "$SERVE_DIR/sshd_config" -E "$STATE/sshd.log" \
    || { serve_refuse "sshd did not start: $(tail -n 1 "$STATE/sshd.log")"; return 1; }
  {
    echo "=== DISKVET SERVE ==="
    echo "SERVE: on: sshd on port 22, keys only, $n key(s) from $data_dev:/authorized_keys (root login by key; no password)"
    while IFS= read -r line; do echo "SERVE: authorized key $line"; done < "$STATE/serve-keys"
    echo "SERVE: host key $(ssh-keygen -l -f "$SERVE_DIR/ssh_host_ed25519_key.pub") (new at every boot: check it before you trust it)"
    serve_addresses > "$STATE/serve-addresses"
    [ -z "$serve_warning" ] || echo "SERVE: WARNING: $serve_warning"
    [ -s "$STATE/serve-addresses" ] || echo "SERVE: no address yet (DHCP keeps asking in the background; 'ip addr' on the shell)"
    while read -r line; do
      set -- $line
      echo "SERVE: address $1 $2: ssh root@${2%/*}"
    done < "$STATE/serve-addresses"
    echo "SERVE: the DISKVET partition's /authorized_keys was read at boot; a change needs a reboot"
    echo "=== DISKVET SERVE END ==="
  } > "$STATE/serve.console"
  to_consoles "$STATE/serve.console"
  return 0
}
