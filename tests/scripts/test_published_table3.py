#!/usr/bin/env python3
"""CTest check of scripts/published_table3.py (docs/calibration.md, "Where the
reference material disagrees with itself"): a hand-made table whose ratios are
known, with DDIO on the contiguous layout counted as "DDIO sort" and DDIO without
presort on the random-blocks layout as "DDIO no sort"; the shipped table gives
Table III's maxima from the narrowed means and not from the printed values, and
Table III itself is read from sim/calibration/published_summary.csv; a duplicated
cell, an unknown method and a summary without a method's row are refused, naming
them.
usage: test_published_table3.py"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "published_table3.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import assert_refused  # noqa: E402

HEADER = "layout,method,presort,record,pattern,mbps,mean_lo,mean,mean_hi,table\n"


def write_table(directory, lines):
    path = os.path.join(directory, "table.csv")
    with open(path, "w") as f:
        f.write(HEADER + "".join(line + "\n" for line in lines))
    return path


def run(args):
    out = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)
    assert out.returncode == 0, out
    return out.stdout


def section(text, method):
    """The subset lines under one method's heading, {subset: 'n  min / gm / max'}."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(method + "  (Table III"))
    out = {}
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        name, rest = line[2:20].strip(), line[20:].strip()
        out[name] = rest
    return out


def check_hand_made(tmp):
    # SPFS 2 and 4 MB/s; DDIO 8 and 4 on the contiguous layout (ratios 4 and 1),
    # DDIO sort 8 / no sort 2 on random-blocks over SPFS 2 (4 and 1), 2PIO 1 over 4
    # (0.25) on the contiguous layout. The printed column differs so that --value
    # is seen to choose.
    table = write_table(tmp, [
        "contiguous,spfs,,8,rb,9,2,2,2,15", "contiguous,spfs,,8192,wc,9,4,4,4,15",
        "contiguous,ddio,,8,rb,9,8,8,8,15", "contiguous,ddio,,8192,wc,9,4,4,4,15",
        "contiguous,2pio,,8192,wc,9,1,1,1,17",
        "random-blocks,spfs,,8,rb,9,2,2,2,16", "random-blocks,ddio,true,8,rb,9,8,8,8,16",
        "random-blocks,ddio,false,8,rb,9,2,2,2,16"])
    out = run(["--table", table])
    sort = section(out, "DDIO sort")
    assert sort["all"] == "3  1.00 / 2.520 / 4.00", sort  # (4 * 1 * 4)^(1/3)
    assert sort["contiguous"] == "2  1.00 / 2.000 / 4.00", sort
    assert sort["random-blocks"] == "1  4.00 / 4.000 / 4.00", sort
    assert sort["8-byte records"] == "2  4.00 / 4.000 / 4.00", sort
    assert section(out, "DDIO no sort") == {"all": "1  1.00 / 1.000 / 1.00",
                                            "random-blocks": "1  1.00 / 1.000 / 1.00",
                                            "8-byte records": "1  1.00 / 1.000 / 1.00"}, out
    assert section(out, "2PIO")["all"] == "1  0.25 / 0.250 / 0.25", out
    printed = run(["--table", table, "--value", "mbps"])
    assert section(printed, "DDIO sort")["all"] == "3  1.00 / 1.000 / 1.00", printed


def check_shipped():
    # Table III's maxima (18.10, 5.88, 17.83) come back from the narrowed means,
    # not from the printed values (SPFS wbc 8 B printed 0.8).
    means = run([])
    assert "DDIO sort  (Table III: 1.00 / 1.64 / 18.10)" in means, means  # published_summary.csv
    assert section(means, "DDIO sort")["all"].endswith("/ 18.11"), means
    assert section(means, "DDIO no sort")["all"].endswith("/ 5.88"), means
    assert section(means, "2PIO")["all"].startswith("70  0.44 /"), means
    assert section(means, "2PIO")["all"].endswith("/ 17.80"), means
    printed = run(["--value", "mbps"])
    assert section(printed, "DDIO sort")["all"].endswith("/ 19.25"), printed


def check_refusals(tmp):
    dup = write_table(tmp, ["contiguous,spfs,,8,rb,1,1,1,1,15", "contiguous,spfs,,8,rb,1,1,1,1,15"])
    assert_refused(SCRIPT, ["--table", dup], "appears twice")
    odd = write_table(tmp, ["contiguous,xfs,,8,rb,1,1,1,1,15"])
    assert_refused(SCRIPT, ["--table", odd], "unknown method 'xfs'")
    assert_refused(SCRIPT, ["--table", os.path.join(tmp, "missing.csv")], "missing.csv")
    summary = os.path.join(tmp, "summary.csv")
    with open(summary, "w") as f:
        f.write("method,min,geomean,max\nDDIO sort,1.00,1.64,18.10\n2PIO,0.44,1.20,17.83\n")
    assert_refused(SCRIPT, ["--summary", summary], "no row for DDIO no sort")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_hand_made(tmp)
        check_refusals(tmp)
    check_shipped()
    print("published_table3: hand-made table, shipped table and refusals checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
