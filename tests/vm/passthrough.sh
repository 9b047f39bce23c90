#!/usr/bin/env bash
# NVMe passthrough (diskvet io --engine io_uring_cmd, issue 29) on QEMU's emulated NVMe, whose
# namespaces the guest's kernel also exposes as /dev/ngXnY (tests/vm/passthrough_guest.sh in the
# guest's shell): 8 MiB written through the generic node named directly (gated as its block device,
# consent by serial) read back through the block device equal to the same write through the block
# path; random reads through passthrough; every I/O counted, none failed; the fio line and job
# options spell fio's io_uring_cmd. Refused with exit 2 and nothing written: consent naming another
# drive, consent naming the char device, and no generic node under /dev.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
vm_require
vm_scratch
da=$(vm_drive a 64M); db=$(vm_drive b 64M)
data=$(vm_data_disk)
mcopy -i "$data" "$vm_here/passthrough_guest.sh" ::/
vm_start_shell 150 "" -drive "file=$data,if=virtio,format=raw" \
  -drive "file=$da,if=none,id=da,format=raw" -device nvme,serial=DVPT0A,drive=da \
  -drive "file=$db,if=none,id=db,format=raw" -device nvme,serial=DVPT0B,drive=db
printf '%s\r' 'sh /media/diskvet/passthrough_guest.sh' >&3
vm_wait_for 240 '^PASSTHRU( done|: no drive)'
printf '%s\r' 'poweroff -f' >&3
exec 3>&-
vm_wait_poweroff 270
/usr/bin/python3 - "$vm_log" <<'PY' || vm_fail "passthrough checks failed (above)"
import json, re, sys

log = open(sys.argv[1], encoding="utf-8", errors="replace").read().replace("\r", "")
failed = []

def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed.append(what)

def step(name):
    m = re.search(r"^=== PT %s BEGIN ===\n(.*?)\n=== PT %s END rc=(\d+) ===\n(.*?)(?=^===|^PASSTHRU)" % (name, name), log, re.S | re.M)
    if not m:
        check(False, f"step {name} printed its output")
        return None, None, ""
    return int(m.group(2)), m.group(1).strip(), m.group(3)

def job(out):
    start = out.find("{")
    return json.loads(out[start:])["jobs"][0] if start >= 0 else None

def sums():
    return dict(re.findall(r"^PASSTHRU sum (\S+) ([0-9a-f]{32})$", log, re.M))

ng = re.search(r"^PASSTHRU drives: (\S+) \((/dev/ng\d+n\d+)\)", log, re.M)
check(ng is not None, "the guest found DVPT0A and named its generic node")
ng = ng.group(2) if ng else "?"

rc, out, _ = step("block-write")
check(rc == 0 and job(out)["write"]["total_ios"] == 128, "the block path wrote 128 blocks of 64 KiB")
rc, out, err = step("cmd-write")
j = job(out) if rc == 0 else None
check(rc == 0, f"io_uring_cmd write through {ng} exited 0 ({err.strip()[:300]})")
if j:
    o = j["job options"]
    check(o["ioengine"] == "io_uring_cmd" and o["cmd_type"] == "nvme" and o["filename"] == ng,
          f"job options say ioengine=io_uring_cmd cmd_type=nvme filename={ng}: {o.get('ioengine')} {o.get('cmd_type')} {o.get('filename')}")
    check(j["write"]["total_ios"] == 128 and j["write"]["io_bytes"] == 8 << 20 and j["error"] == 0,
          f"128 writes of 64 KiB counted, no error: {j['write']['total_ios']} {j['write']['io_bytes']} {j['error']}")
    fio = json.loads(out[out.find("{"):])["fio_equivalent"]
    check(f"--filename={ng} " in fio and "--ioengine=io_uring_cmd" in fio and "--cmd_type=nvme" in fio and "--direct" not in fio,
          f"the fio line (no direct=1: fio cannot open a char device O_DIRECT): {fio}")
s = sums()
check(len(s) == 4, f"four checksums printed: {s}")
check(s.get("block-write") is not None and s.get("block-write") != s.get("zeroed"), "the region was zeroed between the two writes")
check(s.get("cmd-write") == s.get("block-write"), "passthrough wrote exactly what the block path wrote (read back through the block device)")
rc, out, err = step("cmd-read")
j = job(out) if rc == 0 else None
check(j is not None and j["read"]["total_ios"] == 512 and j["read"]["io_bytes"] == 2 << 20 and j["error"] == 0,
      f"512 random reads of 4 KiB through passthrough, no error (rc {rc}: {err.strip()[:300]})")
for name, why in (("other-consent", "DVPT0B"), ("ng-consent", ng)):
    rc, out, err = step(name)
    check(rc == 2, f"a write with --destroy-data {why} is refused with exit 2 (rc {rc}: {err.strip()[:300]})")
check(s.get("refused") == s.get("cmd-write"), "the refused writes wrote nothing")
rc, out, err = step("no-node")
check(rc == 2 and ng in err and "does not exist" in err, f"no generic node under /dev: refused with exit 2 naming it (rc {rc}: {err.strip()[:300]})")
sys.exit(1 if failed else 0)
PY
vm_pass "io_uring_cmd writes what the block path writes, reads and counts every I/O, and is refused without consent or a generic node"
