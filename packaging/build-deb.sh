#!/usr/bin/env bash
# Builds the Debian package: a Release build (tests off) in BUILD_DIR, then CPack's DEB generator.
#   packaging/build-deb.sh [BUILD_DIR]      -> BUILD_DIR/diskvet_VERSION_ARCH.deb (path printed last)
# Install it with: apt install ./diskvet_*.deb  (apt pulls the runtime libraries it depends on).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build-deb}
"$top/scripts/build.sh" "$dir" -DDISKVET_TESTS=OFF
rm -f "$dir"/diskvet_*.deb
(cd "$dir" && cpack -G DEB >/dev/null)
deb=$(ls "$dir"/diskvet_*.deb)
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Depends\|Recommends\): /  \1: /p' >&2
echo "$deb"
