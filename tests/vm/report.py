#!/usr/bin/env python3
"""Checks on the report an unattended guest prints between the DISKVET REPORT markers.

    report.py SERIAL_LOG [--devices] CHECK [ARGS...]
      --devices                      check 'diskvet list --json' (DISKVET DEVICES markers) instead
      count N                        exactly N reports were printed
      devices SERIAL...              the report has an entry for each drive serial
      absent SERIAL...               the report has no entry for these drives (not tested)
      temperature SERIAL KELVIN      the drive's SMART temperature is reported (kelvin or celsius)
      iops-near SERIAL CAP           the drive's measured read IOPS are within 60%..115% of CAP
      iops-capped SERIAL CAP         the drive's measured read IOPS are at most 115% of CAP (the cap held) and at
                                     least 20% of it (measured, not lost): a loaded host only slows the guest
      verdict SERIAL PASS|FAIL|...   the drive's verdict in a diskvet run report
      critical-warning SERIAL N      the drive's SMART critical warning is N (and FAIL, in a run report with health)
      complete                       a diskvet run report that is complete: not aborted, every device completed every test
      io-errors SERIAL [OFFSET]      the drive FAILs for I/O errors: counted, the first listed with offset and LBA (one
                                     of them covering byte OFFSET), and a reason naming the first
      clean SERIAL...                the drives completed every test with I/Os measured and no I/O error
      health-raised SERIAL N         the run's health polls saw critical warning N raised mid-run (0 before, N after, first
                                     seen after the start) and the drive FAILs naming it with that time
      health-quiet SERIAL...         the drives were polled, never showed a critical warning and do not FAIL for health
      purge SERIAL METHOD            the drive's purge in a diskvet run report used METHOD and did not fail
      tested PATH...                 a diskvet run report's devices are exactly these paths (namespaces of one
                                     controller share a serial)
      consent-id PATH ID             the device at PATH has consent_id ID (with --devices: 'diskvet list --json')
      accounting SERIAL RESULT [MIB] the drive's write accounting (health.write_accounting) came out RESULT (agrees,
                                     counted-less, counted-more), FAILing the drive unless it agrees, and names another
                                     writer on this host of MIB MiB (none when MIB is left out)
      burst SERIAL TEST BASE RAMP_S  the first workload of TEST kept its ramp's series and found a burst-then-baseline
                                     step inside the ramp: the baseline within 25% of BASE IOPS, the burst at least 3x
                                     it, the burst lasting 3 s to RAMP_S

Works on both report shapes: the image's fallback (diskvet_image_fallback: diskvet io per drive,
nvme smart-log) and diskvet run's report, by looking for the drive's object by its serial.
"""
import json
import re
import sys

BEGIN = "=== DISKVET REPORT BEGIN ==="
END = "=== DISKVET REPORT END ==="


def reports(log_path, begin=BEGIN, end=END):
    text = open(log_path, encoding="utf-8", errors="replace").read().replace("\r", "")
    found = []
    for m in re.finditer(re.escape(begin) + r"[^\n]*\n(.*?)\n" + re.escape(end), text, re.S):
        found.append(json.loads(m.group(1)))
    return found


def walk(node):
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def device_objects(report, serial):
    return [n for n in walk(report) if isinstance(n, dict) and str(n.get("serial", "")).strip() == serial]


def values(objs, key_re):
    out = []
    for o in objs:
        for n in walk(o):
            if isinstance(n, dict):
                out += [v for k, v in n.items() if re.fullmatch(key_re, k) and isinstance(v, (int, float))]
    return out


def run_device(report, serial):
    """The device object of a diskvet run report (not its nested identity) for a drive serial."""
    found = [d for d in report.get("devices", []) if isinstance(d, dict) and str(d.get("serial", "")).strip() == serial]
    if len(found) != 1:
        fail(f"{len(found)} device entries for the drive with serial {serial} in the run report, expected 1")
    return found[0]


def workload_ios(workload):
    result = workload.get("result") or {}
    return sum((result.get(d) or {}).get("total_ios", 0) for d in ("read", "write"))


def warning_seen(reason, value):
    m = re.search(r"critical warning 0x([0-9a-fA-F]+) raised during the run, first seen at ([0-9.]+) s", reason)
    return m and int(m.group(1), 16) == value and float(m.group(2))


def fail(msg):
    print("report.py: " + msg)
    sys.exit(1)


def main(argv):
    log, rest = argv[1], argv[2:]
    if rest[0] == "--devices":
        found = reports(log, "=== DISKVET DEVICES BEGIN ===", "=== DISKVET DEVICES END ===")
        rest = rest[1:]
    else:
        found = reports(log)
    check, args = rest[0], rest[1:]
    if check == "count":
        if len(found) != int(args[0]):
            fail(f"{len(found)} reports printed, expected {args[0]}")
        return
    if len(found) != 1:
        fail(f"{len(found)} parseable reports on the serial console, expected 1")
    report = found[0]
    if check == "devices":
        for s in args:
            if not device_objects(report, s):
                fail(f"no entry for the drive with serial {s}")
        print("report has entries for " + ", ".join(args))
    elif check == "absent":
        for s in args:
            if device_objects(report, s):
                fail(f"the drive with serial {s} is in the report but should not have been tested")
        print("report leaves out " + ", ".join(args))
    elif check == "temperature":
        serial, kelvin = args[0], float(args[1])
        temps = values(device_objects(report, serial), r".*temp(erature)?(_c|_k)?")
        if not any(abs(t - kelvin) <= 1 or abs(t - (kelvin - 273.15)) <= 1 for t in temps):
            fail(f"drive {serial}: no temperature of {kelvin} K in the report (found {temps})")
        print(f"drive {serial}: temperature {kelvin} K reported")
    elif check in ("iops-near", "iops-capped"):
        serial, cap = args[0], float(args[1])
        iops = [n["iops"] for o in device_objects(report, serial) for n in walk(o)
                if isinstance(n, dict) and isinstance(n.get("iops"), (int, float)) and n.get("iops") > 0]
        if not iops:
            fail(f"drive {serial}: no IOPS measured")
        low = 0.60 if check == "iops-near" else 0.20
        if not low * cap <= iops[0] <= 1.15 * cap:
            fail(f"drive {serial}: {iops[0]:.0f} IOPS, expected {low * cap:.0f}..{1.15 * cap:.0f} under the {cap:.0f} IOPS cap")
        print(f"drive {serial}: {iops[0]:.0f} IOPS under a {cap:.0f} IOPS cap")
    elif check == "verdict":
        # WANT may list alternatives, "PASS|FAIL": judged either way, where which way depends on the
        # emulated drive's speed on a loaded host (never asserted).
        serial, want = args[0], args[1]
        got = [o.get("verdict") for o in device_objects(report, serial) if "verdict" in o]
        if len(got) != 1 or got[0] not in want.split("|"):
            fail(f"drive {serial}: verdict {got}, expected {want}")
        print(f"drive {serial}: verdict {got[0]} ({want})")
    elif check == "metric":
        # metric SERIAL TEST METRIC EXPECTED STATUS[|STATUS]: the test's verdict on the metric was
        # judged against EXPECTED (the profile's limit) with one of the statuses.
        serial, test, metric, expected, want = args[0], args[1], args[2], float(args[3]), args[4].split("|")
        found = [v for d in device_objects(report, serial) for t in d.get("tests", []) if t.get("id") == test
                 for v in t.get("verdicts", []) if v.get("metric") == metric]
        if len(found) != 1:
            fail(f"drive {serial}: {len(found)} verdicts on {test} {metric}, expected one")
        v = found[0]
        if abs(float(v.get("expected", -1)) - expected) > 1e-6 * max(1.0, expected) or v.get("status") not in want:
            fail(f"drive {serial}: {test} {metric} judged {v.get('status')} against {v.get('expected')}, expected {'|'.join(want)} against {expected:g}")
        print(f"drive {serial}: {test} {metric} {v.get('status')} against {expected:g} (measured {v.get('measured')})")
    elif check == "critical-warning":
        serial, want = args[0], int(args[1])
        objs = device_objects(report, serial)
        is_run_report = isinstance(report, dict) and "verdict" in report
        has_health = any(isinstance(n, dict) and isinstance(n.get("before"), dict) for o in objs for n in walk(o))
        if is_run_report and not has_health:
            # diskvet run does not read health yet (its report says so in notes): nothing to judge.
            print(f"NOTE: the run report carries no health for {serial} yet: its FAIL verdict is not checked")
            return
        if want not in values(objs, r"critical_warning"):
            fail(f"drive {serial}: critical_warning {want} not reported (found {values(objs, r'critical_warning')})")
        if is_run_report and want:
            verdicts = [o.get("verdict") for o in objs]
            if "FAIL" not in verdicts:
                fail(f"drive {serial}: critical warning {want} but verdict {verdicts}, expected FAIL")
        print(f"drive {serial}: critical_warning {want} reported")
    elif check == "complete":
        if report.get("complete") is not True or report.get("aborted") is not None:
            fail(f"the report is not complete: complete={report.get('complete')}, aborted={report.get('aborted')}")
        for d in report["devices"]:
            if d.get("completed") is not True:
                fail(f"device {d.get('serial')} did not complete: {d.get('progress')}")
        print(f"report complete: {len(report['devices'])} devices, each completed")
    elif check == "stall":
        serial, min_out_s = args[0], float(args[1])
        w = run_device(report, serial).get("watchdog") or {}
        stalls = w.get("stalls") or []
        if not stalls or max(s.get("out_s", 0) for s in stalls) < min_out_s:
            fail(f"drive {serial}: no stall out {min_out_s} s or longer: {w}")
        for s in stalls:
            if not isinstance(s.get("lba"), int) or not isinstance(s.get("offset_bytes"), int):
                fail(f"drive {serial}: a stall without its LBA and offset: {s}")
        print(f"drive {serial}: {w.get('stall_count')} stall(s), the longest out {max(s['out_s'] for s in stalls):.1f} s")
    elif check == "kernel-line":
        serial, kind = args[0], args[1]
        k = run_device(report, serial).get("kernel_log") or {}
        lines = [l for l in k.get("lines") or [] if l.get("kind") == kind]
        if not lines:
            fail(f"drive {serial}: no kernel line of kind {kind}: {k}")
        print(f"drive {serial}: kernel says: {lines[0].get('text')}")
    elif check == "io-errors":
        serial = args[0]
        d = run_device(report, serial)
        count, first = d.get("io_errors", 0), d.get("first_io_errors") or []
        if not count or not first:
            fail(f"drive {serial}: io_errors {count}, first_io_errors {first}: expected errors counted and listed")
        lbs = d.get("logical_block_size") or 512
        for e in first:
            if not isinstance(e.get("offset_bytes"), int) or e.get("lba") != e["offset_bytes"] // lbs or not e.get("error"):
                fail(f"drive {serial}: first_io_errors entry without a consistent offset, LBA and error: {e}")
        if len(args) > 1:
            # The kernel may merge neighbouring reads into one command: they fail together, in any order.
            bad = int(args[1])
            bs = {t["id"]: w["bs"] for t in d.get("tests", []) for w in t.get("workloads", [])}
            if not any(e["offset_bytes"] <= bad < e["offset_bytes"] + bs.get(e.get("test"), 0) for e in first):
                fail(f"drive {serial}: no listed I/O error covers byte {bad}: {first}")
        if d.get("verdict") != "FAIL":
            fail(f"drive {serial}: {count} I/O errors but verdict {d.get('verdict')}, expected FAIL")
        named = [r for r in d.get("reasons", []) if "I/O error" in r and f"LBA {first[0]['lba']}" in r]
        if not named:
            fail(f"drive {serial}: no reason names the I/O errors and the first LBA: {d.get('reasons')}")
        print(f"drive {serial}: FAIL, {named[0]}")
    elif check == "clean":
        for serial in args:
            d = run_device(report, serial)
            if d.get("completed") is not True or d.get("io_errors") != 0 or d.get("first_io_errors"):
                fail(f"drive {serial}: completed={d.get('completed')}, io_errors={d.get('io_errors')}, expected a clean completed run")
            workloads = [w for t in d.get("tests", []) for w in t.get("workloads", [])]
            if not workloads or not all(w.get("ran") and workload_ios(w) > 0 for w in workloads):
                fail(f"drive {serial}: not every workload ran with I/Os measured: {d.get('progress')}")
            if not d.get("verdict"):
                fail(f"drive {serial}: no verdict")
            print(f"drive {serial}: completed {len(workloads)} workloads without an I/O error, verdict {d['verdict']}")
    elif check == "health-raised":
        serial, want = args[0], int(args[1])
        d = run_device(report, serial)
        series = d.get("health_series") or []
        warnings = [s.get("critical_warning") for s in series]
        if not series or warnings[0] != 0:
            fail(f"drive {serial}: the health series must start without a critical warning: {warnings}")
        if ((d.get("health") or {}).get("before") or {}).get("critical_warning") not in (0, None):
            fail(f"drive {serial}: critical warning already set before the run: {d['health']['before']}")
        raised = [s for s in series if s.get("critical_warning") == want]
        if not raised or raised[0]["t_s"] <= 0:
            fail(f"drive {serial}: the polls never saw critical warning {want} after the start: {warnings}")
        if d.get("verdict") != "FAIL":
            fail(f"drive {serial}: critical warning {want} raised but verdict {d.get('verdict')}, expected FAIL")
        seen = [warning_seen(r, want) for r in d.get("reasons", [])]
        seen = [t for t in seen if t is not None and t is not False]
        if not seen or abs(seen[0] - raised[0]["t_s"]) > 1:
            fail(f"drive {serial}: no reason names critical warning {want} first seen at {raised[0]['t_s']:.0f} s: {d.get('reasons')}")
        zeros = sum(1 for w in warnings[:warnings.index(want)] if w == 0)
        print(f"drive {serial}: {zeros} polls with no warning, then critical warning {want} first seen at {raised[0]['t_s']:.1f} s: FAIL")
    elif check == "health-quiet":
        for serial in args:
            d = run_device(report, serial)
            series = d.get("health_series") or []
            if not series or any(s.get("critical_warning") for s in series):
                fail(f"drive {serial}: expected polls without a critical warning: {[s.get('critical_warning') for s in series]}")
            health = [r for r in d.get("reasons", []) if "critical warning" in r or "unhealthy" in r or "media error" in r]
            if health:
                fail(f"drive {serial}: fails for health: {health}")
            print(f"drive {serial}: {len(series)} health polls, no warning, verdict {d.get('verdict')}")
    elif check == "purge":
        serial, want = args[0], args[1]
        p = run_device(report, serial).get("purge") or {}
        if p.get("method") != want or p.get("failed"):
            fail(f"drive {serial}: purge {p.get('method')} (failed: {p.get('failed')}), expected {want}: {p.get('detail')}")
        print(f"drive {serial}: purge {want} in {p.get('duration_s', 0):.2f} s: {p.get('detail')}")
    elif check == "tested":
        paths = sorted(str(d.get("path")) for d in report.get("devices", []) if isinstance(d, dict))
        if paths != sorted(args):
            fail(f"the run report's devices are {paths}, expected {sorted(args)}")
        print("report tested " + ", ".join(paths))
    elif check == "consent-id":
        path, want = args[0], args[1]
        entries = report if isinstance(report, list) else report.get("devices", [])
        got = [d.get("consent_id") for d in entries if isinstance(d, dict) and d.get("path") == path]
        if got != [want]:
            fail(f"{path}: consent_id {got}, expected {want}")
        print(f"{path}: consent ID {want}")
    elif check == "accounting":
        serial, want = args[0], args[1]
        d = run_device(report, serial)
        a = (d.get("health") or {}).get("write_accounting")
        if not isinstance(a, dict):
            fail(f"drive {serial}: no write accounting in the report: {d.get('health')}")
        if a.get("result") != want or a.get("fails") != (want != "agrees"):
            fail(f"drive {serial}: write accounting {a.get('result')} (fails: {a.get('fails')}), expected {want}: {a.get('words')}")
        if want != "agrees" and d.get("verdict") != "FAIL":
            fail(f"drive {serial}: the write counter disagrees but the verdict is {d.get('verdict')}")
        other = a.get("other_writer_bytes")
        if len(args) > 2:
            if other != int(args[2]) << 20 or d.get("verdict") not in ("INCONCLUSIVE", "FAIL"):
                fail(f"drive {serial}: another writer of {other} bytes (verdict {d.get('verdict')}), expected {args[2]} MiB and not PASS")
        elif other is not None:
            fail(f"drive {serial}: another writer of {other} bytes named, expected none: {a.get('other_writer')}")
        print(f"drive {serial}: {a.get('words')}" + (f"; {a.get('other_writer')}" if other is not None else ""))
    elif check == "burst":
        serial, test, base, ramp_s = args[0], args[1], float(args[2]), float(args[3])
        tests = [t for t in run_device(report, serial).get("tests", []) if t.get("id") == test]
        if not tests or not tests[0].get("workloads"):
            fail(f"drive {serial}: no test {test} with workloads")
        w = tests[0]["workloads"][0]
        ramp = (w.get("ramp") or {}).get("intervals") or []
        b = w.get("burst") or {}
        if not ramp or sum(i.get("dur_s", 0) for i in ramp) < 0.8 * ramp_s:
            fail(f"drive {serial}: {test}'s ramp series is missing or short: {len(ramp)} samples")
        if not b.get("found") or not b.get("in_ramp"):
            fail(f"drive {serial}: no burst step found inside {test}'s ramp: {b}")
        if abs(b["after_iops"] - base) > 0.25 * base or b["before_iops"] < 3 * base or not 3 <= b["burst_s"] <= ramp_s:
            fail(f"drive {serial}: {test}'s step is not a burst then a baseline of {base:g} IOPS: {b}")
        print(f"drive {serial}: {test}: {b['summary']} (step at {b['step_s']:.1f} s, {len(ramp)} ramp samples)")
    else:
        fail("unknown check " + check)


if __name__ == "__main__":
    main(sys.argv)
