#!/usr/bin/env bash
# Builds the diskvet appliance from Debian packages, without root mounts: vmlinuz, initrd.img, diskvet.iso.
#   image/build.sh --out DIR [--diskvet PATH] [--kernel VERSION] [--no-iso]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

usage() {
  cat >&2 <<USAGE
usage: image/build.sh --out DIR [--diskvet PATH] [--kernel VERSION] [--no-iso]
  --out DIR        where vmlinuz, initrd.img and diskvet.iso are written
  --diskvet PATH   the diskvet binary (default: build/cli/diskvet, built by scripts/build.sh)
  --kernel VER     kernel version under /lib/modules (default: the newest with /boot/vmlinuz-VER)
  --no-iso         only vmlinuz and initrd.img (for direct kernel boot)
USAGE
  exit 2
}

die() { echo "image/build.sh: $*" >&2; exit 2; }

parse_args() {
  out="" diskvet="$top/build/cli/diskvet" kver="" want_iso=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --out) out=${2:?}; shift 2 ;;
      --diskvet) diskvet=${2:?}; shift 2 ;;
      --kernel) kver=${2:?}; shift 2 ;;
      --no-iso) want_iso=0; shift ;;
      -h|--help) usage ;;
      *) echo "image/build.sh: unknown argument '$1'" >&2; usage ;;
    esac
  done
  [ -n "$out" ] || usage
  [ -x "$diskvet" ] || die "no diskvet binary at $diskvet: run scripts/build.sh first or pass --diskvet"
  if [ -z "$kver" ]; then
    # The newest kernel that has both an image and modules; sort -V orders 6.1.0-10 after 6.1.0-9.
    kver=$(for d in /lib/modules/*/; do v=$(basename "$d"); [ -r "/boot/vmlinuz-$v" ] && echo "$v"; done | sort -V | tail -1)
  fi
  [ -n "$kver" ] && [ -r "/boot/vmlinuz-$kver" ] || die "no readable /boot/vmlinuz-* with modules: install linux-image-amd64 (scripts/deps.sh)"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  stage=$(mktemp -d "$out/.stage.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  root="$stage/root"
}

# Debian 12 is merged-/usr: /bin, /sbin, /lib and /lib64 are links into /usr, so copying a file
# to the same path in the image works whichever spelling ldd or a package uses.
make_skeleton() {
  mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/{dev,proc,sys,run,tmp,mnt,media,etc,root,var}
  ln -s usr/bin "$root/bin"; ln -s usr/sbin "$root/sbin"; ln -s usr/lib "$root/lib"; ln -s usr/lib64 "$root/lib64"
  chmod 1777 "$root/tmp"
}

# Copies a file to the same path under a root (default: the image), following links so the image
# holds real files.
copy_file() {
  local src=$1 dst="${2:-$root}$1"
  [ -e "$dst" ] && return 0
  mkdir -p "$(dirname "$dst")"
  cp -L --preserve=mode "$src" "$dst"
}

# Copies every shared library an executable loads (ldd gives the transitive closure).
copy_libraries() {
  local bin=$1 dstroot=${2:-$root} lib
  while read -r lib; do copy_file "$lib" "$dstroot"; done < <(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true)
}

# Copies an executable to the same path in the image, with its libraries.
copy_binary() {
  copy_file "$1" "${2:-}"
  copy_libraries "$1" "${2:-}"
}

stage_busybox() {
  copy_file /bin/busybox
  local applet
  # Applets become links unless a real tool (kmod, udevadm) already has the name.
  while read -r applet; do
    [ -e "$root/$applet" ] || [ -L "$root/$applet" ] || ln -s /usr/bin/busybox "$root/$applet"
  done < <("$root/bin/busybox" --list-full)
}

stage_tools() {
  install -m 0755 "$diskvet" "$root/usr/bin/diskvet"
  copy_libraries "$diskvet"
  for b in /usr/sbin/nvme /usr/sbin/smartctl /sbin/blkid /bin/kmod /bin/udevadm /lib/systemd/systemd-udevd; do
    [ -x "$b" ] || die "$b is missing: run scripts/deps.sh (scripts/packages/image.txt)"
    copy_binary "$b"
  done
  for t in modprobe insmod rmmod lsmod depmod modinfo; do ln -sf /usr/bin/kmod "$root/usr/sbin/$t"; done
  ln -sf /usr/lib/systemd/systemd-udevd "$root/usr/sbin/udevd"
  # smartctl's drive database and nvme-cli work without config files.
}

# diskvet.serve=1 (serve.sh): OpenSSH's sshd, key-only, and ssh-keygen for the host key and the
# fingerprints printed at boot. procps' ps and pgrep too: the controller of `diskvet run --hosts`
# runs `ps -o pid= --ppid` and `pgrep -f` on the host, and busybox's ps has no --ppid while Debian's
# busybox has no pgrep at all (its post-run check for leftover fio jobs would see nothing).
stage_ssh() {
  local b
  for b in /usr/sbin/sshd /usr/bin/ssh-keygen /usr/bin/ps /usr/bin/pgrep; do
    [ -x "$b" ] || die "$b is missing: run scripts/deps.sh (scripts/packages/image.txt: openssh-server, procps)"
    copy_binary "$b"
  done
  ln -sf pgrep "$root/usr/bin/pkill"
  install -D -m 0644 "$here/serve.sh" "$root/usr/lib/diskvet/serve.sh"
  install -D -m 0755 "$here/udhcpc.script" "$root/usr/lib/diskvet/udhcpc.script"
}

# Debian's fio links the Ceph, Gluster, RDMA and PMEM engines: ~75 MiB of libraries (ICU data alone
# is 30 MiB), more than the rest of the image together. Unpacked into the initramfs they would not
# fit a 256 MiB machine, so fio and the libraries only it needs go into a compressed squashfs that
# init mounts at /opt/tools; /usr/bin/fio runs it from there.
stage_fio() {
  local tools="$stage/tools" f
  [ -x /usr/bin/fio ] || die "/usr/bin/fio is missing: run scripts/deps.sh (scripts/packages/image.txt)"
  # Merged /usr here too: ldd names a library /lib/... or /usr/lib/... depending on the order of the
  # build machine's ld.so.cache, and the wrapper below looks in usr/lib only.
  mkdir -p "$tools/usr/lib" "$tools/usr/lib64"
  ln -s usr/lib "$tools/lib"; ln -s usr/lib64 "$tools/lib64"
  copy_binary /usr/bin/fio "$tools"
  # Libraries the image already has stay out: one copy of libc, loaded from one place.
  (cd "$tools" && find . -type f) | while read -r f; do
    if [ -e "$root/${f#./}" ]; then rm "$tools/${f#./}"; fi
  done
  cat > "$root/usr/bin/fio" <<'WRAP'
#!/bin/sh
# fio lives on the tools squashfs that init mounts at /opt/tools (see image/build.sh, stage_fio).
lib=/opt/tools/usr/lib/x86_64-linux-gnu
[ -x /opt/tools/usr/bin/fio ] || { echo "fio: /opt/tools is not mounted (mount -o loop,ro /usr/lib/diskvet/tools.sqfs /opt/tools)" >&2; exit 2; }
LD_LIBRARY_PATH=$lib:$lib/ceph exec /opt/tools/usr/bin/fio "$@"
WRAP
  chmod 0755 "$root/usr/bin/fio"
}

# The tools squashfs: fio and its libraries (stage_fio), the network drivers (stage_modules).
pack_tools() {
  mkdir -p "$root/usr/lib/diskvet"
  mksquashfs "$stage/tools" "$root/usr/lib/diskvet/tools.sqfs" -comp zstd -Xcompression-level 19 -all-root -no-progress -quiet >/dev/null
}

# udevd with the distribution's rules, so libudev sees the same properties (ID_SERIAL, ID_WWN,
# ID_PATH, ID_FS_LABEL) as on an installed system.
stage_udev() {
  mkdir -p "$root/usr/lib/udev/rules.d" "$root/etc/udev"
  cp /lib/udev/rules.d/*.rules "$root/usr/lib/udev/rules.d/"
  # Rules for things the appliance does not have (systemd units, input, sound) only add noise.
  rm -f "$root"/usr/lib/udev/rules.d/{70-uaccess,71-seat,73-seat-late,99-systemd,90-vconsole,70-joystick,70-mouse,70-touchpad}.rules
  for h in ata_id scsi_id cdrom_id; do copy_binary "/lib/udev/$h"; done
  # hwdb.bin (12 MiB) only adds vendor names from PCI/USB ids; sysfs and identify data name disks.
  echo 'udev_log=err' > "$root/etc/udev/udev.conf"
}

# The storage modules and everything they depend on, from the kernel's own depmod data
# (modprobe --show-depends honours softdeps too); depmod then indexes just this subset. The network
# drivers of modules-net.txt (diskvet.serve=1) and what only they need are indexed the same way, then
# moved to the tools squashfs with a link left at their path, which init's modprobe follows once
# /opt/tools is mounted (before udevd loads any driver).
stage_modules() {
  local m path
  local moddir="/lib/modules/$kver"
  mkdir -p "$root$moddir"
  : > "$stage/net-modules"
  while read -r m; do
    while read -r path; do copy_file "$path"; done < <(modprobe -S "$kver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}')
    modprobe -S "$kver" --show-depends "$m" >/dev/null 2>&1 || echo "image/build.sh: note: module $m not in kernel $kver, skipped" >&2
  done < <(module_names "$here/modules.txt")
  while read -r m; do
    while read -r path; do
      [ -e "$root$path" ] && continue
      copy_file "$path"
      echo "$path" >> "$stage/net-modules"
    done < <(modprobe -S "$kver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}')
    modprobe -S "$kver" --show-depends "$m" >/dev/null 2>&1 || echo "image/build.sh: note: module $m not in kernel $kver, skipped" >&2
  done < <(module_names "$here/modules-net.txt")
  cp "$moddir"/modules.{order,builtin,builtin.modinfo} "$root$moddir/"
  depmod -b "$root" "$kver"
  while read -r path; do
    mkdir -p "$(dirname "$stage/tools$path")"
    mv "$root$path" "$stage/tools$path"
    ln -s "/opt/tools$path" "$root$path"
  done < "$stage/net-modules"
  module_names "$here/modules.txt" > "$root/etc/diskvet-modules"
}

module_names() { sed 's/#.*//' "$1" | tr -s ' \t' '\n' | grep -v '^$'; }

# The TUI needs terminfo for the console (linux), serial terminals (vt100) and ssh/xterm.
stage_terminfo() {
  local t f
  for t in l/linux v/vt100 v/vt102 v/vt220 x/xterm x/xterm-256color x/xterm-color d/dumb s/screen; do
    for f in /lib/terminfo/$t /usr/share/terminfo/$t; do [ -e "$f" ] && copy_file "$f"; done
  done
  [ -e "$root/lib/terminfo/l/linux" ] || die "terminfo for 'linux' not found: install ncurses-base"
}

stage_etc() {
  # sshd's privilege separation runs as "sshd". No password works for anyone: '*' in shadow.
  printf 'root:x:0:0:root:/root:/bin/sh\nsshd:x:100:65534::/run/sshd:/usr/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:*:19000:0:99999:7:::\nsshd:*:19000:0:99999:7:::\n' > "$root/etc/shadow"
  chmod 0600 "$root/etc/shadow"
  printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files\n' > "$root/etc/nsswitch.conf"
  # udev rules name these groups; without them udevd logs an error per rule.
  printf 'root:x:0:\ndisk:x:6:\ncdrom:x:24:\ntape:x:26:\ndialout:x:20:\nkmem:x:15:\ntty:x:5:\naudio:x:29:\nvideo:x:44:\ninput:x:105:\nkvm:x:106:\nrender:x:107:\nsgx:x:108:\nlp:x:7:\nfloppy:x:25:\nnogroup:x:65534:\n' > "$root/etc/group"
  echo diskvet > "$root/etc/hostname"
  ln -sf /proc/mounts "$root/etc/mtab"
  mkdir -p "$root/etc/diskvet"
  echo "$medium_id" > "$root/etc/diskvet/medium-id"
  cat > "$root/etc/diskvet/build-info" <<INFO
diskvet_version=$("$diskvet" --version | awk '{print $2}')
kernel=$kver
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
medium_id=$medium_id
INFO
  install -m 0755 "$here/init" "$root/init"
  install -D -m 0644 "$here/settings.sh" "$root/usr/lib/diskvet/settings.sh"
  install -m 0755 "$here/console.sh" "$root/usr/bin/diskvet-console"
}

# The marker that lets init recognise the medium it booted from (and protect it): a random id
# baked into this initramfs and written to the ISO; another build's stick is not "ours".
make_medium_id() {
  medium_id=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
}

pack_initrd() {
  # Sorted names and a fixed mtime keep the archive reproducible from the same inputs.
  (cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | zstd -q -T0 -10 > "$out/initrd.img.tmp"
  mv "$out/initrd.img.tmp" "$out/initrd.img"
  cp "/boot/vmlinuz-$kver" "$out/vmlinuz"
}

# One hybrid image: grub-mkrescue gives El Torito for BIOS and UEFI plus an MBR so the same file
# boots when written raw to a USB stick; xorriso appends a FAT partition labelled DISKVET that is
# writable on the stick and holds the reports and the optional diskvet.conf.
build_iso() {
  local iso="$stage/iso" fat="$stage/diskvet-data.img"
  mkdir -p "$iso/boot/grub" "$iso/diskvet"
  cp "$out/vmlinuz" "$out/initrd.img" "$iso/boot/"
  echo "$medium_id" > "$iso/diskvet/medium-id"
  cp "$here/grub.cfg" "$iso/boot/grub/grub.cfg"
  # 32 MiB of FAT16 (FAT32 needs more clusters): room for hundreds of reports; mformat writes it without a loop mount.
  truncate -s 32M "$fat"
  mformat -i "$fat" -v DISKVET -N "${medium_id:0:8}" ::
  mmd -i "$fat" ::/reports
  echo "$medium_id" > "$stage/medium-id"
  mcopy -i "$fat" "$stage/medium-id" ::/diskvet-medium-id
  mcopy -i "$fat" "$here/diskvet.conf.example" ::/diskvet.conf.example
  grub-mkrescue -o "$out/diskvet.iso.tmp" "$iso" -- -volid DISKVET_BOOT -append_partition 3 0x0c "$fat" >"$stage/mkrescue.log" 2>&1 \
    || { cat "$stage/mkrescue.log" >&2; die "grub-mkrescue failed (grub-pc-bin, grub-efi-amd64-bin, xorriso, mtools installed?)"; }
  mv "$out/diskvet.iso.tmp" "$out/diskvet.iso"
}

main() {
  parse_args "$@"
  make_medium_id
  make_skeleton
  stage_tools
  stage_ssh
  stage_fio
  stage_udev
  stage_busybox
  stage_modules
  pack_tools
  stage_terminfo
  stage_etc
  pack_initrd
  [ "$want_iso" -eq 0 ] || build_iso
  echo "image: kernel $kver in $out:"
  (cd "$out" && ls -l vmlinuz initrd.img $( [ "$want_iso" -eq 1 ] && echo diskvet.iso))
}

main "$@"
