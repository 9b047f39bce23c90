#!/usr/bin/python3
"""The stall lab's file system (DESIGN.md "Test lab"): a FUSE passthrough of one directory whose
reads and writes wait while CONTROL/hold exists, sleep CONTROL/delay_ms milliseconds each, and fail
with EIO while CONTROL/fail exists; while CONTROL/corrupt holds "OFFSET LENGTH" (bytes of the file),
reads return those bytes inverted (the file keeps what was written: a device that returns bad data).
A loop device (buffered, not --direct-io) over a file in it is a block device that stalls or slows
on command, on a kernel without device-mapper or null_blk.

    /usr/bin/python3 stall_fs.py ROOT CONTROL MOUNTPOINT     (foreground; unmount to end it)
"""
import errno
import os
import sys
import time

from fusepy import FUSE, FuseOSError, Operations


class StallFs(Operations):
    def __init__(self, root, control):
        self.root = root
        self.hold = os.path.join(control, "hold")
        self.delay = os.path.join(control, "delay_ms")
        self.fail = os.path.join(control, "fail")
        self.corrupt = os.path.join(control, "corrupt")

    def _full(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def _wait(self):
        while os.path.exists(self.hold):
            time.sleep(0.01)
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
        return {k: getattr(st, k) for k in keys}

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

    def read(self, path, size, offset, fh):
        self._wait()
        return self._corrupted(os.pread(fh, size, offset), offset)

    def write(self, path, data, offset, fh):
        self._wait()
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
    # direct_io: every read and write reaches this process (no page cache in front of the hold).
    FUSE(StallFs(root, control), mountpoint, foreground=True, nothreads=False, direct_io=True)
