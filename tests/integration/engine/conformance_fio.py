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

Beyond one workload (issue 25): `fio-dedupe` finds no 4K block repeated across two runs of one
workload, nor across two workloads of one suite run (every run, workload, round and pass has a seed of
its own); the printed line, run verbatim, keeps its ramp and its runtime beside an io limit and moves
the same bytes (io_size per job definition); and a random workload, like fio's with its random map,
touches every block once per pass.

Usage: conformance_fio.py CASE   (randread | seqwrite_split | randrw_mix | rate_per_direction |
                                  dedupe_runs | dedupe_suite | ramp_and_runtime | random_passes | io_size_shares)
Needs root (a loop device), losetup and fio; exits 77 (skipped) without them.
"""
import glob
import json
import os
import re
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


def diskvet_bin():
    return os.environ.get("DISKVET_BIN", "diskvet")


def run_diskvet(dev, args, workdir):
    """`diskvet io ARGS` on the device: its JSON document and each job's I/Os (its iolog)."""
    iolog = os.path.join(workdir, "diskvet.iolog")
    cmd = [diskvet_bin(), "io", "--filename", dev, *args, "--json", "--quiet", "--write_iolog", iolog, "--destroy-data", dev]
    doc = json.loads(run(cmd))
    return doc, Run("diskvet", doc, parse_diskvet_iolog(iolog))


def run_both(dev, args, workdir):
    """Runs `diskvet io ARGS` on the device, then fio with diskvet's reported equivalent, verbatim but
    for its logs; returns both."""
    doc, dv = run_diskvet(dev, args, workdir)
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
        # A cap is never passed; a busy machine can keep a tool under it (2806 of 3000 under a load of
        # 7), never near half of it, which is what a cap applied to all jobs together would give.
        reads = r.total_ios["read"]
        check(0.75 * expected <= reads <= 1.05 * expected, f"{r.tool}: {reads} reads, at most numjobs x rate x runtime = {expected} and near it")
        for j in range(numjobs):
            offs = [off for _, off, _ in r.jobs[j]]
            check(near(len(offs), reads / numjobs, 0.06), f"{r.tool}: job {j} did its half ({len(offs)} of {reads})")
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


def image(dev, path, size_bytes):
    """The device's first size_bytes (whole MiBs), read past any cache (O_DIRECT)."""
    run(["dd", f"if={dev}", f"of={path}", "bs=1M", f"count={size_bytes >> 20}", "iflag=direct", "status=none"])
    return path


def unique_blocks(path):
    """fio-dedupe's count of 4K blocks and of distinct ones in a file (-B 0: exact hashes; its default
    bloom filter calls about 0.4% of random blocks duplicates)."""
    out = run(["fio-dedupe", "-b", str(BS), "-B", "0", path])
    m = re.search(r"Extents=(\d+), Unique extents=(\d+)", out)
    if not m:
        raise Failed(f"fio-dedupe said: {out.strip()[-400:]}")
    return int(m.group(1)), int(m.group(2))


def check_no_repeats(path, what):
    extents, unique = unique_blocks(path)
    check(extents > 0 and unique == extents, f"fio-dedupe: {unique} unique 4K blocks of {extents} {what}")


def case_dedupe_runs(dev, workdir):
    # Two runs of the same write workload, each a full pass of 16 MiB: with a seed per run their
    # data differs; asked for with --randseed, the second run repeats the first byte for byte.
    region = 16 << 20
    args = ["--rw", "write", "--bs", "4k", "--iodepth", "8", "--size", str(region), "--io_size", str(region), "--runtime", "60s"]
    docs, images = [], []
    for k in range(2):
        doc, _ = run_diskvet(dev, args, workdir)
        docs.append(doc)
        images.append(image(dev, os.path.join(workdir, f"run{k}.img"), region))
    both = os.path.join(workdir, "both.img")
    with open(both, "wb") as out:
        for path in images:
            with open(path, "rb") as f:
                shutil.copyfileobj(f, out)
    check_no_repeats(both, "across two runs")
    seeds = [doc.get("randseed") for doc in docs]
    check(seeds[0] is not None and seeds[0] != seeds[1], f"each run has a seed of its own ({seeds})")
    check(f"--randseed={seeds[0]}" in docs[0]["fio_equivalent"], "the fio line carries the run's seed")
    doc, _ = run_diskvet(dev, args + ["--randseed", str(docs[1]["randseed"])], workdir)
    again = image(dev, os.path.join(workdir, "again.img"), region)
    check(doc["randseed"] == docs[1]["randseed"], "--randseed is the run's seed")
    with open(again, "rb") as a, open(images[1], "rb") as b:
        check(a.read() == b.read(), "--randseed repeats a run's data byte for byte")


SUITE_TWO_WRITES = {
    "name": "two-writes",
    "description": "a full sequential pass, then random writes over half the blocks: after both, every block holds one of them",
    "probe": {"enabled": False},
    "precondition": {"enabled": False},
    "warmup": {"enabled": False},
    "steady_state": {"enabled": False},
    "defaults": {"runtime": "60s", "engine": "io_uring", "bs": "4k", "iodepth": 8, "numjobs": 1},
    "tests": [
        {"id": "fill", "passes": 1, "workloads": [{"rw": "write"}]},
        {"id": "half", "passes": 0.5, "workloads": [{"rw": "randwrite"}]},
    ],
}


def case_dedupe_suite(dev, workdir):
    # The second workload writes half the blocks again; its k-th write must not carry the first
    # workload's k-th write (a fixed seed per workload made them equal), nor any other.
    suite = os.path.join(workdir, "two-writes.json")
    with open(suite, "w") as f:
        json.dump(SUITE_TWO_WRITES, f)
    report = os.path.join(workdir, "report.json")
    r = subprocess.run([diskvet_bin(), "run", "--suite", suite, "--device", dev, "--destroy-data", dev, "--profile", "none",
                        "--out", report, "--quiet"], capture_output=True, text=True, timeout=300)
    check(r.returncode == 0, f"diskvet run exited {r.returncode} {r.stderr.strip()[-400:]}")
    with open(report) as f:
        doc = json.load(f)
    tested = doc["devices"][0]["tested_bytes"]
    path = image(dev, os.path.join(workdir, "suite.img"), tested)
    check_no_repeats(path, "after two workloads of one suite")
    lines = [w["fio"] for d in doc["devices"] for t in d["tests"] for w in t["workloads"]]
    seeds = {m.group(1) for m in (re.search(r"--randseed=(\d+)", line) for line in lines) if m}
    check(len(seeds) == len(lines) == 2, f"each workload's fio line has a seed of its own ({seeds})")
    check(isinstance(doc.get("randseed"), int), f"the report states the run's seed ({doc.get('randseed')})")


def fio_issued(prefix):
    """fio's iolog (write_iolog: every I/O issued, ramp included): (direction, offset) in issue order."""
    ios = []
    with open(prefix) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5 and parts[2] in ("read", "write"):  # version 3: time, file, direction, offset, length
                ios.append((parts[2], int(parts[3])))
    return ios


def run_verbatim(line, workdir, tag):
    """The printed fio line run as printed, plus an iolog of what it issued: its JSON job and its I/Os."""
    fio_cmd = shlex.split(line)
    iolog = os.path.join(workdir, f"fio-{tag}.iolog")
    fio_cmd[1:1] = [f"--write_iolog={iolog}"]
    print("  fio:", shlex.join(fio_cmd))
    job = json.loads(run(fio_cmd))["jobs"][0]
    return job, fio_issued(iolog)


def case_ramp_and_runtime(dev, workdir):
    # A ramp of half a second at a capped rate: 500 I/Os issued before the window in both tools (a
    # bare --ramp_time=0.5 is no ramp to fio); and a runtime beside an io limit that would take 30 s:
    # both tools stop at the runtime.
    rate = 1000
    doc, dv = run_diskvet(dev, ["--rw", "randread", "--bs", "4k", "--iodepth", "2", "--rate_iops", str(rate), "--runtime", "1500ms",
                                "--ramp_time", "500ms", "--io_size", "128m"], workdir)
    line = doc["fio_equivalent"]
    check("--ramp_time=500ms" in line and "--runtime=1500ms" in line, "the line states durations in fio's units")
    job, issued = run_verbatim(line, workdir, "ramp")
    for tool, measured, logged in (("diskvet", dv.total_ios["read"], len(dv.all_ios())), ("fio", job["read"]["total_ios"], len(issued))):
        check(near(measured, rate * 1.5, 0.06), f"{tool}: {measured} reads in the 1.5 s window ~ {int(rate * 1.5)} (the runtime ends it)")
        check(near(logged - measured, rate * 0.5, 0.25), f"{tool}: {logged - measured} reads in the ramp ~ {int(rate * 0.5)}")
    check(near(dv.total_ios["read"], job["read"]["total_ios"], 0.06), "diskvet and fio measured the same I/O count")


def passes_of(offsets, blocks):
    return [sorted(offsets[i:i + blocks]) for i in range(0, len(offsets) - blocks + 1, blocks)]


def case_random_passes(dev, workdir):
    # Three passes of random writes over 2048 blocks: fio's random map touches every block once per
    # pass, and so must diskvet (2048 independent draws touch about 1,295).
    blocks = 2048
    region = blocks * BS
    doc, dv = run_diskvet(dev, ["--rw", "randwrite", "--bs", "4k", "--iodepth", "4", "--size", str(region), "--io_size", str(3 * region),
                                "--runtime", "60s"], workdir)
    job, issued = run_verbatim(doc["fio_equivalent"], workdir, "passes")
    every = [off * BS for off in range(blocks)]
    for tool, offs, total in (("diskvet", [o for _, o, _ in dv.all_ios()], dv.total_ios["write"]),
                              ("fio", [o for _, o in issued], job["write"]["total_ios"])):
        check(total == 3 * blocks, f"{tool}: {total} writes = 3 passes of {blocks}")
        for k, p in enumerate(passes_of(offs, blocks)):
            check(p == every, f"{tool}: pass {k} touches every block exactly once")
    doc, dv = run_diskvet(dev, ["--rw", "randwrite", "--bs", "4k", "--iodepth", "4", "--size", str(region), "--io_size", str(region),
                                "--runtime", "60s", "--norandommap"], workdir)
    check("--norandommap" in doc["fio_equivalent"], "--norandommap is in the line")
    touched = len({o for _, o, _ in dv.all_ios()})
    check(touched < blocks * 0.75, f"--norandommap: a pass's worth of draws touches {touched} of {blocks} blocks")


def case_io_size_shares(dev, workdir):
    # The case: a 3-job sequential read of 30m over 64m (shares of 5462, 5461, 5461 blocks):
    # fio, running the line, moves exactly diskvet's bytes, each job its share's part in order.
    want = 30 << 20
    dv, fio = run_both(dev, ["--rw", "read", "--bs", "4k", "--iodepth", "4", "--numjobs", "3", "--io_size", str(want), "--runtime", "60s"],
                       workdir)
    for r in (dv, fio):
        check(r.io_bytes["read"] == want, f"{r.tool} read {r.io_bytes['read']} bytes = {want}")
    dv_offs = sorted(o for _, o, _ in dv.all_ios())
    fio_offs = sorted(o for _, o, _ in fio.all_ios())
    check(fio_offs == dv_offs, "fio read the very blocks diskvet read")


CASES = {
    "randread": case_randread,
    "seqwrite_split": case_seqwrite_split,
    "randrw_mix": case_randrw_mix,
    "rate_per_direction": case_rate_per_direction,
    "dedupe_runs": case_dedupe_runs,
    "dedupe_suite": case_dedupe_suite,
    "ramp_and_runtime": case_ramp_and_runtime,
    "random_passes": case_random_passes,
    "io_size_shares": case_io_size_shares,
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
        # The evidence stays, in the working directory (ctest's: the build tree), never in /tmp.
        kept = shutil.move(workdir, os.path.join(os.getcwd(), os.path.basename(workdir)))
        print(f"FAIL: {e}")
        print(f"  (outputs kept in {kept})")
        return 1
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    shutil.rmtree(workdir)
    print(f"PASS: {case}")
    return 0


def main():
    return run_case(CASES, lambda case: ("fio", "fio-dedupe", "dd"))


if __name__ == "__main__":
    sys.exit(main())
