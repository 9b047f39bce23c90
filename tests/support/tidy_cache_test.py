#!/usr/bin/python3
"""scripts/tidy_cache.py on a two-file Ninja project with a stand-in clang-tidy that logs what it checks:
a unit found clean is not checked again, also from another clone; an edited header, an edited
.clang-tidy, a unit not rebuilt since its header changed, and a unit with findings are.

    tidy_cache_test.py PATH/TO/tidy_cache.py
"""
import os
import shutil
import subprocess
import sys
import tempfile

FAKE_TIDY = """#!/bin/sh
[ "$1" = --version ] && { echo "stand-in clang-tidy 1"; exit 0; }
for a; do f=$a; done
echo "$f" >> "$TIDY_LOG"
if grep -q FINDING "$f"; then echo "$f:1:1: warning: a finding [stand-in]"; exit 1; fi
"""
CMAKE = """cmake_minimum_required(VERSION 3.16)
project(tiny CXX)
add_library(tiny a.cpp b.cpp)
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def build(top):
    subprocess.run(["cmake", "-S", top, "-B", f"{top}/build", "-G", "Ninja", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                   check=True, capture_output=True)
    subprocess.run(["cmake", "--build", f"{top}/build"], check=True, capture_output=True)


def main(argv):
    script = os.path.abspath(argv[1])
    failures = []
    with tempfile.TemporaryDirectory(prefix="diskvet-tidy-cache-") as tmp:
        top, clone = os.path.join(tmp, "top"), os.path.join(tmp, "clone")
        os.makedirs(top)
        write(f"{top}/CMakeLists.txt", CMAKE)
        write(f"{top}/a.hpp", "inline int a_value() { return 1; }\n")
        write(f"{top}/a.cpp", '#include "a.hpp"\nint a() { return a_value(); }\n')
        write(f"{top}/b.cpp", "int b() { return 2; }\n")
        write(f"{top}/.clang-tidy", "Checks: 'bugprone-*'\n")
        tidy = f"{tmp}/tidy"
        write(tidy, FAKE_TIDY)
        os.chmod(tidy, 0o755)
        log = f"{tmp}/checked.log"
        env = dict(os.environ, TIDY_BIN=tidy, TIDY_LOG=log, DISKVET_TIDY_CACHE=f"{tmp}/cache", TIDY_JOBS="2")

        def run(where, expect_rc, expect_checked, why):
            open(log, "w").close()
            r = subprocess.run([sys.executable, script, f"{where}/build", where, r"\.cpp$", "^" + where],
                               env=env, capture_output=True, text=True)
            checked = sorted(os.path.basename(l) for l in open(log).read().split())
            ok = r.returncode == expect_rc and checked == expect_checked
            print(f"{'ok  ' if ok else 'FAIL'} {why}: exit {r.returncode}, checked {checked}")
            if not ok:
                print(r.stdout + r.stderr)
                failures.append(why)

        build(top)
        run(top, 0, ["a.cpp", "b.cpp"], "a first run checks every unit")
        run(top, 0, [], "a second run checks none")
        shutil.copytree(top, clone, ignore=shutil.ignore_patterns("build"))
        build(clone)
        run(clone, 0, [], "another clone of the same code checks none")
        write(f"{top}/a.hpp", "inline int a_value() { return 3; }\n")
        build(top)
        run(top, 0, ["a.cpp"], "an edited header checks the unit that includes it")
        write(f"{top}/a.hpp", "inline int a_value() { return 4; }\n")
        run(top, 0, ["a.cpp"], "a unit not rebuilt since its header changed is checked")
        build(top)
        write(f"{top}/.clang-tidy", "Checks: 'bugprone-*,performance-*'\n")
        run(top, 0, ["a.cpp", "b.cpp"], "an edited .clang-tidy checks every unit")
        write(f"{top}/b.cpp", "int b() { return 2; }  // FINDING\n")
        build(top)
        run(top, 1, ["b.cpp"], "a unit with a finding fails the run")
        run(top, 1, ["b.cpp"], "and is checked again the next time")
    if failures:
        print(f"tidy_cache_test: {len(failures)} case(s) failed")
        return 1
    print("tidy_cache_test: all cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
