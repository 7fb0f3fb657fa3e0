#!/usr/bin/env python3
"""CTest check of scripts/check_identity.sh, the bit-identity check of two builds
over the shipped studies: the same binary against itself on one small shipped
study must pass (exit 0, "bit-identical"), a binary whose results differ (here the
same one with the router delay changed, through a wrapper) must be reported as
DIFFERENT with exit 1, and naming a study too large for a session (lu-paper)
must run its small stand-ins instead.
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
        # A study too large for a session, named, is replaced by its small stand-ins
        # (LU at N = 512, the 10 MB file-size cells) instead of running for an hour.
        large = subprocess.run(["bash", CHECK, starfish, starfish, os.path.join(tmp, "large"),
                                "lu-paper"], capture_output=True, text=True, timeout=600)
        assert large.returncode == 0, large.stdout + large.stderr
        assert "lu-paper: too large to run twice here" in large.stdout, large.stdout
        assert "lu-ddio: 1 trials bit-identical" in large.stdout, large.stdout
        assert "lu-paper: FAILED" not in large.stdout, large.stdout
        assert not os.path.exists(os.path.join(tmp, "large", "lu-paper.after.json"))
    print("check_identity.sh: identical builds pass, a changed one is reported, a large "
          "study named runs as its stand-ins")


if __name__ == "__main__":
    main()
