#!/usr/bin/env python3
"""Fuzzes the appliance's settings (image/settings.sh) as the image runs them: busybox sh and busybox's
own sed/tr/grep, a diskvet.conf and a kernel command line built from valid settings, near misses and
shell metacharacters. Each case is checked against a model of what the settings mean:

- no input is evaluated: a canary file that `$(...)`, backticks, `;` or `|` would create never appears;
- no input is expanded as a file name pattern: the working directory holds files named like a serial
  ("SERA") and "GLOBHIT"; `SER*` must stay `SER*` (a bad parameter), never consent to SERA's disk;
- every setting lands where the model says (conf first, the command line over it, the last one wins),
  the number of BAD PARAMETER lines is the model's, and the shell prints nothing on stderr;
- when nothing is bad and a suite is named, diskvet gets exactly the model's arguments (each device and
  each consent one argument, as written); when anything is bad, diskvet is not run at all;
- serve=1 is bad unless the DISKVET partition has an authorized_keys with a key line (a missing file or
  one of comments and blanks is refused: no SSH server without a key).

  settings_fuzz.py SETTINGS_SH [--seconds S] [--seed N]   (random cases for S seconds, at least 20)
Exit 77 (skipped) without busybox. A failing case is printed whole, with the seed that makes it.
"""
import os, random, re, shutil, stat, subprocess, sys, tempfile, time

SKIP = 77
KEYS = ["run", "devices", "destroy-data", "profile", "poweroff", "deadline", "shell", "serve"]
AUTHORIZED_KEYS = {None: None, "key": "# lab\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFake lab\n", "comments": "# none yet\n\n  \t\n"}
DISKS = ["/dev/fakea", "/dev/fakeb", "/dev/fakec"]          # fakeb is the boot medium
PROPS = {"/dev/fakea": ["ID_SERIAL_SHORT=SERA", "ID_WWN=0x5000a"], "/dev/fakeb": ["ID_SERIAL_SHORT=SERB"],
         "/dev/fakec": ["ID_SERIAL_SHORT=SERC", "ID_SERIAL=Model_SERC"]}
BOOT = "/dev/fakeb"
NASTY = ["$(touch CANARY)", "`touch CANARY`", "a;touch CANARY", "a|touch CANARY", "a&&touch CANARY",
         "SER*", "S*", "*", "SER?", "[S]ERA", "GLOB*", "~", "$HOME", "${IFS}", "'", '"', "\\", "\\n", "-n", "-e",
         "-h", "--all", "--destroy-data", "%s%n", "!", "(", "=", "a=b", "#", "all-unprotected,*"]
IDS = ["SERA", "SERB", "SERC", "0x5000a", "Model_SERC", "SERX", "all-unprotected", "all", "SERA/1", "/dev/fakea",
       "/dev/null", ""]
RUNS = ["quick", "acceptance", "burnin", "suite.json", "sub/s.json", "missing.json", "a/b", "QUICK", "-quick", ""]
NUMS = ["0", "1", "2", "", "30", "0030", "123456789", "1234567890", "99999999999999999999", "-1", "1e3", "+5", "0x10"]
PROFILES = ["auto", "", "lab.json", "p-1_2.x", "nope.json", "a b", "-x", "dir/p.json", "Ä", "p;q",
            "aws-gp3:iops=6000,mbps=250", "azure-premium-ssd:tier=P10", "gcp-pd-ssd:size=500g", "aws-gp3:iops=$(x)",
            "aws-gp3:", "aws-gp3:iops", "aws-gp3:iops=6000,", "aws-gp3:iops=6000;x", ":iops=1", "aws-gp3:iops=1:mbps=2"]
# A cloud family with parameters, as image/settings.sh's profile_params_re accepts it.
VALUE = r"(?:[0-9]+(?:\.[0-9]+)?[kmgtKMGT]?|[A-Za-z][0-9]+)"
PROFILE_PARAMS = rf"[a-z][a-z0-9-]*:[a-z]+={VALUE}(?:,[a-z]+={VALUE})*"
PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7f))


def busybox_bin(tmp):
    bb = shutil.which("busybox")
    if not bb:
        print("SKIP: busybox not installed (scripts/deps.sh installs busybox-static)")
        sys.exit(SKIP)
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    for applet in ["sh", "sed", "tr", "grep", "cat", "touch", "printf", "echo", "mkdir", "wc"]:
        os.symlink(bb, os.path.join(bindir, applet))
    return bindir


def split_ids(v):
    return [w for w in re.split(r"[ \t\n,]+", v) if w]


class Model:
    def __init__(self, cwd, data_mnt, keys):
        self.cwd, self.data_mnt, self.keys = cwd, data_mnt, keys
        self.s = {k: "" for k in KEYS}
        self.bad = 0

    def set(self, key, val, source):
        if key in self.s:
            self.s[key] = val
        elif key == "boot":
            self.bad += source != "cmdline"
        else:
            self.bad += 1

    def load(self, conf, cmdline):
        if conf is not None:
            for line in conf.split("\n") if conf else []:
                line = re.sub(r"#.*", "", line)
                line = re.sub(r"^[ \t]*", "", line)
                line = re.sub(r"[ \t\r]*$", "", line)
                if not line:
                    continue
                if "=" not in line:
                    self.bad += 1
                    continue
                key, val = line.split("=", 1)
                self.set(key[len("diskvet."):] if key.startswith("diskvet.") else key, val, "conf")
        for word in cmdline.split():
            if word.startswith("diskvet.") and "=" in word[len("diskvet."):]:
                key, val = word.split("=", 1)
                self.set(key[len("diskvet."):], val, "cmdline")

    def isfile(self, p):
        return os.path.isfile(os.path.join(self.cwd, p))

    def resolve(self, want):
        if want.startswith("/dev/"):
            try:
                return want if stat.S_ISBLK(os.stat(want).st_mode) else None
            except OSError:
                return None
        if not want or want.startswith("-"):
            return None
        for d in DISKS:
            if any(p == k + "=" + want for p in PROPS[d] for k in
                   ["ID_SERIAL_SHORT", "ID_SERIAL", "ID_WWN", "ID_WWN_WITH_EXTENSION"]):
                return d
        return None

    def validate(self):
        s = self.s
        if (s["poweroff"] or "0") not in ("0", "1"):
            self.bad += 1
        d = s["deadline"] or "0"
        if not re.fullmatch(r"[0-9]+", d) or len(d) >= 10:
            self.bad += 1
        if (s["shell"] or "0") not in ("0", "1"):
            self.bad += 1
        if (s["serve"] or "0") not in ("0", "1") or (s["serve"] == "1" and self.keys != "key"):
            self.bad += 1
        run = s["run"]
        if not run:
            return None
        if run in ("quick", "acceptance", "burnin"):
            pass
        elif run.startswith("-"):
            self.bad += 1
        elif "/" in run or run.endswith(".json"):
            if not (self.isfile(run) or os.path.isfile(os.path.join(self.data_mnt, run))):
                self.bad += 1
        else:
            self.bad += 1
        if os.path.isfile(os.path.join(self.data_mnt, run)):
            run = os.path.join(self.data_mnt, run)
        devices = []
        if s["devices"] in ("", "all"):
            devices = [d for d in DISKS if d != BOOT]
        else:
            for i in split_ids(s["devices"]):
                dev = self.resolve(i)
                if dev is None or dev == BOOT:
                    self.bad += 1
                else:
                    devices.append(dev)
        if not devices:
            self.bad += 1
        for i in split_ids(s["destroy-data"]):
            if i == "all-unprotected":
                continue
            dev = self.resolve(i)
            if dev is None or dev == BOOT:
                self.bad += 1
        profile = s["profile"]
        if profile not in ("", "auto") and ":" in profile:
            if not re.fullmatch(PROFILE_PARAMS, profile):
                self.bad += 1
        elif profile not in ("", "auto"):
            if profile.startswith("-") or re.search(r"[^A-Za-z0-9._/-]", profile):
                self.bad += 1
            elif os.path.isfile(os.path.join(self.data_mnt, profile)):
                profile = os.path.join(self.data_mnt, profile)
        argv = ["run", "--suite", run]
        for dev in devices:
            argv += ["--device", dev]
        for i in split_ids(s["destroy-data"]):
            argv += ["--destroy-data", i]
        if profile:
            argv += ["--profile", profile]
        return argv + ["--out", "REPORT"]


DRIVER = r'''
STATE=$T/state; DATA_MNT=$T/data; data_dev=/dev/fakedata
say() { printf 'diskvet-init: %s\n' "$*"; }
whole_disks() { local d; for d in "$T"/sysblock/*; do echo "/dev/${d##*/}"; done; }  # globs, as init's does
is_boot_medium() { [ "$1" = /dev/fakeb ]; }
udevadm() {
  case "$*" in
    *--name=/dev/fakea) printf 'ID_SERIAL_SHORT=SERA\nID_WWN=0x5000a\n' ;;
    *--name=/dev/fakeb) printf 'ID_SERIAL_SHORT=SERB\n' ;;
    *--name=/dev/fakec) printf 'ID_SERIAL_SHORT=SERC\nID_SERIAL=Model_SERC\n' ;;
  esac
}
diskvet() { for a in "$@"; do printf '%s\0' "$a"; done > "$T/argv"; }
. "$SETTINGS"
load_settings "$T/diskvet.conf" "$T/cmdline"
for k in run devices destroy profile poweroff deadline shell serve; do eval "printf '%s' \"\$s_$k\"" > "$T/out.$k"; done
validate_settings
if [ ! -s "$STATE/bad-settings" ] && [ -n "$s_run" ]; then run_suite REPORT; fi
'''


def rand_text(rng, n):
    return "".join(rng.choice(PRINTABLE + "\t") for _ in range(rng.randint(0, n)))


def rand_value(rng, key):
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(NASTY)
    if pick < 0.35:
        return rand_text(rng, 12)
    pools = {"run": RUNS, "devices": IDS, "destroy-data": IDS, "profile": PROFILES,
             "poweroff": NUMS, "deadline": NUMS, "shell": NUMS, "serve": NUMS}
    pool = pools.get(key, IDS)
    if key in ("devices", "destroy-data") and rng.random() < 0.4:
        return ",".join(rng.choice(IDS + NASTY[:8]) for _ in range(rng.randint(2, 3)))
    return rng.choice(pool)


def rand_key(rng):
    r = rng.random()
    if r < 0.8:
        return rng.choice(KEYS)
    return rng.choice(["boot", "bogus", "", "RUN", "run ", "destroy_data", rand_text(rng, 5)])


def rand_case(rng):
    conf = None
    if rng.random() < 0.7:
        lines = []
        for _ in range(rng.randint(0, 6)):
            r = rng.random()
            if r < 0.7:
                key = rand_key(rng)
                if rng.random() < 0.2:
                    key = "diskvet." + key
                line = rng.choice(["", " ", "\t"]) + key + "=" + rand_value(rng, key).replace("\n", "")
                line += rng.choice(["", "", " ", "\t", "\r", " # note", "#x=y"])
            elif r < 0.8:
                line = "# " + rand_text(rng, 20)
            elif r < 0.9:
                line = rand_text(rng, 15)
            else:
                line = ""
            lines.append(line)
        conf = "\n".join(lines) + rng.choice(["\n", ""])
    words = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.75:
            key = rand_key(rng)
            val = re.sub(r"\s", "", rand_value(rng, key))
            words.append("diskvet." + key.replace(" ", "") + "=" + val)
        else:
            words.append(rng.choice(["console=ttyS0", "quiet", "diskvet.run", "panic=-1", "BOOT_IMAGE=/vmlinuz"]))
    return conf, " ".join(words) + "\n", rng.choice(list(AUTHORIZED_KEYS))


# Fixed cases first: each a way a value could have reached a disk it should not.
FIXED = [
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.destroy-data=SER*\n"),
    (None, "diskvet.run=quick diskvet.destroy-data=*\n"),
    (None, "diskvet.run=quick diskvet.devices=S* diskvet.destroy-data=SERA\n"),
    ("destroy-data=SERA SER?\nrun=quick\n", "\n"),
    ("run=quick\ndestroy-data=$(touch CANARY)\n", "diskvet.devices=SERA\n"),
    ("run=quick\ndevices=SERA\ndestroy-data=`touch CANARY`\n", "\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=--destroy-data\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.destroy-data=-h\n"),
    (None, "diskvet.run=quick diskvet.deadline=99999999999999999999 diskvet.poweroff=1\n"),
    ("run=quick\ndevices=SERA, SERC\ndestroy-data=SERA,SERC\nprofile=lab.json\n", "diskvet.profile=auto\n"),
    ("run=quick\n", "diskvet.devices=SERB\n"),
    ("boot=UUID=x\n", "diskvet.boot=UUID=y diskvet.run=quick\n"),
    # SERIAL/NSID with an empty part named a disk without nsid and serial files (fuzz seed 371379314).
    (None, "diskvet.run=quick diskvet.destroy-data=/\n"),
    (None, "diskvet.run=quick diskvet.devices=/ diskvet.destroy-data=SERA/\n"),
    # serve=1 without a key on the stick: refused, and the run with it (no SSH server without a key).
    (None, "diskvet.serve=1 diskvet.run=quick diskvet.devices=SERA\n", None),
    ("serve=1\n", "diskvet.run=quick diskvet.devices=SERA\n", "comments"),
    ("serve=1\n", "diskvet.run=quick diskvet.devices=SERA\n", "key"),
    ("serve=1\n", "diskvet.serve=0\n", None),
    (None, "diskvet.serve=yes\n", "key"),
    # A cloud family with parameters: accepted in its exact shape, refused with anything else.
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=6000,mbps=250\n"),
    ("run=quick\ndevices=SERA\nprofile=azure-premium-ssd:tier=P10,size=128g\n", "\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=$(touch${IFS}CANARY)\n"),
    ("run=quick\ndevices=SERA\nprofile=aws-gp3:iops=`touch CANARY`\n", "\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=6000;touch${IFS}CANARY\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=*\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=6000,\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=-x:iops=1\n"),
    (None, "diskvet.run=quick diskvet.devices=SERA diskvet.profile=aws-gp3:iops=6000:mbps=250\n"),
]


def run_case(tmp, bindir, settings, conf, cmdline, keys=None):
    case = tempfile.mkdtemp(dir=tmp)
    for sub in ["state", "data", "data/sub", "sysblock/fakea", "sysblock/fakeb", "sysblock/fakec"]:
        os.makedirs(os.path.join(case, sub))
    for f in ["SERA", "GLOBHIT", "data/suite.json", "data/sub/s.json", "data/lab.json"]:
        open(os.path.join(case, f), "w").close()
    if conf is not None:
        with open(os.path.join(case, "diskvet.conf"), "w", encoding="utf-8", newline="") as f:
            f.write(conf)
    with open(os.path.join(case, "cmdline"), "w", encoding="utf-8") as f:
        f.write(cmdline)
    if AUTHORIZED_KEYS[keys] is not None:
        with open(os.path.join(case, "data", "authorized_keys"), "w", encoding="utf-8") as f:
            f.write(AUTHORIZED_KEYS[keys])
    env = {"PATH": bindir, "T": case, "SETTINGS": settings, "LC_ALL": "C", "HOME": "/nonexistent"}
    p = subprocess.run([os.path.join(bindir, "sh"), "-c", DRIVER], cwd=case, env=env, capture_output=True,
                       timeout=120)
    model = Model(case, os.path.join(case, "data"), keys)
    model.load(conf, cmdline)
    got = {k: open(os.path.join(case, "out." + (k if k != "destroy-data" else "destroy")), encoding="utf-8",
                   errors="surrogateescape").read() for k in KEYS}
    want_argv = model.validate()
    problems = []
    if p.returncode != 0 or p.stderr:
        problems.append(f"shell exit {p.returncode}, stderr {p.stderr.decode(errors='replace')!r}")
    if os.path.exists(os.path.join(case, "CANARY")):
        problems.append("a value was evaluated: CANARY exists")
    if b"GLOBHIT" in p.stdout and "GLOBHIT" not in (conf or "") + cmdline:
        problems.append("a value was expanded as a file name pattern (GLOBHIT in the output)")
    if got != model.s:
        problems.append(f"settings {got} != model {model.s}")
    bad_file = os.path.join(case, "state", "bad-settings")
    bad = open(bad_file, "rb").read().count(b"\n") if os.path.exists(bad_file) else 0
    if bad != model.bad:
        problems.append(f"{bad} BAD PARAMETER lines, model says {model.bad}")
    argv_file = os.path.join(case, "argv")
    argv = open(argv_file, "rb").read().decode(errors="surrogateescape").split("\0")[:-1] \
        if os.path.exists(argv_file) else None
    expect = want_argv if model.bad == 0 else None
    if argv != expect:
        problems.append(f"diskvet argv {argv} != model {expect}")
    if problems:
        print("FAIL:", *problems, sep="\n  ")
        print("diskvet.conf:", repr(conf), "\ncmdline:", repr(cmdline), "\nauthorized_keys:", keys)
        print("stdout:", p.stdout.decode(errors="replace"))
        return False
    shutil.rmtree(case)
    return True


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    settings = os.path.abspath(args[0])
    seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else 10.0
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else random.SystemRandom().randrange(2**32)
    with tempfile.TemporaryDirectory() as tmp:
        bindir = busybox_bin(tmp)
        for fixed in FIXED:
            if not run_case(tmp, bindir, settings, *fixed):
                sys.exit(1)
        rng = random.Random(seed)
        n, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline or n < 20:
            if not run_case(tmp, bindir, settings, *rand_case(rng)):
                print(f"seed {seed}, case {n}: rerun with --seed {seed}")
                sys.exit(1)
            n += 1
        print(f"{len(FIXED)} fixed and {n} random cases (seed {seed}): every setting as the model says, "
              "nothing evaluated or expanded")


if __name__ == "__main__":
    main()
