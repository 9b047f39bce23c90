#!/usr/bin/env bash
# Fixture of the vm tests: builds vmlinuz, initrd.img and diskvet.iso into VM_IMAGE_DIR, or skips when the kernel or tools are missing.
set -euo pipefail
: "${VM_IMAGE_DIR:?}" "${DISKVET_BIN:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
ls /boot/vmlinuz-* >/dev/null 2>&1 || { echo "SKIP: no /boot/vmlinuz-* (scripts/deps.sh installs linux-image-amd64)"; exit 77; }
for tool in busybox cpio zstd mksquashfs depmod grub-mkrescue xorriso mformat; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (scripts/deps.sh, scripts/packages/image.txt)"; exit 77; }
done
rm -rf "$VM_IMAGE_DIR"
"$top/image/build.sh" --out "$VM_IMAGE_DIR" --diskvet "$DISKVET_BIN"
