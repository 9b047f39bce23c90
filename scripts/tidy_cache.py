#!/usr/bin/python3
"""clang-tidy over the build's translation units that match a pattern, skipping each one whose inputs
were already found clean: scripts/tidy.sh's engine.

    tidy_cache.py BUILD_DIR TOP FILE_REGEX HEADER_FILTER

A unit's key is a hash of everything its findings depend on: clang-tidy's version, TOP/.clang-tidy,
the header filter, the unit's compile command, and the content of the source and of every header the
last build read for it (ninja's deps log: the same inputs give the same preprocessed source). Paths
under TOP are hashed relative to it, so another clone or worktree of the same code on this machine
reuses the keys. A unit found clean (exit 0, no finding) leaves its key in the cache directory
($DISKVET_TIDY_CACHE, default ~/.cache/diskvet/tidy); a unit with findings is checked again every
time, and so is one ninja has no deps for or that is older than one of its inputs (not rebuilt since
an edit), since its header list may be out of date. A miss costs only what clang-tidy costs.
TIDY_JOBS (default 2) units are checked at once; TIDY_BIN names clang-tidy (default clang-tidy-14).
Exit 0 when every unit is clean.
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time


def object_of(entry):
    args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
    return os.path.normpath(os.path.join(entry["directory"], args[args.index("-o") + 1]))


def ninja_deps(build, objects):
    """{object: [input paths]} from ninja's deps log, for the objects it has a record of."""
    out = subprocess.run(["ninja", "-C", build, "-t", "deps"] + [os.path.relpath(o, build) for o in objects],
                         capture_output=True, text=True, check=False).stdout
    deps, current = {}, None
    for line in out.splitlines():
        if line.startswith("    ") and current is not None:
            deps[current].append(os.path.normpath(os.path.join(build, line.strip())))
        elif line and not line.startswith(" "):
            name, _, rest = line.partition(": ")
            current = os.path.normpath(os.path.join(build, name)) if rest.startswith("#deps") else None
            if current is not None:
                deps[current] = []
    return deps


class Keys:
    def __init__(self, build, top, fixed):
        self.build, self.top, self.fixed, self.digests = build, top, fixed, {}

    def portable(self, text):
        # The build directory first: it usually lies under the checkout.
        return text.replace(self.build, "@BUILD@").replace(self.top, "@TOP@")

    def digest(self, path):
        if path not in self.digests:
            with open(path, "rb") as f:
                self.digests[path] = hashlib.sha256(f.read()).hexdigest()
        return self.digests[path]

    def key(self, entry, obj, inputs):
        """The unit's key, or None when the deps record cannot be trusted (missing or older than an input)."""
        if inputs is None or not os.path.exists(obj):
            return None
        built = os.stat(obj).st_mtime_ns
        h = hashlib.sha256(self.fixed.encode())
        h.update(self.portable(entry.get("command") or shlex.join(entry["arguments"])).encode())
        for path in [entry["file"]] + inputs:
            try:
                if os.stat(path).st_mtime_ns > built:
                    return None
                h.update(f"\0{self.portable(path)}\0{self.digest(path)}".encode())
            except OSError:
                return None
        return h.hexdigest()


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip())
        return 2
    build, top = os.path.realpath(argv[1]), os.path.realpath(argv[2])
    pattern, header_filter = re.compile(argv[3]), argv[4]
    tidy = os.environ.get("TIDY_BIN", "clang-tidy-14")
    jobs = int(os.environ.get("TIDY_JOBS", "2"))
    cache = os.environ.get("DISKVET_TIDY_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "diskvet", "tidy")
    os.makedirs(cache, exist_ok=True)
    start = time.monotonic()

    with open(os.path.join(build, "compile_commands.json")) as f:
        units = [e for e in json.load(f) if pattern.search(e["file"])]
    version = subprocess.run([tidy, "--version"], capture_output=True, text=True, check=True).stdout
    config_path = os.path.join(top, ".clang-tidy")
    config = open(config_path).read() if os.path.exists(config_path) else ""
    keys = Keys(build, top, "\0".join([version, config, header_filter.replace(top, "@TOP@")]))
    objects = {e["file"]: object_of(e) for e in units}
    deps = ninja_deps(build, list(objects.values()))

    todo = []
    for e in units:
        k = keys.key(e, objects[e["file"]], deps.get(objects[e["file"]]))
        if k is None or not os.path.exists(os.path.join(cache, k)):
            todo.append((e["file"], k))

    def check(item):
        path, k = item
        r = subprocess.run([tidy, f"-header-filter={header_filter}", f"-p={build}", "-quiet", path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        said = [l for l in r.stdout.splitlines() if not re.fullmatch(r"\d+ warnings? generated\.", l)]
        clean = r.returncode == 0 and not any(re.search(r"\b(warning|error):", l) for l in said)
        if clean and k is not None:
            open(os.path.join(cache, k), "w").close()
        return path, clean, said

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for path, clean, said in pool.map(check, sorted(todo)):
            if said:
                print("\n".join(said))
            if not clean:
                failed += 1
                print(f"tidy: findings in {os.path.relpath(path, top)}")
    print(f"tidy: {len(units)} units, {len(units) - len(todo)} clean before (cache), {len(todo)} checked, "
          f"{failed} with findings, in {time.monotonic() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
