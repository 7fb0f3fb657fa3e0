#!/usr/bin/env python3
"""CTest check of scripts/permutation_rates.py (docs/calibration.md, item 4): the
paper's permutation time of a 2PIO cell (its time minus SPFS rb or wb), worked out
by hand from sim/calibration/published_final.csv; then the script end to end on a
1 MB file (the model's row: remote bytes 15/16 of the file for `rn`, a positive
time, the rate per aggregator over rn's 15 senders) and its refusal of a pattern it does not know;
--ratio-bounds, the permutation bounded by Table 21's 2PIO/SPFS ratio, worked out by
hand for random-blocks rbb, and the cells it cannot bound; and --queued-pairs, each
8-byte permutation less the 8192-byte one of the same pattern.
usage: test_permutation_rates.py STARFISH"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "permutation_rates.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from permutation_rates import load_published, paper_permutation_s, ratio_bounds  # noqa: E402
from script_checks import assert_refused  # noqa: E402


def close(x, y, tol=1e-6):
    return abs(x - y) <= tol


def check_paper_times():
    pub = load_published()
    # The published means (the `mean` column: printed values narrowed by the ratios).
    # Contiguous, 8192-byte records: 2PIO rbb 27.1, SPFS rb 31.3 MB/s, 10 MB each.
    assert close(paper_permutation_s(pub, "contiguous", "rbb"), 10 / 27.1 - 10 / 31.3)
    # Writes subtract SPFS wb (28.7): 2PIO wn, printed 24.1, mean 24.0817.
    assert close(paper_permutation_s(pub, "contiguous", "wn"), 10 / 24.0817 - 10 / 28.7)
    # ra delivers the file to all 16 CPs: 160 MB at 220 MB/s.
    assert close(paper_permutation_s(pub, "contiguous", "ra"), 160 / 220.0 - 10 / 31.3)
    # The random-blocks layout has its own cells: 2PIO rbb 4.4027, SPFS rb 4.4870
    # (printed 4.4 and 4.5).
    assert close(paper_permutation_s(pub, "random-blocks", "rbb"), 10 / 4.4027 - 10 / 4.4870)


def check_ratio_bounds(starfish):
    # Random-blocks rbb: Table 21 prints 2PIO / SPFS 0.98 (0.975-0.985); SPFS rbb is
    # its rb (4.4500-4.5239 MB/s narrowed), so the permutation is 10 MB / SPFS x
    # (1/q - 1): from 10 / 4.5239 x (1/0.985 - 1) to 10 / 4.45 x (1/0.975 - 1).
    b = ratio_bounds("random-blocks", ["rbb", "rbc"])
    text, significant, low, high = b["rbb"]
    assert text == "0.98" and not significant, b  # printed in italics
    assert close(low, 1e3 * 10 / 4.5239 * (1 / 0.985 - 1), 1e-3), b
    assert close(high, 1e3 * 10 / 4.45 * (1 / 0.975 - 1), 1e-3), b
    # SPFS rbc (4.3) is slower than its rb: not the I/O phase, not bounded.
    assert b["rbc"] is None, b
    # Contiguous SPFS rbb (14.7) is not its rb (31.3) either; rc is (31.4).
    b = ratio_bounds("contiguous", ["rbb", "rc"])
    assert b["rbb"] is None and b["rc"][0] == "0.92", b
    out = subprocess.run([sys.executable, SCRIPT, starfish, "--ratio-bounds", "--layout",
                          "random-blocks"], capture_output=True, text=True, check=True).stdout
    assert "| `rbb` | 0.98 | no | 34–58 |" in out, out
    assert "not bounded (SPFS's cell of the pattern is not its rb or wb): rcc, rbc, wcc" in out


def check_end_to_end(starfish):
    out = subprocess.run([sys.executable, SCRIPT, starfish, "--patterns", "rn", "--set",
                          "workload.file_mb=1"], capture_output=True, text=True, check=True).stdout
    rows = [line for line in out.splitlines() if line.startswith("| `rn`")]
    assert len(rows) == 1, out
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    paper_ms, remote_mb, paper_rate, paper_per = (float(c) for c in cells[1:5])
    model_ms, model_rate, model_per = (float(c) for c in cells[5:8])
    assert close(paper_ms, (10 / 26.4 - 10 / 31.3) * 1e3, 0.05), cells
    assert close(remote_mb, 15 / 16, 0.005), cells  # rn: every CP but the reader sends
    # rn's 15 senders share the rate (printed rounded: whole MB/s, one decimal).
    assert close(paper_per, paper_rate / 15, 0.1), cells
    assert model_ms > 0, cells
    assert close(model_per, remote_mb / 15 / (model_ms / 1e3), 0.1 + model_per * 0.01), cells
    assert_refused(SCRIPT, [starfish, "--patterns", "rb"], "'rb' is not one of")


def check_queued_pairs(starfish):
    # 2 MB: rnb's 8 KB records then make 16 columns, one per CP.
    out = subprocess.run([sys.executable, SCRIPT, starfish, "--queued-pairs", "--set",
                          "workload.file_mb=2"], capture_output=True, text=True, check=True).stdout
    rows = {line.split("`")[1]: [float(c) for c in line.strip("|").split("|")[1:]]
            for line in out.splitlines() if line.startswith("| `")}
    assert sorted(rows) == sorted(["rbb", "rcb", "rcn", "rnb", "wbb", "wcb", "wcn", "wnb"]), out
    # Contiguous rbb: 2PIO 28.0 MB/s at 8 bytes and 27.1 at 8192, the same SPFS rb under both.
    paper_8, paper_8k, paper_diff, model_8, model_8k, model_diff = rows["rbb"]
    assert close(paper_diff, (10 / 28.0 - 10 / 27.1) * 1e3, 0.05), rows["rbb"]
    for pattern, (p8, p8k, pd, m8, m8k, md) in rows.items():
        assert close(pd, p8 - p8k, 0.11) and close(md, m8 - m8k, 0.11), (pattern, rows[pattern])
        assert m8 > 0 and m8k > 0, (pattern, rows[pattern])


def main():
    check_paper_times()
    check_ratio_bounds(sys.argv[1])
    check_end_to_end(sys.argv[1])
    check_queued_pairs(sys.argv[1])
    print("test_permutation_rates: ok")


if __name__ == "__main__":
    main()
