#!/usr/bin/env python3
"""Conformance of diskvet's fio-format outputs with fio's own readers, on a loop device: what fio's
tools make of `diskvet io --output-format=json+` and of its fio logs. Never compares speed.

Cases:
  jsonplus  diskvet's json+ has every key (path) fio 3.33's json+ has for the same workload on the same
            device (fio run with diskvet's `fio_equivalent` line); `fio_jsonplus_clat2csv` reads it and
            validates its CSV against it; the percentiles the CSV gives from the bins lie in the same
            fio bin as diskvet's own percentiles (fio's bins are coarser than diskvet's histogram).
  logs      `--write_bw_log/--write_iops_log/--write_lat_log/--log_avg_msec` and
            `--write_hist_log/--log_hist_msec`: `fio_generate_plots` draws each log (an SVG per log
            type), `fio2gnuplot` renders the bandwidth and IOPS logs, and `fiologparser_hist.py` (when
            installed with its numpy and pandas) reads the histogram log.

Usage: conformance_fio_outputs.py CASE   Needs root (a loop device), losetup and fio's tools; exits 77
(skipped) without them.
"""
import csv
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance_fio import Failed, check, run, run_case  # noqa: E402  (one loop-device lab)

PERCENTILES = ["50.000000", "90.000000", "99.000000", "99.900000"]


def fio_bin(ns):
    """fio's plat_val_to_idx (stat.c, FIO_IO_U_PLAT_BITS 6, 29 groups)."""
    if ns < 128:
        return ns
    error_bits = ns.bit_length() - 1 - 6
    return min(((error_bits + 1) << 6) + ((ns >> error_bits) & 63), 29 * 64 - 1)


def key_paths(node, prefix=""):
    """Every key path of a JSON document, with arrays of objects seen through their first element;
    what a job's options hold depends on how it was asked for, so only that key itself counts."""
    paths = set()
    if isinstance(node, dict):
        for k, v in node.items():
            p = f"{prefix}/{k}"
            paths.add(p)
            if k in ("job options", "percentile", "bins"):
                continue  # their keys are values: option names, percentiles asked for, latencies seen
            paths |= key_paths(v, p)
    elif isinstance(node, list) and node and isinstance(node[0], dict):
        paths |= key_paths(node[0], prefix + "[]")
    return paths


def diskvet_io(dev, args):
    diskvet = os.environ.get("DISKVET_BIN", "diskvet")
    return run([diskvet, "io", "--filename", dev, "--quiet", "--destroy-data", dev, *args])


def case_jsonplus(dev, workdir):
    args = ["--rw", "randrw", "--bs", "4k", "--iodepth", "4", "--size", "64m", "--runtime", "2s"]
    out = diskvet_io(dev, [*args, "--output-format=json+"])
    dv_path = os.path.join(workdir, "diskvet.json")
    with open(dv_path, "w") as f:
        f.write(out)
    dv = json.loads(out)
    # fio 3.33 on the same device with the line diskvet says is equivalent; lat_percentiles so that
    # its lat_ns carries bins too, as diskvet's does.
    fio_cmd = shlex.split(dv["fio_equivalent"]) + ["--output-format=json+", "--lat_percentiles=1"]
    print("  fio:", shlex.join(fio_cmd))
    fio = json.loads(run(fio_cmd))
    missing = sorted(key_paths(fio) - key_paths(dv))
    check(not missing, f"diskvet's json+ has every key fio's has (missing: {missing})")
    for d in ("read", "write"):
        for lat in ("lat_ns", "clat_ns"):
            check("bins" in dv["jobs"][0][d][lat], f"{d}.{lat} has bins")

    stub = os.path.join(workdir, "diskvet.csv")
    run(["fio_jsonplus_clat2csv", dv_path, stub])
    run(["fio_jsonplus_clat2csv", dv_path, stub, "--validate"])
    check(True, "fio_jsonplus_clat2csv reads diskvet's json+ and validates its CSV against it")
    with open(os.path.join(workdir, "diskvet_job0.csv")) as f:
        rows = [[c.strip() for c in r] for r in csv.reader(f)]
    header = rows[0]
    for d in ("read", "write"):
        for lat in ("lat_ns", "clat_ns"):
            col = header.index(f"{d}_{lat}_percentile")
            own = dv["jobs"][0][d][lat]["percentile"]
            for p in PERCENTILES:
                want = float(p) / 100
                # fio's reading of bins: the first bin whose cumulative share reaches the percentile.
                from_bins = next(int(r[0]) for r in rows[1:] if len(r) > col and r[col] and float(r[col]) >= want - 1e-12)
                check(fio_bin(from_bins) == fio_bin(own[p]),
                      f"{d} {lat} p{p[:-4]}: {from_bins} ns from the bins, diskvet's {own[p]} ns: the same fio bin")


def case_logs(dev, workdir):
    name = os.path.join(workdir, "diskvet")
    diskvet_io(dev, ["--rw", "randrw", "--bs", "4k", "--iodepth", "4", "--size", "64m", "--runtime", "2s", "--write_bw_log", name,
                     "--write_iops_log", name, "--write_lat_log", name, "--log_avg_msec", "250", "--write_hist_log", name,
                     "--log_hist_msec", "500"])
    for kind in ("bw", "iops", "lat", "clat", "slat", "clat_hist"):
        check(os.path.isfile(f"{name}_{kind}.1.log"), f"fio's name for the {kind} log: diskvet_{kind}.1.log")
    plots = os.path.join(workdir, "plots")
    os.mkdir(plots)
    for path in glob.glob(f"{name}_*.log"):
        shutil.copy(path, plots)
    subprocess.run(["fio_generate_plots", "diskvet"], cwd=plots, capture_output=True, text=True, timeout=120, check=True)
    for kind in ("bw", "iops", "lat", "clat"):
        svg = os.path.join(plots, f"diskvet-{kind}.svg")
        with open(svg) as f:
            drawn = "<path" in f.read()
        check(drawn, f"fio_generate_plots draws diskvet-{kind}.svg")
    for flag, kind in (("-b", "bw"), ("-i", "iops")):
        r = subprocess.run(["fio2gnuplot", flag, "-g"], cwd=plots, capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or not glob.glob(os.path.join(plots, f"diskvet_{kind}.1-2D*.png")):
            raise Failed(f"fio2gnuplot {flag} exited {r.returncode} with no plot: {r.stdout[-300:]}{r.stderr[-300:]}")
        check(True, f"fio2gnuplot {flag} renders the {kind} log")
    parser = shutil.which("fiologparser_hist.py")
    imports = subprocess.run([sys.executable, "-c", "import numpy, pandas"], capture_output=True)
    if parser and imports.returncode == 0:
        out = run([sys.executable, parser, f"{name}_clat_hist.1.log"])
        check(len(out.strip().splitlines()) > 1, "fiologparser_hist.py reads the histogram log")
    else:
        print("  note: fiologparser_hist.py (with numpy and pandas) is not installed; the histogram log is checked by the unit and CLI tests")


CASES = {"jsonplus": case_jsonplus, "logs": case_logs}


TOOLS = {"jsonplus": ("fio", "fio_jsonplus_clat2csv"), "logs": ("fio_generate_plots", "fio2gnuplot", "gnuplot")}


def main():
    return run_case(CASES, TOOLS.get)


if __name__ == "__main__":
    sys.exit(main())
