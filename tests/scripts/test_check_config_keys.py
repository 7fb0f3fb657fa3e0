#!/usr/bin/env python3
"""CTest check of scripts/check_config_keys.py, the check that every registered
configuration key is spelt once, at its declaration: on a small source tree of its
own it passes when every key is declared once and used through its constant, and
fails, naming the place, on a literal of a key elsewhere (also one split into
adjacent pieces), on a second declaration, on a key declared nowhere and on a
constant not named after its key; comments, longer strings, tests/ and a line
marked "not a configuration key" are left alone. (CTest config_keys runs it on
the real tree.)
usage: test_check_config_keys.py"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "check_config_keys.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import write_tree  # noqa: E402

CLEAN = {
    "hw/keys.h": '#define HW_KEY_DISK_RPM "disk.rpm"\n',
    "tlm_models/disk_params.h": (
        "namespace starfish::keys {\n"
        "inline constexpr config::RealKey disk_rpm{HW_KEY_DISK_RPM};\n"
        "inline constexpr config::StringKey fs_kind{\n"
        '    "fs.kind"};\n'
        "}\n"),
    "sim/reader.cpp": (
        "// reads \"fs.kind\" and \"disk.rpm\" (comments are not literals)\n"
        "double f(const Config &c) { return c.get_real(keys::disk_rpm); }\n"
        'const char *message = "fs.kind = spfs needs a block list";\n'
        '/* "disk.rpm" */ char quote = \'"\'; const char *r = R"x("fs.kind": 1)x";\n'
        '#define STAT_KIND "fs.kind" /* a statistic; not a configuration key */\n'),
    "tests/test_reader.cpp": 'double g(const Config &c) { return c.get_real(RealKey{"disk.rpm"}); }\n',
}


def run(tree, keys_file):
    return subprocess.run([sys.executable, CHECK, tree, "--keys", keys_file],
                          capture_output=True, text=True)


def expect_failure(tmp, keys_file, files, *parts):
    r = run(write_tree(tmp, files), keys_file)
    assert r.returncode == 1, (files, r.stdout, r.stderr)
    for part in parts:
        assert part in r.stdout, (part, r.stdout)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        keys_file = os.path.join(tmp, "config.json")
        with open(keys_file, "w") as f:
            json.dump({"parameters": [{"key": "disk.rpm"}, {"key": "fs.kind"}]}, f)

        r = run(write_tree(tmp, CLEAN), keys_file)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "each of the 2 registered keys" in r.stdout, r.stdout

        # A literal of a key at a read, in C or C++, also as adjacent pieces.
        injected = dict(CLEAN)
        injected["sim/reader.cpp"] += 'double h(const Config &c) { return c.get_real("disk.rpm"); }\n'
        expect_failure(tmp, keys_file, injected,
                       'sim/reader.cpp:6: "disk.rpm" written as a literal; use its constant '
                       "(declared at hw/keys.h:1)")
        injected = dict(CLEAN)
        injected["fw/app.c"] = 'int x(void) { return hal_config_int(h, "fs." "kind"); }\n'
        expect_failure(tmp, keys_file, injected, 'fw/app.c:1: "fs.kind" written as a literal')

        # Declared twice, declared nowhere, a constant named otherwise.
        twice = dict(CLEAN)
        twice["fw/keys.h"] = '#define FW_KEY_FS_KIND "fs.kind"\n'
        expect_failure(tmp, keys_file, twice, '"fs.kind" declared again (first at ')
        nowhere = dict(CLEAN)
        nowhere["hw/keys.h"] = "#define HW_KEY_DISK_RPM DISK_RPM_NAME\n"
        expect_failure(tmp, keys_file, nowhere,
                       '"disk.rpm" is registered but declared nowhere in the sources')
        misnamed = dict(CLEAN)
        misnamed["tlm_models/disk_params.h"] = misnamed["tlm_models/disk_params.h"].replace(
            "fs_kind{", "kind{")
        expect_failure(tmp, keys_file, misnamed,
                       '"fs.kind": constant kind should be named fs_kind')

        # Unusable arguments.
        r = subprocess.run([sys.executable, CHECK, tmp], capture_output=True, text=True)
        assert r.returncode == 2, r.stdout + r.stderr
    print("check_config_keys.py: passes on a clean tree, fails on each kind of misspelling")
    return 0


if __name__ == "__main__":
    sys.exit(main())
