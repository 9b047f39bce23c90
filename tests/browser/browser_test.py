#!/usr/bin/env python3
"""Report pages in a real browser: headless Chromium renders each report's HTML (as `diskvet report
FILE --html` writes it), the page logs no error, every plot is laid out with a size and drawn lines,
and a PNG screenshot of each page is kept as a test artifact.

    browser_test.py DISKVET REPORT_FIXTURES CHECKED_IN_REPORT ARTIFACT_DIR [REAL_BURNIN_REPORT]

REAL_BURNIN_REPORT is the report of a real burn-in on a device that stalled and returned corrupted
data (tests/integration/burnin/burnin_page_test.cpp writes it, as root): its page must show each
stall and each mismatch at the LBAs the report names. When it is missing (no root, loop devices or
FUSE) the burn-in page is the injected fixture's alone, and the output says so.

The compare page (two of the fixtures compared) and the fleet page (all of them) are checked the same
way, and on every page at 1280 px and at A4's width (794 px) nothing is wider than the window and no
table row is taller than MAX_ROW_PX.

Exits 77 (ctest: skipped) when no chromium is installed. First proves its own checks fail: a page
that throws, a page with an empty plot, a page wider than a phone and a table whose rows stretch tall
must all be refused."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
# A table row's height bound at 1280 px and at A4's width: a few wrapped lines of text, not a column
# squeezed to one word per line.
MAX_ROW_PX = 150
# Measures every plot after layout and writes the result into the DOM, where --dump-dom reads it.
# Appended to a copy of the page only: the page itself carries no script.
PROBE = """<script>
window.addEventListener('load', () => {
  const plots = [...document.querySelectorAll('svg.plot')].map(s => {
    const r = s.getBoundingClientRect();
    const lines = [...s.querySelectorAll('polyline')].filter(p => p.getAttribute('points').trim().split(/\\s+/).length >= 1 && p.getBBox().width + p.getBBox().height > 0).length;
    return {kind: s.dataset.plot, points: +s.dataset.points, width: r.width, height: r.height, lines};
  });
  const out = document.createElement('pre');
  out.id = 'probe';
  const overflow = document.documentElement.scrollWidth - window.innerWidth;  // > 0: the page scrolls sideways
  // The tallest table row: a column squeezed to a word's width stretches rows to hundreds of pixels.
  const tallest_row = Math.max(0, ...[...document.querySelectorAll('tr')].map(r => r.getBoundingClientRect().height));
  out.textContent = JSON.stringify({plots, overflow, tallest_row, title: document.title, cards: document.querySelectorAll('.cards .card').length});
  document.body.appendChild(out);
});
</script>"""


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(browser, args, timeout=90):
    # A profile of its own per start (Chromium locks its profile), removed with everything Chromium put
    # in it: one run left 30 folders of its state in /tmp per page.
    with tempfile.TemporaryDirectory(prefix="diskvet-chromium-", ignore_cleanup_errors=True) as profile:
        base = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile]
        return subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)


def console_errors(stderr):
    # Chromium logs a page's console as CONSOLE lines and failed loads as "Failed to load resource".
    bad = []
    for line in stderr.splitlines():
        if "CONSOLE" in line or "Uncaught" in line or "Failed to load resource" in line or "net::ERR_" in line:
            bad.append(line.strip())
    return bad


def probe(browser, html_path, work, size="1280,1000"):
    with open(html_path, encoding="utf-8") as f:
        page = f.read()
    probed = os.path.join(work, os.path.basename(html_path) + ".probe.html")
    with open(probed, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", PROBE + "</body>"))
    p = run_browser(browser, ["--window-size=" + size, "--virtual-time-budget=5000", "--dump-dom", "file://" + probed])
    m = re.search(r'<pre id="probe">(.*?)</pre>', p.stdout, re.S)
    result = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")) if m else None
    return result, console_errors(p.stderr)


def png_ink(path):
    """Share of pixels that are not white in an 8-bit RGB(A) PNG: a blank page is near 0."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8, "only 8-bit PNGs"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw, stride = zlib.decompress(idat), width * bpp
    prev, ink, row_at = bytearray(stride), 0, 0
    for _ in range(height):
        ftype, line = raw[row_at], bytearray(raw[row_at + 1:row_at + 1 + stride])
        row_at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1: line[i] = (line[i] + a) & 255
            elif ftype == 2: line[i] = (line[i] + b) & 255
            elif ftype == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 4):  # every 4th pixel is plenty
            if line[x] < 240 or line[x + 1] < 240 or line[x + 2] < 240:
                ink += 1
        prev = line
    return ink / max(1, (width // 4) * height)


def check_page(browser, html_path, work, artifacts, name, expect_cards, expect_plots=True):
    problems = []
    result, errors = probe(browser, html_path, work)
    if errors:
        problems.append(f"{name}: the page logged errors: {errors[:3]}")
    if result is None:
        return problems + [f"{name}: the probe found no result in the DOM (the page did not load)"]
    if expect_cards and result["cards"] != expect_cards:
        problems.append(f"{name}: {result['cards']} verdict cards on the first screen, expected {expect_cards}")
    if expect_plots and not result["plots"]:
        problems.append(f"{name}: no plot on the page")
    # At a desktop's width and at A4's (what a printed page lays out on): nothing sideways, no
    # stretched rows.
    for width, at in ((1280, result), (794, probe(browser, html_path, work, "794,1123")[0])):
        if at is None:
            problems.append(f"{name}: at {width} px the probe found no result")
            continue
        if at["overflow"] > 0:
            problems.append(f"{name}: at {width} px the page is {at['overflow']} px too wide")
        if at["tallest_row"] > MAX_ROW_PX:
            problems.append(f"{name}: at {width} px a table row is {at['tallest_row']:.0f} px tall (at most {MAX_ROW_PX})")
    for i, p in enumerate(result["plots"]):
        if p["width"] < 100 or p["height"] < 60 or p["points"] < 1 or p["lines"] < 1:
            problems.append(f"{name}: plot {i} ({p['kind']}) is empty or not laid out: {p}")
    shot = os.path.join(artifacts, name + ".png")
    run_browser(browser, ["--window-size=1200,2400", "--screenshot=" + shot, "file://" + os.path.abspath(html_path)])
    if not os.path.exists(shot):
        problems.append(f"{name}: no screenshot written")
    elif png_ink(shot) < 0.02:
        problems.append(f"{name}: the screenshot is blank")
    # On a phone (390 CSS pixels wide) the page does not scroll sideways: plots shrink, tables scroll.
    phone, _ = probe(browser, html_path, work, "390,844")
    if phone is None or phone["overflow"] > 0:
        problems.append(f"{name}: on a 390 px wide screen the page is {phone and phone['overflow']} px too wide")
    else:
        run_browser(browser, ["--window-size=390,844", "--screenshot=" + os.path.join(artifacts, name + "-phone.png"), "file://" + os.path.abspath(html_path)])
    # Printed: A4, and each device starts a page of its own after the first screen of cards.
    if expect_cards:
        pdf = os.path.join(artifacts, name + ".pdf")
        run_browser(browser, ["--no-pdf-header-footer", "--print-to-pdf=" + pdf, "file://" + os.path.abspath(html_path)])
        data = open(pdf, "rb").read() if os.path.exists(pdf) else b""
        pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
        boxes = {tuple(round(float(x)) for x in m.split()) for m in re.findall(rb"/MediaBox\s*\[\s*0 0 ([0-9. ]+)\]", data)}
        if boxes != {(595, 842)}:
            problems.append(f"{name}: printed on {boxes or 'nothing'}, not A4 (595 x 842 pt)")
        if pages < expect_cards + 1:
            problems.append(f"{name}: printed on {pages} page(s); {expect_cards} device(s) need at least {expect_cards + 1}")
    print(f"{name}: {len(result['plots'])} plots ({', '.join(sorted({p['kind'] for p in result['plots']}))}), {result['cards']} cards, screenshot {shot}")
    return problems


def self_test(browser, work, artifacts):
    """The checks must refuse a page that throws and a page whose plot is empty."""
    bad = os.path.join(work, "throws.html")
    with open(bad, "w") as f:
        f.write('<html><body><svg class="plot" data-plot="x" data-points="2" width="300" height="200">'
                '<polyline points="0,0 100,100" stroke="red"/></svg><script>throw new Error("planted")</script></body></html>')
    empty = os.path.join(work, "empty.html")
    with open(empty, "w") as f:
        f.write('<html><body><svg class="plot" data-plot="x" data-points="0" width="300" height="200"></svg></body></html>')
    if not any("logged errors" in p for p in check_page(browser, bad, work, artifacts, "selftest-throws", 0)):
        return "a page that throws passed the check"
    if not any("is empty" in p for p in check_page(browser, empty, work, artifacts, "selftest-empty", 0)):
        return "a page with an empty plot passed the check"
    wide = os.path.join(work, "wide.html")
    with open(wide, "w") as f:
        f.write('<html><body><div style="width:1000px">wide</div><svg class="plot" data-plot="x" data-points="2" width="300" height="200">'
                '<polyline points="0,0 100,100" stroke="red"/></svg></body></html>')
    if not any("too wide" in p for p in check_page(browser, wide, work, artifacts, "selftest-wide", 0)):
        return "a page wider than a phone passed the check"
    tall = os.path.join(work, "tall.html")
    with open(tall, "w") as f:
        f.write('<html><body><table><tr><td style="width:1px">' + " ".join(["word"] * 40) + '</td><td>x</td></tr></table></body></html>')
    if not any("a table row is" in p for p in check_page(browser, tall, work, artifacts, "selftest-tall-row", 0, expect_plots=False)):
        return "a table with a row stretched to a word per line passed the check"
    return None


def lba_needles(report_path):
    """What the page must show of a real burn-in: each stall and each mismatch of its report, by LBA."""
    with open(report_path, encoding="utf-8") as f:
        dev = json.load(f)["devices"][0]
    needles = [f"Stall: {s['direction']} at LBA {s['lba']} " for s in dev.get("watchdog", {}).get("stalls", [])]
    needles += [f"Mismatch at LBA {m['lba']} " for m in dev.get("verify", {}).get("first_mismatches", [])]
    return needles


def main():
    diskvet, fixtures, checked_in, artifacts = sys.argv[1:5]
    real_burnin = sys.argv[5] if len(sys.argv) > 5 else None
    browser = chromium()
    if not browser:
        print("SKIP: no chromium (apt-get install chromium; scripts/deps.sh installs it)")
        return SKIP
    os.makedirs(artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix="diskvet-browser-")
    try:
        why = self_test(browser, work, artifacts)
        if why:
            print("FAIL: self-test: " + why)
            return 1
        subprocess.run([fixtures, work], check=True)
        shutil.copy(checked_in, os.path.join(work, "schema1-quick-two-loops.json"))
        pages = {"multi-pass": 2, "fail": 1, "burnin-stall-mismatch": 1, "cloud-burst": 1, "schema1-quick-two-loops": 2}
        problems = []
        needles = {"burnin-stall-mismatch": ('data-plot="health"', "stall 5 s", "Mismatch at LBA 16384 ", "Stall: read at LBA 2048 "),
                   "cloud-burst": ("burst ends: 1000 to 60 IOPS", "Burst: burst of 1000 IOPS for 10 s, then a baseline of 60 IOPS")}
        if real_burnin and os.path.exists(real_burnin):
            shutil.copy(real_burnin, os.path.join(work, "burnin-real-stall-mismatch.json"))
            needles["burnin-real-stall-mismatch"] = tuple(lba_needles(real_burnin))
            pages["burnin-real-stall-mismatch"] = 1
            kinds = [n.split(" at LBA")[0] for n in needles["burnin-real-stall-mismatch"]]
            print(f"burn-in page: a real burn-in's report ({real_burnin}): {kinds.count('Stall: read') + kinds.count('Stall: write')} stall(s), "
                  f"{kinds.count('Mismatch')} mismatch(es) checked on the page by LBA")
            if not any(n.startswith("Stall:") for n in needles["burnin-real-stall-mismatch"]) or not any(n.startswith("Mismatch") for n in needles["burnin-real-stall-mismatch"]):
                problems.append("burnin-real-stall-mismatch: the real burn-in's report holds no stall or no mismatch")
            print("burn-in page: the injected fixture is rendered too, for the health series a loop device has not")
        else:
            print("NOTE: burn-in page from the INJECTED fixture only (a null-engine run with a stall and a mismatch added): "
                  f"no report of a real burn-in on a stalling device at {real_burnin or '(none given)'} "
                  "(burnin.real_stall_report writes it; it needs root, loop devices and FUSE)")
        for name, cards in pages.items():
            html = os.path.join(work, name + ".html")
            p = subprocess.run([diskvet, "report", os.path.join(work, name + ".json"), "--html", html], capture_output=True, text=True)
            if not os.path.exists(html):
                problems.append(f"{name}: diskvet report wrote no page: {p.stderr}")
                continue
            with open(html, encoding="utf-8") as f:
                page = f.read()
            for needle in needles.get(name, ()):
                if needle not in page:
                    problems.append(f"{name}: '{needle}' is not on the page")
            problems += check_page(browser, html, work, artifacts, name, cards)
        # compare (the passing pair's drive against the failing report's, matched by serial) and fleet
        # (every report): the pages issue 28 found unusable.
        views = {"compare": ([diskvet, "compare", os.path.join(work, "multi-pass.json"), os.path.join(work, "fail.json")], True,
                             ('data-plot="compare-percentiles"', 'data-plot="compare-iops"', 'data-plot="compare-sweep"')),
                 "fleet": ([diskvet, "fleet"] + [os.path.join(work, n + ".json") for n in pages], False, ())}
        for name, (cmd, plots, page_needles) in views.items():
            html = os.path.join(work, name + ".html")
            p = subprocess.run(cmd + ["--html", html], capture_output=True, text=True)
            if not os.path.exists(html):
                problems.append(f"{name}: diskvet {cmd[1]} wrote no page (exit {p.returncode}): {p.stderr}")
                continue
            with open(html, encoding="utf-8") as f:
                page = f.read()
            problems += [f"{name}: '{n}' is not on the page" for n in page_needles if n not in page]
            problems += check_page(browser, html, work, artifacts, name, 0, expect_plots=plots)
        for p in problems:
            print("FAIL: " + p)
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
