#!/usr/bin/env python3
"""diskvet against fio on the same target, alternating in one run; prints medians and ratios.

Usage: vs_fio.py [--target DEV_OR_FILE] [--rounds N] [--runtime S] [--only NAME,...]
Without --target, a 1 GiB loop device on /dev/shm is made (root) and removed afterwards.
The "cmd-" cases are NVMe passthrough (both tools' io_uring_cmd, fio on the namespace's /dev/ngXnY):
they run only when --target is an NVMe namespace /dev/nvmeXnY with its generic node, e.g. in the VM
lab's guest (`--only cmd-randread-4k-qd1,cmd-randread-4k-qd32,randread-4k-qd32`); the kernel does
not account passthrough I/O in /sys/block/X/stat, so they have no "added" column. The "-hipri" cases
poll completions (both tools' --hipri: io_uring on the block device, io_uring_cmd on the generic
node); they run only where the target's queue polls (/sys/block/X/queue/io_poll 1: NVMe with
nvme.poll_queues=N, as the VM lab's guest boots), e.g. `--only cmd-randread-4k-qd1-hipri,
cmd-randread-4k-qd32-hipri,randread-4k-qd1-hipri`.
In the VM lab's guest, which has no python, tests/bench/vm_vs_fio.sh runs them: --emit-script
writes the runs as a sh script for the guest, --from-dir reads what it left there.
Every case runs diskvet then fio (or fio then diskvet, alternating the order each round) so that
drift of a shared machine hits both tools alike. Ratios > 1 mean diskvet did more IOPS, or for CPU
per I/O and latency, < 1 means diskvet was cheaper / lower.

"added" is each tool's own share of the latency, measured without trusting either tool: the kernel
accounts every block device's I/Os and their time (/sys/block/X/stat: ios and ticks per direction), so
the tool's mean latency minus the kernel's mean for the same I/Os is what the tool added (submission,
completion, wake-up, its own work). It needs a block device target (not the null engine, not a file).
"""
import argparse
import json
import os
import shlex
import stat as stat_mod
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DISKVET = os.environ.get("DISKVET", os.path.join(HERE, "..", "..", "build", "cli", "diskvet"))

# name, rw, bs, iodepth, numjobs, extra fio options (diskvet takes the same, in its spelling;
# "dv:" marks an option only diskvet has, such as --spin: fio then runs as it is; "fio:" one only
# fio gets, such as --refill_buffers, which is what diskvet's write data always is; an option
# without "=" is a flag both take, such as --hipri)
CASES = [
    ("randread-4k-qd1", "randread", "4k", 1, 1, []),
    ("randread-4k-qd1-pinned", "randread", "4k", 1, 1, ["--cpus_allowed=1"]),
    # CPU 0 takes the loop device's completion work (its worker, the block softirq) in the
    # measurements of issue 29: the job shares its CPU with them.
    ("randread-4k-qd1-cpu0", "randread", "4k", 1, 1, ["--cpus_allowed=0"]),
    ("randread-4k-qd1-spin", "randread", "4k", 1, 1, ["dv:--spin=100us"]),
    ("randread-4k-qd32", "randread", "4k", 32, 1, []),
    ("randread-4k-qd32-pinned", "randread", "4k", 32, 1, ["--cpus_allowed=1"]),
    # Both tools submitting a whole reap batch in one system call (fio's iodepth_batch_submit, which
    # diskvet takes by the same name): the cost of the tool without one enter per I/O.
    ("randread-4k-qd32-batch", "randread", "4k", 32, 1, ["--iodepth_batch_submit=32"]),
    # The same capped load on both tools: latency differences are then the tools', not the queue's.
    ("randread-4k-qd8-rate", "randread", "4k", 8, 1, ["--rate_iops=10000"]),
    # Issue 29's measure: CPU per I/O at QD32 at equal IOPS (a rate both tools reach on the lab's
    # loop device, about half what either does uncapped), each I/O submitted on its own.
    ("randread-4k-qd32-rate", "randread", "4k", 32, 1, ["--rate_iops=80000"]),
    # The same equal IOPS with both tools submitting a reap batch in one system call.
    ("randread-4k-qd32-rate-batch", "randread", "4k", 32, 1, ["--rate_iops=80000", "--iodepth_batch_submit=32"]),
    # Equal IOPS near what fio does uncapped here, where reaps collect several completions.
    ("randread-4k-qd32-rate160k", "randread", "4k", 32, 1, ["--rate_iops=160000"]),
    ("randread-4k-qd32-rate160k-batch", "randread", "4k", 32, 1, ["--rate_iops=160000", "--iodepth_batch_submit=32"]),
    ("randwrite-4k-qd8-rate", "randwrite", "4k", 8, 1, ["--rate_iops=10000"]),
    ("read-64k-qd8", "read", "64k", 8, 1, []),
    ("randrw-8k-70-qd16", "randrw", "8k", 16, 1, ["--rwmixread=70"]),
    ("randwrite-4k-qd32", "randwrite", "4k", 32, 1, []),
    ("randwrite-4k-qd32-refill", "randwrite", "4k", 32, 1, ["fio:--refill_buffers"]),
    ("write-128k-qd8", "write", "128k", 8, 1, []),
    ("write-128k-qd8-refill", "write", "128k", 8, 1, ["fio:--refill_buffers"]),
    # NVMe passthrough: diskvet --engine io_uring_cmd against fio's io_uring_cmd (cmd_type=nvme).
    ("cmd-randread-4k-qd1", "randread", "4k", 1, 1, []),
    ("cmd-randread-4k-qd32", "randread", "4k", 32, 1, []),
    # Depth 8 on an NVMe drive. Not in the VM lab by default: its emulated NVMe (QEMU 7.2, TCG)
    # loses commands at depth 8 and 32, with both tools (docs/benchmarks.md).
    ("randread-4k-qd8", "randread", "4k", 8, 1, []),
    ("cmd-randread-4k-qd8", "randread", "4k", 8, 1, []),
    ("cmd-randread-4k-qd8-hipri", "randread", "4k", 8, 1, ["--hipri"]),
    ("randread-4k-qd8-hipri", "randread", "4k", 8, 1, ["--hipri"]),
    # Polled completions (fio's hipri) where the queue has poll queues: passthrough and the block path.
    ("cmd-randread-4k-qd1-hipri", "randread", "4k", 1, 1, ["--hipri"]),
    ("cmd-randread-4k-qd32-hipri", "randread", "4k", 32, 1, ["--hipri"]),
    ("randread-4k-qd1-hipri", "randread", "4k", 1, 1, ["--hipri"]),
    ("randread-4k-qd32-hipri", "randread", "4k", 32, 1, ["--hipri"]),
    ("null-4k-qd1", "randread", "4k", 1, 1, []),
    ("null-4k-qd32", "randread", "4k", 32, 1, []),
    # Equal IOPS without a device: each tool's own cost per I/O at a rate both reach.
    ("null-4k-qd32-rate", "randread", "4k", 32, 1, ["--rate_iops=1000000"]),
    ("null-randwrite-4k-qd32", "randwrite", "4k", 32, 1, []),
    ("null-randwrite-4k-qd32-refill", "randwrite", "4k", 32, 1, ["fio:--refill_buffers"]),
]


def tool_json(out):
    """A tool's JSON report from its output (anything printed before the first brace skipped)."""
    return json.loads(out[out.index("{"):])


def run(cmd):
    return tool_json(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def block_stat_path(target):
    """/sys path of a block device's I/O accounting, or None (a file, the null engine)."""
    try:
        st = os.stat(target)
    except OSError:
        return None
    if not stat_mod.S_ISBLK(st.st_mode):
        return None
    return f"/sys/dev/block/{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}/stat"


def read_block_stat(path):
    """(ios, ms) summed over reads and writes (Documentation/block/stat.rst: fields 1, 4, 5, 8), from
    a block device's stat file or a copy of one."""
    f = [int(x) for x in open(path).read().split()]
    return f[0] + f[4], f[3] + f[7]


def summarize(job, runtime):
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    iops = job["read"]["iops"] + job["write"]["iops"]
    usr_s = job["usr_cpu"] / 100.0 * runtime
    cpu_s = usr_s + job["sys_cpu"] / 100.0 * runtime
    lat = job["read"]["lat_ns"] if job["read"]["total_ios"] else job["write"]["lat_ns"]
    pct = lat.get("percentile", {})
    r, w = job["read"], job["write"]
    mean_all = ((r["lat_ns"]["mean"] * r["total_ios"] + w["lat_ns"]["mean"] * w["total_ios"]) / ios) if ios else 0
    return {
        "iops": iops,
        "cpu_ns_per_io": cpu_s * 1e9 / ios if ios else 0,
        # The tool's own code alone (user time): the kernel's work for each I/O is in sys_cpu.
        "usr_ns_per_io": usr_s * 1e9 / ios if ios else 0,
        "p50_ns": pct.get("50.000000", 0),
        "p99_ns": pct.get("99.000000", 0),
        "mean_ns": lat["mean"],
        "mean_all_ns": mean_all,
    }


def measure(cmd, runtime, stat_path):
    """Runs one tool; adds the kernel's mean latency over the same run and the tool's share above it."""
    before = read_block_stat(stat_path) if stat_path else None
    s = summarize(run(cmd)["jobs"][0], runtime)
    return kernel_share(s, before, read_block_stat(stat_path)) if before else s


def generic_node(target, local=True):
    """The generic char device /dev/ngXnY of an NVMe namespace /dev/nvmeXnY, or None. With
    local=False (a target in another machine, --emit-script) the name alone, unchecked."""
    name = os.path.basename(os.path.realpath(target) if local else target)
    if not name.startswith("nvme"):
        return None
    ng = "/dev/ng" + name[len("nvme"):]
    if not local:
        return ng
    return ng if os.path.exists(f"/sys/class/nvme-generic/{os.path.basename(ng)}") and os.path.exists(ng) else None


def queue_polls(target):
    """Whether the target's block device queue polls completions (io_poll 1), as --hipri needs."""
    try:
        rdev = os.stat(target).st_rdev
        with open(f"/sys/dev/block/{os.major(rdev)}:{os.minor(rdev)}/queue/io_poll") as fh:
            return fh.read().strip() == "1"
    except OSError:
        return False


def diskvet_cmd(case, target, runtime, null, diskvet=DISKVET):
    name, rw, bs, depth, jobs, extra = case
    cmd = [diskvet, "io", "--rw", rw, "--bs", bs, "--iodepth", str(depth), "--numjobs", str(jobs),
           "--runtime", f"{runtime}s", "--ramp-time", "1s", "--json"]
    cmd += ["--engine", "null"] if null else ["--filename", target, "--destroy-data", target]
    if name.startswith("cmd-"):
        cmd += ["--engine", "io_uring_cmd"]  # diskvet finds the generic node from the block device
    for e in extra:
        if e.startswith("fio:"):
            continue
        if "=" not in e:
            cmd += [e]
            continue
        k, v = e.removeprefix("dv:").split("=")
        cmd += [k.replace("_", "-"), v]
    return cmd


def fio_cmd(case, target, runtime, null, defaults=False, local=True):
    name, rw, bs, depth, jobs, extra = case
    cmd = ["fio", "--name=bench", f"--rw={rw}", f"--bs={bs}", f"--iodepth={depth}", f"--numjobs={jobs}",
           "--time_based", f"--runtime={runtime}", "--ramp_time=1", "--group_reporting",
           "--lat_percentiles=1", "--output-format=json"]
    if null:
        cmd += ["--ioengine=null", "--size=1g"]
    elif name.startswith("cmd-"):
        cmd += [f"--filename={generic_node(target, local)}", "--ioengine=io_uring_cmd", "--cmd_type=nvme", "--fixedbufs", "--registerfiles"]
    else:
        cmd += [f"--filename={target}", "--direct=1", "--ioengine=io_uring"]
        if not defaults:
            cmd += ["--fixedbufs", "--registerfiles"]
    # After --ioengine: fio takes an engine's own options (--hipri) only once the engine is named.
    return cmd + [e.removeprefix("fio:") for e in extra if not e.startswith("dv:")]


def case_tools(case, target, runtime, local=True, diskvet=DISKVET):
    """The commands of one case, by tool: diskvet, fio, and for randread-4k-qd32 fio's defaults."""
    null = case[0].startswith("null")
    tools = {"diskvet": diskvet_cmd(case, target, runtime, null, diskvet),
             "fio": fio_cmd(case, target, runtime, null, local=local)}
    if case[0] == "randread-4k-qd32":
        tools["fio-defaults"] = fio_cmd(case, target, runtime, null, defaults=True, local=local)
    return tools


def round_order(tools, r):
    """The tools' order in round r: flipped every round, so drift hits both alike."""
    return list(tools) if r % 2 == 0 else list(reversed(list(tools)))


def kernel_share(s, before, after):
    """Adds the kernel's mean latency over a run (block stat before and after) and the tool's share above it."""
    ios, ms = (a - b for a, b in zip(after, before))
    if ios:
        s["kernel_mean_ns"] = ms * 1e6 / ios
        s["added_ns"] = s["mean_all_ns"] - s["kernel_mean_ns"]
    return s


def report_case(case, samples):
    """Medians per tool and the printed line of one case."""
    tools = list(samples)
    med = {t: {k: statistics.median(s[k] for s in samples[t] if k in s) for k in samples[t][0]} for t in tools}
    d, f = med["diskvet"], med["fio"]
    line = (f"{case[0]:<26} diskvet {d['iops']:>11,.0f} IOPS  fio {f['iops']:>11,.0f} IOPS  "
            f"ratio {d['iops'] / f['iops']:.3f}  cpu/io {d['cpu_ns_per_io']:.0f} vs {f['cpu_ns_per_io']:.0f} ns "
            f"({d['cpu_ns_per_io'] / f['cpu_ns_per_io']:.2f}x)")
    if d.get("usr_ns_per_io") and f.get("usr_ns_per_io"):
        line += (f"  user {d['usr_ns_per_io']:.0f} vs {f['usr_ns_per_io']:.0f} ns"
                 f" ({d['usr_ns_per_io'] / f['usr_ns_per_io']:.2f}x)")
    if case[3] == 1 and not case[0].startswith("null"):  # QD1: latency matters
        line += (f"  p50 {d['p50_ns'] / 1e3:.2f} vs {f['p50_ns'] / 1e3:.2f} us ({d['p50_ns'] / f['p50_ns']:.3f})"
                 f"  p99 {d['p99_ns'] / 1e3:.2f} vs {f['p99_ns'] / 1e3:.2f} us ({d['p99_ns'] / f['p99_ns']:.3f})")
    if "added_ns" in d and "added_ns" in f:
        # The tools' own share of each I/O's latency above the kernel's (must be <= fio's).
        line += (f"  added {d['added_ns'] / 1e3:.2f} vs {f['added_ns'] / 1e3:.2f} us"
                 f" (kernel {d['kernel_mean_ns'] / 1e3:.2f} / {f['kernel_mean_ns'] / 1e3:.2f} us)")
    if "fio-defaults" in med:
        line += f"  fio-defaults {med['fio-defaults']['iops']:,.0f}"
    return med, line


def pick_cases(only, target, nvme, polls):
    """The cases asked for, less those the target cannot run (said on stderr)."""
    cases = [c for c in CASES if not only or c[0] in only.split(",")]
    if not nvme and any(c[0].startswith("cmd-") for c in cases):
        print(f"note: {target} is not an NVMe namespace with a generic node; the cmd- cases are left out", file=sys.stderr)
        cases = [c for c in cases if not c[0].startswith("cmd-")]
    if not polls and any("--hipri" in c[5] for c in cases):
        print(f"note: {target}'s queue does not poll (no poll queues); the -hipri cases are left out", file=sys.stderr)
        cases = [c for c in cases if "--hipri" not in c[5]]
    return cases


def kernel_counts(case):
    """Whether the kernel's block accounting sees the case's I/O (not the null engine, not passthrough)."""
    return not case[0].startswith("null") and not case[0].startswith("cmd-")


def emit_script(args, out):
    """A POSIX sh script that runs the cases in another machine (the VM lab's guest: no python there)
    and leaves each run's JSON and the block device's stat before and after in --dir; --from-dir
    reads them back. tests/bench/vm_vs_fio.sh runs it."""
    target = args.target
    dev = os.path.basename(target)
    lines = ["#!/bin/sh", "# Written by tests/bench/vs_fio.py --emit-script: each case's runs, alternating the tools.",
             "set -u", f'dir=${{1:-{args.dir}}}', 'mkdir -p "$dir"']
    cases = pick_cases(args.only, target, True, True)
    for case in cases:
        tools = case_tools(case, target, args.runtime, local=False, diskvet="diskvet")
        for r in range(args.rounds):
            for t in round_order(tools, r):
                base = f'"$dir/{case[0]}.{t}.{r}'
                cmd = " ".join(shlex.quote(a) for a in tools[t])
                lines.append(f'echo "BENCH {case[0]} {t} round {r}"')
                lines.append(f'cat /sys/block/{dev}/stat > {base}.stat0"')
                lines.append(f'{cmd} > {base}.json" 2> {base}.err" || {{ echo "BENCH FAILED {case[0]} {t} round {r}: $(tail -n 3 {base}.err")"; : > {base}.failed"; }}')
                lines.append(f'cat /sys/block/{dev}/stat > {base}.stat1"')
    lines.append('echo "BENCH done"')
    out.write("\n".join(lines) + "\n")
    print(f"{len(cases)} cases, {args.rounds} rounds: {', '.join(c[0] for c in cases)}", file=sys.stderr)


def from_dir(args):
    """The table from a directory --emit-script's script filled; a run that failed or is missing is named."""
    results = {}
    for case in pick_cases(args.only, args.target, True, True):
        samples, missing = {}, []
        for t in case_tools(case, args.target, args.runtime, local=False):
            samples[t] = []
            for r in range(args.rounds):
                base = os.path.join(args.from_dir, f"{case[0]}.{t}.{r}")
                if os.path.exists(base + ".failed"):  # as a failed run stops the local one: no figures
                    missing.append(f"{t} round {r} (failed)")
                    continue
                try:
                    with open(base + ".json") as fh:
                        s = summarize(tool_json(fh.read())["jobs"][0], args.runtime)
                except (OSError, ValueError, KeyError):
                    missing.append(f"{t} round {r}")
                    continue
                if kernel_counts(case):
                    kernel_share(s, read_block_stat(base + ".stat0"), read_block_stat(base + ".stat1"))
                samples[t].append(s)
        if missing:
            print(f"{case[0]:<26} left out: no result for {', '.join(missing)}", flush=True)
        if not samples["diskvet"] or not samples["fio"]:
            continue
        samples = {t: v for t, v in samples.items() if v}
        med, line = report_case(case, samples)
        results[case[0]] = {"median": med, "samples": samples}
        print(line, flush=True)
    return results


def save(results, path):
    """The raw figures to --json, when given."""
    if path:
        with open(path, "w") as fh:
            json.dump(results, fh, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runtime", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", help="also write the raw figures here")
    ap.add_argument("--emit-script", metavar="FILE", help="write a sh script running the cases on --target in another machine, instead of running them")
    ap.add_argument("--dir", default="/tmp/bench", help="where the emitted script leaves its results (its first argument overrides)")
    ap.add_argument("--from-dir", metavar="DIR", help="print the table from the results an emitted script left in DIR (same --target, --rounds, --runtime, --only)")
    args = ap.parse_args()

    if args.emit_script or args.from_dir:
        if not args.target:
            ap.error("--emit-script and --from-dir need --target (the device's name in the other machine)")
        if args.emit_script:
            with open(args.emit_script, "w") as fh:
                emit_script(args, fh)
            return 0
        results = from_dir(args)
        save(results, args.json)
        return 0 if results else 1

    made = None
    target = args.target
    if not target:
        backing = "/dev/shm/diskvet-bench.img"
        subprocess.run(["truncate", "-s", "1g", backing], check=True)
        target = subprocess.run(["losetup", "-f", "--show", "--direct-io=on", backing], check=True,
                                capture_output=True, text=True).stdout.strip()
        made = (target, backing)
        # Fill it once, so reads are of written blocks on both tools' turns.
        subprocess.run(["fio", "--name=fill", f"--filename={target}", "--rw=write", "--bs=1m", "--direct=1",
                        "--ioengine=io_uring", "--iodepth=8", "--output=/dev/null"], check=True)
    stat_path = block_stat_path(target)
    if not stat_path:
        print("note: the target is not a block device; the kernel's latency share is not measured", file=sys.stderr)
    try:
        results = {}
        for case in pick_cases(args.only, target, generic_node(target), queue_polls(target)):
            tools = case_tools(case, target, args.runtime)
            samples = {t: [] for t in tools}
            for r in range(args.rounds):
                for t in round_order(tools, r):
                    samples[t].append(measure(tools[t], args.runtime, stat_path if kernel_counts(case) else None))
            med, line = report_case(case, samples)
            results[case[0]] = {"median": med, "samples": samples}
            print(line, flush=True)
        save(results, args.json)
    finally:
        if made:
            subprocess.run(["losetup", "-d", made[0]])
            os.remove(made[1])


if __name__ == "__main__":
    sys.exit(main())
