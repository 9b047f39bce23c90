#!/usr/bin/env python3
"""Conformance with fio: the same jobs through `diskvet io` and fio on one loop device, compared by
what each DID, never by how fast: I/O counts and bytes per direction, the rate achieved under
rate_iops, the offsets' range and alignment, the read/write mix, sequential order and the split
across jobs.

How each tool's I/Os are seen: diskvet writes every I/O it issues with `--write_iolog` (fio's iolog v3
text, one section per job in job order). fio writes one latency log per job (`--write_lat_log
--log_offset=1 --log_avg_msec=0`: a line per completed I/O with its direction, length and offset);
fio's own write_iolog would do for the offsets, but its clones of one job append to one file, so the
split across jobs could not be read from it. fio runs the command line diskvet reports as its
equivalent (`fio_equivalent` in `diskvet io --json`), so the check also holds that line to what
diskvet did; each case asserts fio's documented semantics for the options too.

Usage: conformance_fio.py CASE   (randread | seqwrite_split | randrw_mix | rate_per_direction)
Needs root (a loop device), losetup and fio; exits 77 (skipped) without them.
"""
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
BS = 4096


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)
    print(f"  ok: {what}")


class Loop:
    """A loop device over a sparse file on /dev/shm, with direct I/O, detached on exit."""

    def __init__(self, tag, size_bytes):
        self.backing = f"/dev/shm/diskvet-conformance-{tag}-{os.getpid()}.img"
        self.size = size_bytes
        self.dev = None

    def __enter__(self):
        with open(self.backing, "wb") as f:
            f.truncate(self.size)
        r = subprocess.run(["losetup", "-f", "--show", "--direct-io=on", self.backing], capture_output=True, text=True)
        if r.returncode != 0:
            os.unlink(self.backing)
            skip(f"losetup failed: {r.stderr.strip()}")
        self.dev = r.stdout.strip()
        return self

    def __exit__(self, *exc):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev])
        os.unlink(self.backing)


def run(cmd, timeout=120):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise Failed(f"{shlex.join(cmd)} exited {r.returncode}: {r.stderr.strip()[-800:]}")
    return r.stdout


def parse_diskvet_iolog(path):
    """diskvet's iolog: a list per job of (direction, offset, length), in issue order."""
    jobs = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if line.startswith("fio version 3 iolog"):
                jobs.append([])
            elif len(parts) == 5 and parts[2] in ("read", "write"):
                jobs[-1].append((parts[2], int(parts[3]), int(parts[4])))
    return jobs


def parse_fio_lat_logs(prefix):
    """fio's per-job latency logs (PREFIX_lat.N.log): a list per job of (direction, offset, length), in
    completion order. Columns: time ms, latency ns, direction (0 read, 1 write), length, offset[, prio]."""
    files = sorted(glob.glob(f"{prefix}_lat.*.log"), key=lambda p: int(p.rsplit(".", 2)[1]))
    jobs = []
    for path in files:
        ios = []
        with open(path) as f:
            for line in f:
                c = [x.strip() for x in line.split(",")]
                ios.append(("read" if c[2] == "0" else "write", int(c[4]), int(c[3])))
        jobs.append(ios)
    return jobs


class Run:
    """What one tool did: its JSON's per-direction figures and each job's I/Os."""

    def __init__(self, tool, doc, jobs):
        self.tool = tool
        job = doc["jobs"][0]  # diskvet's document has one job; fio's is one group (group_reporting)
        self.total_ios = {d: job[d]["total_ios"] for d in ("read", "write")}
        self.io_bytes = {d: job[d]["io_bytes"] for d in ("read", "write")}
        self.iops = {d: job[d]["iops"] for d in ("read", "write")}
        self.jobs = jobs

    def all_ios(self):
        return [io for job in self.jobs for io in job]

    def count(self, direction, job=None):
        ios = self.all_ios() if job is None else self.jobs[job]
        return sum(1 for d, _, _ in ios if d == direction)


def run_both(dev, args, workdir):
    """Runs `diskvet io ARGS` on the device, then fio with diskvet's reported equivalent; returns both."""
    diskvet = os.environ.get("DISKVET_BIN", "diskvet")
    iolog = os.path.join(workdir, "diskvet.iolog")
    cmd = [diskvet, "io", "--filename", dev, *args, "--json", "--quiet", "--write_iolog", iolog, "--destroy-data", dev]
    doc = json.loads(run(cmd))
    dv = Run("diskvet", doc, parse_diskvet_iolog(iolog))
    fio_cmd = shlex.split(doc["fio_equivalent"])
    check(fio_cmd[0] == "fio", "diskvet reports a fio command line")
    prefix = os.path.join(workdir, "fio")
    # Global options go before the first job definition, so every job of the line logs its I/Os.
    fio_cmd[1:1] = [f"--write_lat_log={prefix}", "--log_offset=1", "--log_avg_msec=0"]
    print("  fio:", shlex.join(fio_cmd))
    fio = Run("fio", json.loads(run(fio_cmd)), parse_fio_lat_logs(prefix))
    return dv, fio


def check_common(r, region_bytes, numjobs):
    """Counts and bytes agree with the logs; every offset is aligned and inside the region."""
    check(len(r.jobs) == numjobs, f"{r.tool}: {numjobs} jobs logged (got {len(r.jobs)})")
    for d in ("read", "write"):
        check(r.io_bytes[d] == r.total_ios[d] * BS, f"{r.tool}: {d} bytes = I/Os x bs ({r.io_bytes[d]})")
        # The log holds what was issued (diskvet) or completed (fio); the report what completed in the
        # window: they differ by at most the I/Os in flight at its end.
        logged = r.count(d)
        check(abs(logged - r.total_ios[d]) <= 8 * numjobs, f"{r.tool}: {d} I/Os logged {logged} ~ reported {r.total_ios[d]}")
    ios = r.all_ios()
    check(all(off % BS == 0 and length == BS for _, off, length in ios), f"{r.tool}: every I/O is {BS} bytes at a {BS}-aligned offset")
    check(all(0 <= off and off + length <= region_bytes for _, off, length in ios), f"{r.tool}: every I/O inside the region")


def near(a, b, tol):
    return abs(a - b) <= tol * max(abs(a), abs(b), 1)


def case_randread(dev, workdir):
    # Pure reads: a per-job rate cap means the same in both tools (reads are the only direction).
    region, numjobs, rate, runtime = 64 << 20, 2, 500, 3
    dv, fio = run_both(dev, ["--rw", "randread", "--bs", "4k", "--iodepth", "4", "--numjobs", str(numjobs), "--rate_iops", str(rate),
                             "--runtime", str(runtime)], workdir)
    expected = numjobs * rate * runtime
    for r in (dv, fio):
        check_common(r, region, numjobs)
        check(r.total_ios["write"] == 0, f"{r.tool}: no writes")
        check(near(r.total_ios["read"], expected, 0.05), f"{r.tool}: {r.total_ios['read']} reads ~ numjobs x rate x runtime = {expected}")
        for j in range(numjobs):
            offs = [off for _, off, _ in r.jobs[j]]
            check(near(len(offs), expected / numjobs, 0.06), f"{r.tool}: job {j} did its half ({len(offs)})")
            # Random jobs share the whole region: each reaches both ends of it.
            check(min(offs) < region * 0.05 and max(offs) >= region * 0.95, f"{r.tool}: job {j} spans the region")
            seq = sum(1 for a, b in zip(offs, offs[1:]) if b == a + BS)
            check(seq < len(offs) * 0.02, f"{r.tool}: job {j} is random, not sequential ({seq} consecutive pairs)")
    check(near(dv.total_ios["read"], fio.total_ios["read"], 0.05), f"read counts agree: diskvet {dv.total_ios['read']}, fio {fio.total_ios['read']}")


def case_seqwrite_split(dev, workdir):
    # 1000 blocks over 3 jobs (1000 % 3 = 1): one pass must write every block exactly once, each job
    # its own consecutive share, in order. QD1 so fio's completion log is also its issue order.
    blocks, numjobs = 1000, 3
    region = blocks * BS
    dv, fio = run_both(dev, ["--rw", "write", "--bs", "4k", "--iodepth", "1", "--numjobs", str(numjobs), "--size", str(region),
                             "--io_size", str(region), "--runtime", "60"], workdir)
    shares = []
    for r in (dv, fio):
        check_common(r, region, numjobs)
        check(r.total_ios == {"read": 0, "write": blocks}, f"{r.tool}: one pass is {blocks} writes ({r.total_ios})")
        written = sorted(off // BS for _, off, _ in r.all_ios())
        check(written == list(range(blocks)), f"{r.tool}: every block written exactly once")
        ranges = []
        for j, job in enumerate(r.jobs):
            offs = [off // BS for _, off, _ in job]
            check(offs == list(range(offs[0], offs[0] + len(offs))), f"{r.tool}: job {j} writes its share in order")
            ranges.append((offs[0], len(offs)))
        shares.append(sorted(ranges))
        print(f"  {r.tool} shares (first block, blocks): {sorted(ranges)}")
    check(shares[0] == shares[1], "diskvet and fio split the region into the same shares")


def case_randrw_mix(dev, workdir):
    region, numjobs = 64 << 20, 2
    dv, fio = run_both(dev, ["--rw", "randrw", "--rwmixread", "70", "--bs", "4k", "--iodepth", "8", "--numjobs", str(numjobs),
                             "--runtime", "2"], workdir)
    for r in (dv, fio):
        check_common(r, region, numjobs)
        total = r.total_ios["read"] + r.total_ios["write"]
        check(total > 2000, f"{r.tool}: enough I/Os to judge the mix ({total})")
        share = r.total_ios["read"] / total
        check(abs(share - 0.70) < 0.03, f"{r.tool}: read share {share:.3f} ~ 0.70")
        for j in range(numjobs):
            n = len(r.jobs[j])
            js = r.count("read", j) / n
            check(abs(js - 0.70) < 0.04, f"{r.tool}: job {j} read share {js:.3f} ~ 0.70")
            for d in ("read", "write"):
                offs = [off for dd, off, _ in r.jobs[j] if dd == d]
                check(min(offs) < region * 0.1 and max(offs) >= region * 0.9, f"{r.tool}: job {j} {d}s span the region")


def case_rate_per_direction(dev, workdir):
    # fio: rate_iops=R,W caps reads at R and writes at W, per job.
    region, numjobs, r_iops, w_iops, runtime = 64 << 20, 2, 200, 100, 3
    dv, fio = run_both(dev, ["--rw", "randrw", "--rwmixread", "70", "--bs", "4k", "--iodepth", "4", "--numjobs", str(numjobs),
                             "--rate_iops", f"{r_iops},{w_iops}", "--runtime", str(runtime)], workdir)
    for r in (fio, dv):
        check_common(r, region, numjobs)
        for d, cap in (("read", r_iops), ("write", w_iops)):
            want = numjobs * cap
            check(near(r.iops[d], want, 0.06), f"{r.tool}: {d} rate {r.iops[d]:.0f}/s ~ numjobs x {cap} = {want}/s")
            for j in range(numjobs):
                n = r.count(d, j)
                check(near(n, cap * runtime, 0.08), f"{r.tool}: job {j} {d}s {n} ~ {cap} x {runtime} s")


CASES = {
    "randread": case_randread,
    "seqwrite_split": case_seqwrite_split,
    "randrw_mix": case_randrw_mix,
    "rate_per_direction": case_rate_per_direction,
}


def run_case(cases, tools, argv=None):
    """Runs the case named on the command line (a function of the loop device and a work directory)
    on a fresh loop device; skips (77) without root or `tools`. Shared by the conformance scripts."""
    argv = sys.argv if argv is None else argv
    if len(argv) != 2 or argv[1] not in cases:
        print(f"usage: {argv[0]} {'|'.join(cases)}", file=sys.stderr)
        return 2
    case = argv[1]
    if os.geteuid() != 0:
        skip("needs root for a loop device")
    for tool in ("losetup", *tools(case)):
        if not shutil.which(tool):
            skip(f"{tool} is not installed (scripts/packages/lab.txt)")
    workdir = tempfile.mkdtemp(prefix=f"diskvet-conformance-{case}-")
    try:
        with Loop(case, 64 << 20) as loop:
            print(f"{case} on {loop.dev}")
            cases[case](loop.dev, workdir)
    except (Failed, subprocess.CalledProcessError) as e:
        print(f"FAIL: {e}")
        print(f"  (outputs kept in {workdir})")
        return 1
    shutil.rmtree(workdir)
    print(f"PASS: {case}")
    return 0


def main():
    return run_case(CASES, lambda case: ("fio",))


if __name__ == "__main__":
    sys.exit(main())
