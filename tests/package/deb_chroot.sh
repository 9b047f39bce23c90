#!/usr/bin/env bash
# The Debian package on a clean Debian 12: CPack packages the built binary (packaging/CMakeLists.txt),
# mmdebstrap makes a minimal bookworm chroot (the 'apt' variant: nothing of diskvet's libraries in it),
# `apt install ./diskvet_*.deb` there must pull every runtime library, and the installed diskvet runs
# the quick suite on a test file of its own. Also checks the man page, the completion and the
# shipped suites are where the package says.
#   deb_chroot.sh BUILD_DIR       exit 77 (skipped) without root, mmdebstrap or a reachable mirror
set -euo pipefail
build=$(cd "$1" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (mmdebstrap --mode=root, chroot)"
command -v mmdebstrap >/dev/null || skip "needs mmdebstrap (package mmdebstrap; scripts/deps.sh installs it)"
command -v cpack >/dev/null || skip "needs cpack (package cmake)"

work=$(mktemp -d "$build/deb-chroot-XXXXXX")
cleanup() {
  # mmdebstrap unmounts what it mounted; make sure nothing is left mounted below the chroot before removing it.
  if [ -d "$work/root" ]; then
    for m in $(awk -v r="$work/root" 'index($2, r) == 1 {print $2}' /proc/self/mounts | sort -r); do umount -l "$m" || true; done
  fi
  # --one-file-system: whatever could not be unmounted is never descended into.
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/diskvet_*.deb)
echo "package: $(basename "$deb")"
dpkg-deb --field "$deb" Depends

# The chroot is built from the Debian mirror apt uses; without network that is not possible here.
if ! timeout 600 mmdebstrap --variant=apt --mode=root bookworm "$work/root" >"$work/mmdebstrap.log" 2>&1; then
  tail -5 "$work/mmdebstrap.log"
  if grep -qiE "could not resolve|failed to fetch|temporary failure|unable to connect|network is unreachable" "$work/mmdebstrap.log"; then
    skip "mmdebstrap could not reach a Debian mirror (the chroot is built from the network, not from the local apt cache)"
  fi
  echo "FAIL: mmdebstrap"
  exit 1
fi
root="$work/root"
# Nothing of diskvet's runtime is in the clean chroot before the install (the test would prove nothing).
if chroot "$root" dpkg-query -W -f='${Status}\n' liburing2 2>/dev/null | grep -q 'install ok installed'; then
  echo "FAIL: the clean chroot already has liburing2"; exit 1
fi
cp "$deb" "$root/tmp/"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
if ! chroot "$root" sh -c 'cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt install -y -qq ./diskvet_*.deb' >"$work/install.log" 2>&1; then
  tail -20 "$work/install.log"; echo "FAIL: apt install ./diskvet_*.deb in the clean chroot"; exit 1
fi
for f in /usr/bin/diskvet /usr/share/man/man1/diskvet.1.gz /usr/share/bash-completion/completions/diskvet \
         /usr/share/diskvet/suites/quick.json /usr/share/diskvet/suites/profiles/sanity.json; do
  [ -e "$root$f" ] || { echo "FAIL: the package did not install $f"; exit 1; }
done
chroot "$root" bash -n /usr/share/bash-completion/completions/diskvet || { echo "FAIL: the completion script does not parse"; exit 1; }
chroot "$root" diskvet --version
mkdir -p "$root/var/tmp/diskvet-quick"
set +e
chroot "$root" diskvet run -q --suite quick --directory /var/tmp/diskvet-quick --size 128m --profile sanity --duration 1s \
  --out /var/tmp/report.json >"$work/run.log" 2>&1
rc=$?
set -e
cat "$work/run.log"
[ "$rc" -eq 0 ] || { echo "FAIL: diskvet run --suite quick in the chroot exited $rc"; exit 1; }
grep -qE '"fstype":"[a-z]' "$root/var/tmp/report.json" || { echo "FAIL: the report names no file system"; exit 1; }
[ -z "$(ls -A "$root/var/tmp/diskvet-quick")" ] || { echo "FAIL: the test file was left behind"; exit 1; }
umount "$root/sys" "$root/proc"
echo "PASS: installed with apt in a clean bookworm chroot; the quick suite passed there"
