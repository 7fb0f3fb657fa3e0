#!/usr/bin/env python3
"""CTest check of scripts/check_identity.sh, the bit-identity check of two builds
over the shipped studies: the same binary against itself on one small shipped
study must pass (exit 0, "bit-identical"), and a binary whose results differ (here
the same one with the router delay changed, through a wrapper) must be reported
as DIFFERENT with exit 1.
usage: test_check_identity.py STARFISH_BINARY"""
import os
import stat
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "check_identity.sh")
STUDY = "ddio-main"  # 24 small DDIO trials at the script's 2 MB


def check(before, after, out):
    return subprocess.run(["bash", CHECK, before, after, out, STUDY], capture_output=True,
                          text=True)


def main():
    starfish = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        same = check(starfish, starfish, os.path.join(tmp, "same"))
        assert same.returncode == 0, same.stdout + same.stderr
        assert f"{STUDY}: 24 trials bit-identical" in same.stdout, same.stdout

        wrapper = os.path.join(tmp, "starfish-slower-routers")
        with open(wrapper, "w") as f:
            f.write(f'#!/bin/sh\nexec "{starfish}" "$@" --set net.router_delay_cycles=3\n')
        os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
        other = check(starfish, wrapper, os.path.join(tmp, "other"))
        assert other.returncode == 1, other.stdout + other.stderr
        assert f"{STUDY}: DIFFERENT" in other.stdout, other.stdout
    print("check_identity.sh: identical builds pass, a changed one is reported")


if __name__ == "__main__":
    main()
