#!/usr/bin/env python3
"""CTest check of scripts/compare_results.py, the bit-identity check that every
refactoring and speed-up runs on the study JSONs: the same small study run twice
must compare identical (the simulator is deterministic), a run with one cost
changed must be reported with the differing fields and exit 1, and unusable input
exits 2.
usage: test_compare_results.py STARFISH_BINARY"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(ROOT, "scripts", "compare_results.py")


def study(starfish, tmp, name, *sets):
    spec = os.path.join(tmp, "tiny.json")
    with open(spec, "w") as f:
        json.dump({"description": "compare_results test", "set": {"fs.kind": "ddio"},
                   "vary": [{"workload.pattern": ["rb", "wc"]}]}, f)
    out = os.path.join(tmp, name)
    # --no-cache: both runs must really simulate (and leave the user's cache alone).
    cmd = [starfish, "study", spec, "--jobs", "2", "--no-cache", "--json", out,
           "--set", "workload.file_mb=1", "--set", "workload.trials=2"]
    for s in sets:
        cmd += ["--set", s]
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


def compare(*args):
    return subprocess.run([sys.executable, COMPARE, *args], capture_output=True, text=True)


def main():
    starfish = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        a = study(starfish, tmp, "a.json")
        b = study(starfish, tmp, "b.json")
        c = study(starfish, tmp, "c.json", "cost.ddio_piece_cycles=400")
        same = compare(a, b)
        print(same.stdout)
        assert same.returncode == 0, same.stdout + same.stderr
        assert "4 trials bit-identical" in same.stdout, same.stdout
        diff = compare(a, c)
        print(diff.stdout)
        assert diff.returncode == 1, diff.stdout + diff.stderr
        assert "DIFFERENT" in diff.stdout and ".elapsed_s:" in diff.stdout, diff.stdout
        # A field can be excluded, but the simulated time still differs.
        assert compare(a, c, "--ignore", "events").returncode == 1
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{}")
        assert compare(a, bad).returncode == 2
        assert compare(a, os.path.join(tmp, "missing.json")).returncode == 2
    print("compare_results.py: identical, different and unusable inputs behave")


if __name__ == "__main__":
    main()
