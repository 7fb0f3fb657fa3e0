#!/usr/bin/env python3
"""CTest check of scripts/iop_sharing.py (docs/calibration.md, item 3): the sharing
count on a hand-made log, then the script end to end on a 1 MB `wbc` with 8-byte
records, whose four CP rows all start on IOP 0 (a convoy of every CP), and its
refusal of a pattern that has no published cell.
usage: test_iop_sharing.py STARFISH"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "iop_sharing.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iop_sharing import sharing  # noqa: E402
from script_checks import assert_refused  # noqa: E402


def req(t, cp, dst):
    return f"[FW {t:.12f}] cp{cp}.fw >> REQUEST id=0x1 src={cp} dst={dst} type=19 bytes=8\n"


def check_counting():
    lines = [
        req(0.001, 0, 16), req(0.001, 1, 16),  # every CP has sent: both at node 16
        "[FW 0.001500000000] cp0.fw << REQUEST id=0x1 status=0\n",  # a reply: not counted
        req(0.002, 2, 16),  # CP 2 (of three) completes the set: all three at 16 -> 3
        req(0.003, 0, 17),  # CP 0 moves on alone -> 1
        req(0.004, 1, 17),  # CP 1 joins it -> 2
        req(0.012, 2, 16),  # CP 2 still alone at 16 -> 1
    ]
    hist, profile = sharing(lines, 3, profile_s=0.010)
    assert dict(hist) == {3: 1, 1: 2, 2: 1}, hist
    assert [(round(s, 3), n, round(m, 3)) for s, n, m in profile] == \
        [(0.0, 3, 2.0), (0.01, 1, 1.0)], profile


def check_end_to_end(starfish):
    run = subprocess.run([sys.executable, SCRIPT, starfish, "--patterns", "wbc",
                          "--profile-ms", "20", "--set", "workload.file_mb=1"],
                         capture_output=True, text=True, check=True)
    out = run.stdout
    assert "iop_sharing: [1/1] wbc ..." in run.stderr, run.stderr  # progress, not in the table
    assert "iop_sharing:" not in out, out
    rows = [line for line in out.splitlines() if line.startswith("| `wbc`")]
    assert len(rows) == 1, out
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    mbps, published, mean, alone, every = (float(c) for c in cells[1:6])
    # SPFS wbc 8 B is printed 0.8; its ratios put the mean at 0.8487 (published_means.py).
    assert mbps > 0 and published == 0.85, cells
    assert 1.0 <= mean <= 16.0 and 0.0 <= alone <= 1.0 and 0.0 <= every <= 1.0, cells
    shares = [float(kv.split(":")[1]) for kv in cells[6].split(",")]
    assert 0.9 <= sum(shares) <= 1.0 + 1e-9, cells  # shares below 1% are left out
    first = [line for line in out.splitlines() if line.startswith("| 0 |")]
    assert len(first) == 1, out
    assert float(first[0].strip("|").split("|")[2]) > 15.5, first  # the opening convoy
    assert_refused(SCRIPT, [starfish, "--patterns", "ra"], "'ra' is not one of")


def main():
    check_counting()
    check_end_to_end(sys.argv[1])
    print("test_iop_sharing: ok")


if __name__ == "__main__":
    main()
