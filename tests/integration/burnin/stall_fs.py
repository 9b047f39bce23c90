#!/usr/bin/python3
"""The stall lab's file system (DESIGN.md "Test lab"): a FUSE passthrough of one directory whose
reads and writes wait while CONTROL/hold exists, sleep CONTROL/delay_ms milliseconds each, and fail
with EIO while CONTROL/fail exists; while CONTROL/corrupt holds "OFFSET LENGTH" (bytes of the file),
reads return those bytes inverted (the file keeps what was written: a device that returns bad data).
A loop device (buffered, not --direct-io) over a file in it is a block device that stalls or slows
on command, on a kernel without device-mapper or null_blk.

Fake capacity (the address-integrity probe's lab): when CONTROL/capacity holds "MODE PRESENTED" at
start, every file presents PRESENTED bytes but stores only its real size M, as a counterfeit drive:
    wrap    byte X is stored at X modulo M (the drive drops high address bits)
    drop    writes past M vanish; reads there return zeros
    stale   writes past M vanish; reads there return what the drive held before (a fixed pattern
            per 512-byte sector, never zeros, the same before and after any write)

Faults on what the device sees, not on anyone's clock: a line written to CONTROL/trigger arms one
fault counted in requests from the first request after it is read (the file is then removed):
    hold N [SECONDS]    from the Nth request on, every request waits: until CONTROL/hold is removed,
                        or for SECONDS of this daemon's own clock when given
    delay N COUNT MS [AFTER_S]
                        the COUNT requests from the Nth on each wait MS milliseconds first; with
                        AFTER_S, not before AFTER_S seconds of this daemon's clock since the trigger
                        was read (a baseline at full speed of some length whatever the machine's speed)
    fail N COUNT        the COUNT requests from the Nth on fail with EIO
What the device did is recorded, one line each, in CONTROL/events, with this process's
CLOCK_MONOTONIC time (the clock diskvet stamps I/Os with) and its request count:
    armed|hold-start|hold-end|delay-start|delay-end|fail-start|fail-end mono=T request=N offset=BYTES
and "count" at every 1000th request (the rate the device served, by its own clock), so a test judges
a stall or a slowdown against the device's own record, never against its clock.

    /usr/bin/python3 stall_fs.py ROOT CONTROL MOUNTPOINT     (foreground; unmount to end it)
"""
import errno
import os
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class StallFs(Operations):
    def __init__(self, root, control):
        self.root = root
        self.hold = os.path.join(control, "hold")
        self.delay = os.path.join(control, "delay_ms")
        self.fail = os.path.join(control, "fail")
        self.corrupt = os.path.join(control, "corrupt")
        self.trigger = os.path.join(control, "trigger")
        self.events = os.path.join(control, "events")
        self.fake = None  # (mode, presented bytes): see "Fake capacity"
        try:
            with open(os.path.join(control, "capacity")) as f:
                mode, presented = f.read().split()[:2]
            self.fake = (mode, int(presented))
        except (OSError, ValueError):
            pass
        self.mutex = threading.Lock()
        self.requests = 0
        self.plan = None  # the armed fault: kind, first request, count, ms / seconds
        self.holding = False
        self.hold_until = None

    def _full(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def _record(self, what, n, offset):  # with self.mutex held
        with open(self.events, "a") as f:
            f.write(f"{what} mono={time.monotonic():.6f} request={n} offset={offset}\n")

    def _arm(self, n, offset):  # with self.mutex held: reads CONTROL/trigger once
        try:
            with open(self.trigger) as f:
                words = f.read().split()
            os.remove(self.trigger)
        except OSError:
            return
        kind, args = words[0], [float(w) for w in words[1:]]
        first = n + max(int(args[0]), 1) - 1
        if kind == "hold":
            self.plan = {"kind": kind, "first": first, "seconds": args[1] if len(args) > 1 else None}
        elif kind in ("delay", "fail"):
            self.plan = {"kind": kind, "first": first, "count": int(args[1]), "ms": args[2] if len(args) > 2 else 0,
                         "not_before": time.monotonic() + (args[3] if len(args) > 3 else 0)}
        self._record("armed", n, offset)

    def _wait(self, offset):
        delay_s, fail = 0.0, False
        with self.mutex:
            self.requests += 1
            n = self.requests
            if n % 1000 == 0:
                self._record("count", n, offset)
            if self.plan is None and os.path.exists(self.trigger):
                self._arm(n, offset)
            p = self.plan
            if p and p["kind"] != "hold" and "last" not in p and n >= p["first"] and time.monotonic() >= p["not_before"]:
                p["first"], p["last"] = n, n + p["count"] - 1
            if p and n >= p["first"] and (p["kind"] == "hold" or "last" in p):
                if p["kind"] == "hold":
                    self.plan = None
                    self.hold_until = time.monotonic() + p["seconds"] if p["seconds"] is not None else None
                    with open(self.hold, "w") as f:
                        f.write("held by the device at request %d\n" % n)
                elif n <= p["last"]:
                    if n == p["first"]:
                        self._record(p["kind"] + "-start", n, offset)
                    if p["kind"] == "delay":
                        delay_s = p["ms"] / 1000
                    else:
                        fail = True
                    if n == p["last"]:
                        self.plan = None
                        p["ended"] = True
            if os.path.exists(self.hold) and not self.holding:
                self.holding = True
                self._record("hold-start", n, offset)
        while os.path.exists(self.hold):
            if self.hold_until is not None and time.monotonic() >= self.hold_until:
                with self.mutex:
                    if self.hold_until is not None:
                        self.hold_until = None
                        try:
                            os.remove(self.hold)
                        except OSError:
                            pass
                break
            time.sleep(0.01)
        with self.mutex:
            if self.holding:
                self.holding = False
                self.hold_until = None
                self._record("hold-end", n, offset)
        if delay_s > 0:
            time.sleep(delay_s)
            if p and p.get("ended") and n == p["last"]:
                with self.mutex:
                    self._record("delay-end", n, offset)
        if fail:
            if n == p["last"]:
                with self.mutex:
                    self._record("fail-end", n, offset)
            raise FuseOSError(errno.EIO)
        try:
            with open(self.delay) as f:
                ms = float(f.read().strip() or 0)
        except (OSError, ValueError):
            ms = 0
        if ms > 0:
            time.sleep(ms / 1000)
        if os.path.exists(self.fail):
            raise FuseOSError(errno.EIO)

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._full(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        keys = ("st_mode", "st_size", "st_uid", "st_gid", "st_nlink", "st_atime", "st_mtime", "st_ctime")
        attrs = {k: getattr(st, k) for k in keys}
        if self.fake and path != "/":
            attrs["st_size"] = self.fake[1]
        return attrs

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._full(path))

    def open(self, path, flags):
        return os.open(self._full(path), flags & ~os.O_CREAT)

    def _corrupted(self, data, offset):
        try:
            with open(self.corrupt) as f:
                at, length = (int(x) for x in f.read().split()[:2])
        except (OSError, ValueError):
            return data
        lo, hi = max(at, offset), min(at + length, offset + len(data))
        if lo >= hi:
            return data
        out = bytearray(data)
        for i in range(lo - offset, hi - offset):
            out[i] ^= 0xFF
        return bytes(out)

    def _pieces(self, fh, offset, length):
        """The request as (offset in the request, stored offset or None, length) pieces: None is past
        the real size of a drop or stale file."""
        real = os.fstat(fh).st_size
        out, at = [], 0
        while at < length:
            pos = offset + at
            if self.fake[0] == "wrap":
                stored = pos % real
                n = min(length - at, real - stored)
            elif pos < real:
                stored, n = pos, min(length - at, real - pos)
            else:
                stored, n = None, length - at
            out.append((at, stored, n))
            at += n
        return out

    @staticmethod
    def _old_data(pos, n):  # what a stale drive returns: per sector, one byte value, never zero
        out = bytearray()
        while len(out) < n:
            sector = (pos + len(out)) // 512
            take = min(n - len(out), 512 - (pos + len(out)) % 512)
            out += bytes([(sector * 37) % 255 + 1]) * take
        return bytes(out)

    def read(self, path, size, offset, fh):
        self._wait(offset)
        if self.fake:
            size = max(0, min(size, self.fake[1] - offset))
            data = bytearray()
            for at, stored, n in self._pieces(fh, offset, size):
                if stored is not None:
                    data += os.pread(fh, n, stored)
                else:
                    data += bytes(n) if self.fake[0] == "drop" else self._old_data(offset + at, n)
            return self._corrupted(bytes(data), offset)
        return self._corrupted(os.pread(fh, size, offset), offset)

    def write(self, path, data, offset, fh):
        self._wait(offset)
        if self.fake:
            for at, stored, n in self._pieces(fh, offset, len(data)):
                if stored is not None:
                    os.pwrite(fh, data[at:at + n], stored)
            return len(data)
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        os.truncate(self._full(path), length)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        os.fsync(fh)
        return 0

    def release(self, path, fh):
        os.close(fh)
        return 0


if __name__ == "__main__":
    root, control, mountpoint = sys.argv[1:4]
    # This process is the lab's device: a CPU kept busy by other tests must not starve it (a starved
    # daemon is a slowdown the test did not make), so it runs ahead of them where it may (root).
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -10)
    except OSError:
        pass
    # direct_io: every read and write reaches this process (no page cache in front of the hold).
    FUSE(StallFs(root, control), mountpoint, foreground=True, nothreads=False, direct_io=True)
